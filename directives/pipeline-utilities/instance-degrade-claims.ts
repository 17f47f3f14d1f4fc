/**
 * Named claims of the fan-out instance-degrade fixtures 064 (case 1), 065 (case 3), 069 (case 2)
 * and 071 (§9.3 degraded contributions, §9.7 instance middleware, §6.4 cause fidelity), checked
 * against the captured failure-isolation events, the fan-out node's fixture configuration and what
 * the call produced.
 */
import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { isFailureIsolationEvent } from "../../src/pipeline/middleware/index.ts";
import * as F from "../../harness/graph/facets.ts";
import { classify } from "../../harness/graph/reading.ts";
import { CapturedEvents } from "../../harness/pipeline/facets.ts";
import { fanOutBlock } from "../../harness/pipeline/fixture-nodes.ts";

const HOME = "pipeline-utilities";
const schema = { type: "boolean" } as const;

const isolations = (obs: Observation) => (obs.tryGet(CapturedEvents) ?? []).filter(isFailureIsolationEvent);

/** The (first) fan-out node's collect / target fields, from the fixture. */
function fanOutFields(ctx: CheckContext): { collect: string; target: string } | null {
  const fo = fanOutBlock(ctx);
  return fo?.collect_field && fo.target_field ? { collect: fo.collect_field, target: fo.target_field } : null;
}

/** The fan-out node's extra_outputs (parent → subgraph field), from the fixture. */
function extraOutputs(ctx: CheckContext): Record<string, string> {
  return fanOutBlock(ctx)?.extra_outputs ?? {};
}

/** 064: the isolation event's category is the originating cause's, resolved through the carrier. */
@directive({ name: "category_resolves_through_node_exception_wrapper", at: "invariant", home: HOME })
export class CategoryResolvesThroughWrapper {
  readonly schema = schema;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const evs = isolations(obs);
    const ok =
      evs.length > 0 &&
      evs.every((e) => {
        const c = e.caughtException;
        return c.category !== null && c.chain.some((l) => l.carrier) && c.chain.some((l) => !l.carrier && l.category === c.category);
      });
    ctx.match(value, ok, null);
  }
}

/** 064: the reported category is not the masking `node_exception` carrier's. */
@directive({ name: "category_not_masked_as_node_exception", at: "invariant", home: HOME })
export class CategoryNotMaskedAsNodeException {
  readonly schema = schema;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const evs = isolations(obs);
    ctx.match(value, evs.length > 0 && evs.every((e) => e.caughtException.category !== null && e.caughtException.category !== "node_exception"), null);
  }
}

/** 065 / 069: the degraded update omitted collect_field, so the instance's slot in target_field is null. */
class NullSlot {
  readonly schema = schema;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const fields = fanOutFields(ctx);
    const r = obs.get(F.Result, ctx.locate(ctx.self.path));
    const evs = isolations(obs);
    const slots = r.kind === "completed" && fields ? (r.state[fields.target] as unknown[] | undefined) : undefined;
    const ok =
      fields !== null &&
      evs.length > 0 &&
      evs.every((e) => !(fields.collect in (e.postState as object))) &&
      Array.isArray(slots) &&
      slots.length === evs.length &&
      slots.every((s) => s === null);
    ctx.match(value, ok, null);
  }
}
@directive({ name: "omitted_collect_field_yields_null_slot", at: "invariant", home: HOME })
export class OmittedCollectFieldYieldsNullSlot extends NullSlot {}
@directive({ name: "absent_collect_field_yields_null_slot", at: "invariant", home: HOME })
export class AbsentCollectFieldYieldsNullSlot extends NullSlot {}

