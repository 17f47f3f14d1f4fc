/**
 * Named claims of the sessions fixtures (conformance-adapter §5 *Named claims*, §5.9): their
 * meaning comes from the fixture prose that uses them; each is checked against the real
 * session-bound calls of its block — what the library reported, what the in-memory store saw and
 * holds, and the node events the call dispatched.
 */
import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import type { NodeEvent } from "../../src/graph/index.ts";
import { MigrationsRun } from "../../harness/checkpoint/facets.ts";
import { valuesEqual } from "../../harness/graph/values.ts";
import { SessionCallFacet, type SessionCall } from "../../harness/sessions/facets.ts";
import { sessionCall } from "../../harness/sessions/reading.ts";
import { callViews, categoryOfCall, claim, entryStateOf, show, type CallView } from "../../harness/suspension/claims.ts";

const HOME = "sessions";
const BOOL = { type: "boolean" } as const;

interface SessionView extends CallView {
  readonly session: SessionCall | undefined;
}

function views(obs: Observation, ctx: CheckContext): SessionView[] {
  return callViews(obs, ctx).map((c) => ({ ...c, session: c.obs.tryGet(SessionCallFacet) }));
}

function noStoreCall(value: boolean, obs: Observation, ctx: CheckContext, op: "load" | "save"): void {
  const s = sessionCall(obs, ctx);
  if (s === null) return;
  // With a store: it received no such call. Without one: the library reports nothing loaded / saved.
  const none = s.storeRegistered ? s.stats[op] === 0 : op === "load" ? s.reported?.loadedRecord === null : s.reported?.savedSession === null;
  claim(ctx, value, none, () => (s.storeRegistered ? `the store received ${s.stats[op]} ${op}() call(s)` : `the library reported a ${op}`));
}

/** 002 / 003: the call made no `load()` (sessions §3: no store, or no session id). */
@directive({ name: "no_session_load", at: "expected", home: HOME })
export class NoSessionLoad {
  readonly scope = "call" as const;
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    noStoreCall(value, obs, ctx, "load");
  }
}

/** 002 / 003 / 005: the call made no `save()`. */
@directive({ name: "no_session_save", at: "expected", home: HOME })
export class NoSessionSave {
  readonly scope = "call" as const;
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    noStoreCall(value, obs, ctx, "save");
  }
}

/** 003: the store received no call at all and holds exactly what it held before. */
@directive({ name: "store_untouched", at: "expected", home: HOME })
export class StoreUntouched {
  readonly scope = "call" as const;
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const s = sessionCall(obs, ctx);
    if (s === null) return;
    const calls = s.stats.load + s.stats.save + s.stats.delete + s.stats.list;
    const same =
      s.storeBefore.size === s.storeAfter.size &&
      [...s.storeBefore].every(([id, r]) => {
        const a = s.storeAfter.get(id);
        return a !== undefined && a.version === r.version && valuesEqual(a.state, r.state);
      });
    claim(ctx, value, s.storeRegistered && calls === 0 && same, () => `the store received ${calls} call(s); contents ${same ? "unchanged" : "changed"}`);
  }
}

/** 005 / 006: a `load()` against the store after the call. */
@directive({ name: "store_after", at: "expected", home: HOME })
export class StoreAfter {
  readonly scope = "call" as const;
  readonly schema = {
    type: "object",
    additionalProperties: false,
    properties: { load_returns_none_for_session_id: { type: "string" }, load_returns_for_session_id: { type: "string" }, loaded_state: { type: "object" } },
    oneOf: [{ required: ["load_returns_none_for_session_id"] }, { required: ["load_returns_for_session_id", "loaded_state"] }],
  };
  check(value: { load_returns_none_for_session_id?: string; load_returns_for_session_id?: string; loaded_state?: Record<string, unknown> }, obs: Observation, ctx: CheckContext): void {
    const s = sessionCall(obs, ctx);
    if (s === null) return;
    const id = value.load_returns_none_for_session_id ?? value.load_returns_for_session_id!;
    const rec = s.storeAfter.get(id) ?? null;
    if (value.load_returns_none_for_session_id !== undefined) {
      if (rec !== null) ctx.fail(`load(${JSON.stringify(id)}) returns a record after the call`, { expected: null, actual: rec.state });
      return;
    }
    if (rec === null) {
      ctx.fail(`load(${JSON.stringify(id)}) returns none after the call`);
      return;
    }
    ctx.match(value.loaded_state, rec.state, Shapes.exact(), `${ctx.label}.loaded_state`);
  }
}

