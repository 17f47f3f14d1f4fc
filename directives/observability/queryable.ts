/**
 * Queryable-observer directives (observability §9; defined by the prose of fixtures 047–049, the
 * observability directory's harness note): declaring the observers, the node primitives that read
 * and drop them, the `sequential_invocations` mode and the `per_invocation` block.
 */
import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext, ConfigureContext, JsonSchema } from "../../src/conformance/directive.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import { Facet, type Observation } from "../../src/conformance/observation.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import { currentNodeContext } from "../../src/graph/index.ts";
import type { BuildEnv, NodeAssembly } from "../../harness/graph/node-directive.ts";
import { perCall } from "../../harness/pipeline/facets.ts";
import {
  QUERYABLE_KINDS,
  QueryableObserversSlot,
  QueryableReads,
  READ_METHODS,
  type DeclaredQueryable,
  type QueryableKind,
  type QueryableRead,
} from "../../harness/observability/queryable.ts";
import { NodeEventAccumulator } from "../../src/observability/index.ts";
import { configureInvocations } from "../general/invocations.ts";
import { configurePredicates } from "../general/invariants.ts";

const HOME = "observability";

/** `queryable_observers: [{name, kind, persists_across_invocations?}]`: library observers attached to each call. */
@directive({ name: "queryable_observers", at: "case", home: HOME, summary: "queryable observers (§9) attached at invoke", section: "observability 047-049" })
export class QueryableObserversDirective {
  readonly schema: JsonSchema = {
    type: "array",
    minItems: 1,
    items: {
      type: "object",
      required: ["name", "kind"],
      additionalProperties: false,
      properties: { name: { type: "string", minLength: 1 }, kind: { enum: [...QUERYABLE_KINDS] }, persists_across_invocations: { type: "boolean" } },
    },
  };
  configure(value: Array<{ name: string; kind: QueryableKind; persists_across_invocations?: boolean }>, ctx: ConfigureContext): void {
    const slot = ctx.slot(QueryableObserversSlot);
    for (const [i, q] of value.entries()) {
      const path = [...ctx.self.path, i];
      if (slot.get(q.name)) throw new FixtureSchemaInvalid(`queryable observer name '${q.name}' is used twice`, ctx.locate([...path, "name"]));
      slot.declare(ctx, { name: q.name, kind: q.kind, path, persists: q.persists_across_invocations });
    }
  }
}

/** `sequential_invocations: {observer_persists_across?, invocations: [...]}` (049): the `invocations:` form, with observers kept across calls. */
@directive({ name: "sequential_invocations", at: "case", home: HOME, summary: "sequential invocations sharing the queryable observers", section: "observability 049" })
export class SequentialInvocations {
  readonly schema: JsonSchema = {
    type: "object",
    required: ["invocations"],
    additionalProperties: false,
    properties: { observer_persists_across: { type: "boolean" }, invocations: { type: "array", minItems: 1, items: { type: "object" } } },
  };
  async configure(value: { observer_persists_across?: boolean; invocations: Array<Record<string, unknown>> }, ctx: ConfigureContext): Promise<void> {
    ctx.slot(QueryableObserversSlot).persistAcross = value.observer_persists_across ?? false;
    await configureInvocations(value.invocations, [...ctx.self.path, "invocations"], ctx);
  }
}

/** `noop: true` (047–049): the node does nothing; its events are all it contributes. */
@directive({ name: "noop", at: "node", home: HOME, summary: "node with an empty body", section: "observability 047" })
export class Noop {
  readonly schema: JsonSchema = { const: true };
  contribute(): void {}
}

/** The observer a node primitive names, which must be declared and of a kind with `method`. */
function declared(env: BuildEnv, name: string, where: KeyPath, method?: string): DeclaredQueryable {
  const q = env.slot(QueryableObserversSlot).get(name);
  if (!q) throw new FixtureSchemaInvalid(`no queryable observer '${name}' is declared in queryable_observers`, env.locate(where));
  if (method !== undefined && !READ_METHODS[q.kind].includes(method)) {
    throw new FixtureSchemaInvalid(`queryable observer '${name}' (${q.kind}) has no read method '${method}' (it has: ${READ_METHODS[q.kind].join(", ")})`, env.locate(where));
  }
  return q;
}

const lastNamed = new WeakMap<NodeAssembly, DeclaredQueryable>();

function record(env: BuildEnv, r: QueryableRead): void {
  perCall(env.currentCall().observation, QueryableReads, () => []).push(r);
}

function invocationId(): string {
  const ctx = currentNodeContext();
  if (!ctx) throw new Error("a queryable-observer primitive ran outside a node");
  return ctx.invocationId;
}