/** 065 / 069: the degrade path completed the call: isolation caught, fan-in did not raise. */
class DegradeCompletes {
  readonly schema = schema;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const r = obs.get(F.Result, ctx.locate(ctx.self.path));
    ctx.match(value, r.kind === "completed" && isolations(obs).length > 0, null);
  }
}
@directive({ name: "degrade_path_does_not_raise", at: "invariant", home: HOME })
export class DegradePathDoesNotRaise extends DegradeCompletes {}
@directive({ name: "fan_in_does_not_raise", at: "invariant", home: HOME })
export class FanInDoesNotRaise extends DegradeCompletes {}

/** 071: under a strict reducer the null slot raised reducer_error at the fan-out node. */
@directive({ name: "strict_reducer_null_slot_raises", at: "invariant", home: HOME })
export class StrictReducerNullSlotRaises {
  readonly schema = schema;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const r = obs.get(F.Result, ctx.locate(ctx.self.path));
    ctx.match(value, r.kind === "errored" && classify(r.error).category === "reducer_error", null);
  }
}

/** 071: the degrade happened (isolation caught) and still the reducer error surfaced. */
@directive({ name: "degrade_does_not_suppress_reducer_error", at: "invariant", home: HOME })
export class DegradeDoesNotSuppressReducerError {
  readonly schema = schema;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const r = obs.get(F.Result, ctx.locate(ctx.self.path));
    ctx.match(value, r.kind === "errored" && classify(r.error).category === "reducer_error" && isolations(obs).length > 0, null);
  }
}

/** 065: each degraded instance's slot in target_field is its degraded update's collect_field value. */
@directive({ name: "contribution_is_the_degraded_update", at: "invariant", home: HOME })
export class ContributionIsTheDegradedUpdate {
  readonly schema = schema;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const fields = fanOutFields(ctx);
    const r = obs.get(F.Result, ctx.locate(ctx.self.path));
    const evs = isolations(obs);
    const slots = r.kind === "completed" && fields ? (r.state[fields.target] as unknown[] | undefined) : undefined;
    const ok =
      fields !== null &&
      evs.length > 0 &&
      Array.isArray(slots) &&
      evs.every((e) => slots.some((s) => JSON.stringify(s) === JSON.stringify((e.postState as Record<string, unknown>)[fields.collect])));
    ctx.match(value, ok, null);
  }
}

/** 065: each extra_outputs parent field holds the degraded update's value of the mapped subgraph field. */
@directive({ name: "extra_outputs_read_by_subgraph_field_name", at: "invariant", home: HOME })
export class ExtraOutputsReadBySubgraphFieldName {
  readonly schema = schema;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const map = Object.entries(extraOutputs(ctx));
    const r = obs.get(F.Result, ctx.locate(ctx.self.path));
    const evs = isolations(obs);
    const ok =
      r.kind === "completed" &&
      map.length > 0 &&
      evs.length > 0 &&
      map.every(([parent, sub]) =>
        evs.every((e) => {
          const v = (e.postState as Record<string, unknown>)[sub];
          return v !== undefined && ((r.state[parent] as unknown[] | undefined) ?? []).some((x) => JSON.stringify(x) === JSON.stringify(v));
        }),
      );
    ctx.match(value, ok, null);
  }
}

/** 069: a degraded update that lacks an extra_outputs subgraph field contributes null at that slot. */
@directive({ name: "extra_outputs_omission_is_null_slot", at: "invariant", home: HOME })
export class ExtraOutputsOmissionIsNullSlot {
  readonly schema = schema;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const map = Object.entries(extraOutputs(ctx));
    const r = obs.get(F.Result, ctx.locate(ctx.self.path));
    const evs = isolations(obs);
    const omitted = map.filter(([, sub]) => evs.every((e) => !(sub in (e.postState as object))));
    const ok =
      r.kind === "completed" &&
      evs.length > 0 &&
      omitted.length > 0 &&
      omitted.every(([parent]) => {
        const list = r.state[parent] as unknown[] | undefined;
        return Array.isArray(list) && list.length === evs.length && list.every((x) => x === null);
      });
    ctx.match(value, ok, null);
  }
}