/** 006: the auto-save at END did not run — every save the store received was an explicit one. */
@directive({ name: "no_auto_save_on_end", at: "expected", home: HOME })
export class NoAutoSaveOnEnd {
  readonly scope = "call" as const;
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const s = sessionCall(obs, ctx);
    if (s === null) return;
    const ok = s.reported?.savedSession == null && s.stats.save === s.explicitSaves.length;
    claim(ctx, value, ok, () => `${s.stats.save} save(s), ${s.explicitSaves.length} explicit`);
  }
}

/** 006: the call errored, and the store still holds what the explicit mid-invoke save committed. */
@directive({ name: "mid_invoke_save_survives_subsequent_crash", at: "invariant", home: HOME })
export class MidInvokeSaveSurvivesSubsequentCrash {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const cs = views(obs, ctx);
    const ok = cs.length > 0 && cs.every((c) => {
      const last = c.session?.explicitSaves.at(-1);
      return c.result.kind === "errored" && last !== undefined && c.session?.recordAfter != null && valuesEqual(c.session.recordAfter.state, last);
    });
    claim(ctx, value, ok, () => `calls: ${show(cs.map((c) => [c.result.kind, c.session?.explicitSaves, c.session?.recordAfter?.state]))}`);
  }
}

/** 001: the second call loaded exactly the state the first call saved. */
@directive({ name: "second_invoke_loads_first_invoke_state", at: "invariant", home: HOME })
export class SecondInvokeLoadsFirstInvokeState {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const [a, b] = views(obs, ctx);
    const saved = a?.session?.recordAfter?.state;
    const loaded = b?.session?.reported?.loadedSessionState;
    claim(ctx, value, saved !== undefined && loaded != null && valuesEqual(saved, loaded), () => `first saved ${show(saved)}, second loaded ${show(loaded)}`);
  }
}

/** 001: each call's save replaced the previous record (the store ends with the last call's state, a newer version). */
@directive({ name: "saved_record_overwrites_prior", at: "invariant", home: HOME })
export class SavedRecordOverwritesPrior {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const cs = views(obs, ctx);
    let ok = cs.length > 1;
    for (let i = 1; i < cs.length && ok; i++) {
      const prev = cs[i - 1]!.session?.recordAfter;
      const cur = cs[i]!.session?.recordAfter;
      const final = cs[i]!.result.kind === "completed" ? (cs[i]!.result as { state: Record<string, unknown> }).state : undefined;
      ok = prev != null && cur != null && (cur.version ?? 0) > (prev.version ?? 0) && final !== undefined && Object.entries(cur.state).every(([k, v]) => valuesEqual(final[k], v));
    }
    claim(ctx, value, ok, () => `records: ${show(cs.map((c) => c.session?.recordAfter && { version: c.session.recordAfter.version, state: c.session.recordAfter.state }))}`);
  }
}

/** The state-schema fields outside the case's `session_state` projection (004's scratch fields). */
function unprojected(ctx: CheckContext): string[] {
  const fields = Object.keys(((ctx.caseSpec.entries.find((e) => e.key === "state")?.value as { fields?: object } | undefined)?.fields ?? {}) as object);
  const projected = (ctx.caseSpec.entries.find((e) => e.key === "session_state")?.value as { fields?: string[] } | undefined)?.fields;
  return projected === undefined ? [] : fields.filter((f) => !projected.includes(f));
}

