/**
 * Assertions of the sessions fixtures (sessions conformance directory): the final state written
 * directly in an `invocations:` entry, the invoke state a session-bound call started from, and the
 * pre-states inner subgraph / fan-out instance nodes saw (§5.8 lists `inner_pre_state` and
 * `instance_pre_states` among the exact state snapshots).
 */
import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { completedState } from "../../harness/graph/reading.ts";
import { CompletedEvents } from "../../harness/suspension/facets.ts";
import { entryStateOf } from "../../harness/suspension/claims.ts";
import * as F from "../../harness/graph/facets.ts";

const HOME = "sessions";

/** `expected_final_state: {...}` in an `invocations:` entry: that call's final state, exact (as `final_state`). */
@directive({ name: "expected_final_state", at: "invocation", home: HOME, summary: "the call's final state, exact" })
export class ExpectedFinalState {
  readonly scope = "call" as const;
  readonly schema = { type: "object" };
  check(value: Record<string, unknown>, obs: Observation, ctx: CheckContext): void {
    const state = completedState(obs, ctx);
    if (state !== null) ctx.match(value, state, Shapes.exact());
  }
}

/**
 * `loaded_invoke_state_for_<field>: <value>` (fixture 004): the value of `<field>` in the invoke
 * state the call started from — after the session merge, before any node ran (the first node's
 * pre-state).
 */
@directive({ name: /loaded_invoke_state_for_(?<field>.+)/, at: ["invocation", "expected"], home: HOME, summary: "a field of the invoke state at entry" })
export class LoadedInvokeStateFor {
  readonly scope = "call" as const;
  readonly schema = true;
  check(value: unknown, obs: Observation, ctx: CheckContext): void {
    const events = obs.get(CompletedEvents, ctx.locate(ctx.self.path));
    const entry = entryStateOf({ events });
    if (entry === undefined) {
      ctx.fail("no node ran, so the call has no entry state to read");
      return;
    }
    const field = ctx.self.groups.field as string;
    ctx.match(value, Object.prototype.hasOwnProperty.call(entry, field) ? entry[field] : null, Shapes.exact());
  }
}

/** `inner_pre_state: {...}`: the state the subgraph's first node received (its entry state), exact. */
@directive({ name: "inner_pre_state", at: "expected", home: HOME, summary: "the subgraph's entry state, exact" })
export class InnerPreState {
  readonly scope = "call" as const;
  readonly schema = { type: "object" };
  check(value: Record<string, unknown>, obs: Observation, ctx: CheckContext): void {
    const events = obs.get(CompletedEvents, ctx.locate(ctx.self.path));
    const inner = events.find((e) => e.namespace.length > 1 && e.fanOutIndex === undefined);
    if (inner === undefined) {
      ctx.fail(`no inner subgraph node ran (${obs.get(F.Result, ctx.locate(ctx.self.path)).kind} call)`);
      return;
    }
    ctx.match(value, inner.preState, Shapes.exact());
  }
}

/** `instance_pre_states: [...]`: per fan-out instance, by `fan_out_index`, the state its first node received — complete, exact. */
@directive({ name: "instance_pre_states", at: "expected", home: HOME, summary: "each fan-out instance's entry state, by index" })
export class InstancePreStates {
  readonly scope = "call" as const;
  readonly schema = { type: "array", items: { type: "object" } };
  check(value: Record<string, unknown>[], obs: Observation, ctx: CheckContext): void {
    const events = obs.get(CompletedEvents, ctx.locate(ctx.self.path));
    const first = new Map<number, Readonly<Record<string, unknown>>>();
    for (const e of events) if (e.fanOutIndex !== undefined && !first.has(e.fanOutIndex)) first.set(e.fanOutIndex, e.preState);
    const ordered = [...first.entries()].sort((a, b) => a[0] - b[0]).map(([, s]) => s);
    ctx.match(value, ordered, Shapes.list("ordered", Shapes.exact()));
  }
}