/** `capture_queryable_observer_read_into: {observer_name, method, state_field}`: the node calls the read method and writes the value into the field. */
@directive({ name: "capture_queryable_observer_read_into", at: "node", home: HOME, summary: "node writes a queryable observer's read into a field", section: "observability 047" })
export class CaptureQueryableObserverReadInto {
  readonly schema: JsonSchema = {
    type: "object",
    required: ["observer_name", "method", "state_field"],
    additionalProperties: false,
    properties: { observer_name: { type: "string", minLength: 1 }, method: { type: "string", minLength: 1 }, state_field: { type: "string", minLength: 1 } },
  };
  contribute(value: { observer_name: string; method: string; state_field: string }, node: NodeAssembly, env: BuildEnv, at: KeyPath): void {
    const q = declared(env, value.observer_name, [...at, "method"], value.method);
    if (!env.fieldNames.has(value.state_field)) throw new FixtureSchemaInvalid(`'${value.state_field}' is not a declared state field`, env.locate([...at, "state_field"]));
    lastNamed.set(node, q);
    node.steps.push(async () => {
      const id = invocationId();
      const v = await env.slot(QueryableObserversSlot).read(q, value.method, id);
      record(env, { node: node.name, observer: q.name, kind: q.kind, op: "read", method: value.method, field: value.state_field, invocationId: id, value: v });
      return { [value.state_field]: v ?? {} };
    });
  }
}

/** `then_drop_for_current_invocation: {observer_name}` (049): the node calls the accumulator's `drop(invocation_id)`. */
@directive({ name: "then_drop_for_current_invocation", at: "node", home: HOME, summary: "node drops an accumulator's bucket for its invocation", section: "observability 049" })
export class ThenDropForCurrentInvocation {
  readonly schema: JsonSchema = { type: "object", required: ["observer_name"], additionalProperties: false, properties: { observer_name: { type: "string", minLength: 1 } } };
  contribute(value: { observer_name: string }, node: NodeAssembly, env: BuildEnv, at: KeyPath): void {
    const q = declared(env, value.observer_name, [...at, "observer_name"]);
    if (q.kind !== "per_invocation_accumulator") throw new FixtureSchemaInvalid(`'${q.name}' is a ${q.kind}, not an accumulator: it has no drop`, env.locate(at));
    lastNamed.set(node, q);
    node.steps.push(() => {
      const id = invocationId();
      const dropped = (q.instance as NodeEventAccumulator).drop(id);
      record(env, { node: node.name, observer: q.name, kind: q.kind, op: "drop", invocationId: id, value: dropped });
    });
  }
}

/** `then_assert_bucket_absent_into: <state field>` (049): re-read the node's accumulator; write whether its bucket is absent. */
@directive({ name: "then_assert_bucket_absent_into", at: "node", home: HOME, summary: "node writes whether its accumulator bucket is absent", section: "observability 049" })
export class ThenAssertBucketAbsentInto {
  readonly schema: JsonSchema = { type: "string", minLength: 1 };
  contribute(value: string, node: NodeAssembly, env: BuildEnv, at: KeyPath): void {
    const q = lastNamed.get(node);
    if (!q || q.kind !== "per_invocation_accumulator") {
      throw new FixtureSchemaInvalid("then_assert_bucket_absent_into re-reads the accumulator an earlier directive of this node names; none does", env.locate(at));
    }
    if (!env.fieldNames.has(value)) throw new FixtureSchemaInvalid(`'${value}' is not a declared state field`, env.locate(at));
    node.steps.push(() => {
      const id = invocationId();
      const absent = !(q.instance as NodeEventAccumulator).has(id);
      record(env, { node: node.name, observer: q.name, kind: q.kind, op: "absent_check", field: value, invocationId: id, value: absent });
      return { [value]: absent };
    });
  }
}

/** Every call of the case by invocation name (what a `per_invocation` entry's claims may compare against). */
export const CaseCalls = new Facet<ReadonlyMap<string, Observation>>("the case's calls by invocation name");

/** `per_invocation: {<invocation name>: {<claim>: <value>, ...}}` (049): claims checked against one named invocation's call. */
@directive({ name: "per_invocation", at: "expected", home: HOME, summary: "named claims per invocation of a multi-invocation case", section: "observability 049" })
export class PerInvocation {
  readonly schema: JsonSchema = { type: "object", minProperties: 1, additionalProperties: { type: "object", minProperties: 1 } };
  /** Resolve every entry's claims before the run (an unknown one fails first) and let them set up what they read. */
  async configure(value: Record<string, Record<string, unknown>>, ctx: ConfigureContext): Promise<void> {
    for (const [name, block] of Object.entries(value)) await configurePredicates(ctx.resolve("invariant", block, [...ctx.self.path, name]), ctx);
  }
  async check(value: Record<string, Record<string, unknown>>, obs: Observation, ctx: CheckContext): Promise<void> {
    const calls = new Map<string, Observation>();
    for (const c of obs.calls) if (c.label !== null) calls.set(c.label, c);
    for (const [name, block] of Object.entries(value)) {
      const call = calls.get(name);
      if (!call) {
        ctx.fail(`no invocation named '${name}' ran (invocations: ${[...calls.keys()].join(", ") || "none"})`, { path: `${ctx.label}.${name}` });
        continue;
      }
      const resolved = ctx.resolve("invariant", block, [...ctx.self.path, name]);
      await ctx.checkAll(resolved, call.derive().set(CaseCalls, calls));
    }
  }
}