/** 004: no stored record ever held a non-projected field, though the calls set them. */
@directive({ name: "scratch_field_never_persisted", at: "invariant", home: HOME })
export class ScratchFieldNeverPersisted {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const scratch = unprojected(ctx);
    const cs = views(obs, ctx);
    const leaked = cs.flatMap((c) => scratch.filter((f) => c.session?.recordAfter != null && f in c.session.recordAfter.state));
    const setByRun = cs.some((c) => c.result.kind === "completed" && scratch.some((f) => !valuesEqual((c.result as { state: Record<string, unknown> }).state[f], undefined)));
    claim(ctx, value, scratch.length > 0 && setByRun && leaked.length === 0, () => (scratch.length === 0 ? "the case declares no non-projected field" : `persisted: ${show(leaked)}`));
  }
}

/** 004: each later call loaded the projected fields the previous call saved. */
@directive({ name: "projected_field_persists_across_invokes", at: "invariant", home: HOME })
export class ProjectedFieldPersistsAcrossInvokes {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const cs = views(obs, ctx);
    let ok = cs.length > 1;
    for (let i = 1; i < cs.length && ok; i++) {
      const saved = cs[i - 1]!.session?.recordAfter?.state;
      const loaded = cs[i]!.session?.reported?.loadedSessionState;
      ok = saved !== undefined && loaded != null && valuesEqual(saved, loaded);
    }
    claim(ctx, value, ok, () => `saved → loaded: ${show(cs.map((c) => [c.session?.recordAfter?.state, c.session?.reported?.loadedSessionState]))}`);
  }
}

/** 007: exactly one migration application during the call's load. */
@directive({ name: "single_migration_invocation", at: "invariant", home: HOME })
export class SingleMigrationInvocation {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const ran = callViews(obs, ctx).flatMap((c) => c.obs.tryGet(MigrationsRun) ?? []);
    claim(ctx, value, ran.length === 1, () => `migrations applied: ${show(ran)}`);
  }
}

/** 007: the graph started from the migrated session state (migration before the §4 projection merge). */
@directive({ name: "migration_runs_before_projection_merge", at: "invariant", home: HOME })
export class MigrationRunsBeforeProjectionMerge {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const cs = views(obs, ctx).filter((c) => (c.obs.tryGet(MigrationsRun) ?? []).length > 0);
    const ok = cs.length > 0 && cs.every((c) => {
      const loaded = c.session?.reported?.loadedSessionState;
      const raw = c.session?.reported?.loadedRecord?.state;
      const entry = entryStateOf(c);
      return loaded != null && raw !== undefined && entry !== undefined && !valuesEqual(loaded, raw) && Object.entries(loaded).every(([k, v]) => valuesEqual(entry[k], v));
    });
    claim(ctx, value, ok, () => `calls: ${show(cs.map((c) => ({ raw: c.session?.reported?.loadedRecord?.state, migrated: c.session?.reported?.loadedSessionState, entry: entryStateOf(c) })))}`);
  }
}

/** The fields a declared subgraph's schema has (from the case's subgraph declarations). */
function subgraphFields(ctx: CheckContext, graphName: string): string[] | undefined {
  const decl = ctx.caseSpec.subgraphs.get(graphName);
  const fields = (decl?.body["state"] as { fields?: object } | undefined)?.fields;
  return fields === undefined ? undefined : Object.keys(fields);
}

function innerEvents(c: CallView, inFanOut: boolean): NodeEvent[] {
  return c.events.filter((e) => e.namespace.length > 1 && (e.fanOutIndex !== undefined) === inFanOut);
}

/** Every inner event's state holds exactly its graph's declared fields. */
function fieldsMatch(value: boolean, obs: Observation, ctx: CheckContext, inFanOut: boolean): void {
  const evs = callViews(obs, ctx).flatMap((c) => innerEvents(c, inFanOut));
  const bad = evs.filter((e) => {
    const declared = subgraphFields(ctx, e.graphName);
    return declared === undefined || !valuesEqual([...Object.keys(e.preState)].sort(), [...declared].sort());
  });
  claim(ctx, value, evs.length > 0 && bad.length === 0, () => (evs.length === 0 ? "no inner node ran" : `states: ${show(bad.map((e) => [e.graphName, Object.keys(e.preState)]))}`));
}

/** Inner states hold no session field outside their own schema (no leakage of the session record). */
function noSessionLeak(value: boolean, obs: Observation, ctx: CheckContext, inFanOut: boolean): void {
  const cs = views(obs, ctx);
  const leaks: string[] = [];
  let inner = 0;
  for (const c of cs) {
    const sessionFields = Object.keys(c.session?.reported?.loadedSessionState ?? c.session?.recordAfter?.state ?? {});
    for (const e of innerEvents(c, inFanOut)) {
      inner++;
      const own = subgraphFields(ctx, e.graphName) ?? [];
      for (const f of sessionFields) if (!own.includes(f) && f in e.preState) leaks.push(`${e.namespace.join("/")}: ${f}`);
    }
  }
  claim(ctx, value, inner > 0 && cs.some((c) => c.session?.sessionId !== undefined) && leaks.length === 0, () => (inner === 0 ? "no inner node ran" : `leaked: ${leaks.join(", ")}`));
}

/** Per call: one load and at most one save — the outermost invocation's own; inner runs made none. */
function onlyOuterStoreCalls(value: boolean, obs: Observation, ctx: CheckContext): void {
  const cs = views(obs, ctx);
  const ok = cs.length > 0 && cs.every((c) => c.session !== undefined && c.session.storeRegistered && c.session.stats.load === 1 && c.session.stats.save <= 1 && c.session.stats.delete === 0 && c.session.stats.list === 0);
  claim(ctx, value, ok, () => `store calls: ${show(cs.map((c) => c.session?.stats))}`);
}

/** 010 */
@directive({ name: "subgraph_state_fields_match_subgraph_schema", at: "invariant", home: HOME })
export class SubgraphStateFieldsMatchSubgraphSchema {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    fieldsMatch(value, obs, ctx, false);
  }
}
/** 010 */
@directive({ name: "subgraph_does_not_see_session_state_directly", at: "invariant", home: HOME })
export class SubgraphDoesNotSeeSessionStateDirectly {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    noSessionLeak(value, obs, ctx, false);
  }
}
/** 010 */
@directive({ name: "no_inner_session_load_or_save", at: "invariant", home: HOME })
export class NoInnerSessionLoadOrSave {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    onlyOuterStoreCalls(value, obs, ctx);
  }
}
/** 011 */
@directive({ name: "fan_out_instance_state_fields_match_subgraph_schema", at: "invariant", home: HOME })
export class FanOutInstanceStateFieldsMatchSubgraphSchema {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    fieldsMatch(value, obs, ctx, true);
  }
}
/** 011 */
@directive({ name: "fan_out_instances_do_not_see_session_state_directly", at: "invariant", home: HOME })
export class FanOutInstancesDoNotSeeSessionStateDirectly {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    noSessionLeak(value, obs, ctx, true);
  }
}
/** 011 */
@directive({ name: "no_per_instance_session_load_or_save", at: "invariant", home: HOME })
export class NoPerInstanceSessionLoadOrSave {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    onlyOuterStoreCalls(value, obs, ctx);
  }
}

/** 013: the graph never ran — no node event, no execution-order entry. */
@directive({ name: "node_never_invoked", at: "invariant", home: HOME })
export class NodeNeverInvoked {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const cs = callViews(obs, ctx);
    const ran = cs.flatMap((c) => [...c.executionOrder, ...c.events.map((e) => e.namespace.join("/"))]);
    claim(ctx, value, cs.length > 0 && ran.length === 0, () => `ran: ${show(ran)}`);
  }
}

/** 013: the error's category (§5.8 rule) is none of the listed ones (and the call did error). */
@directive({ name: "error_category_not", at: "invariant", home: HOME })
export class ErrorCategoryNot {
  readonly schema = { type: "array", minItems: 1, items: { type: "string" } };
  check(value: string[], obs: Observation, ctx: CheckContext): void {
    const cats = callViews(obs, ctx).map(categoryOfCall);
    const bad = cats.filter((c) => c === null || value.includes(c));
    if (cats.length === 0 || bad.length > 0) ctx.fail(`error categories ${show(cats)} include a forbidden one (or none errored)`, { expected: `none of ${show(value)}`, actual: cats });
  }
}
