/**
 * Named claims of the queryable-observer fixtures (observability 047–049, §9), by the plain meaning
 * their prose gives: each reads the reads / drops the call's nodes made on the library's observers
 * and what each observer held once the call returned and delivery completed.
 */
import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { registerClaims, type ClaimRow } from "../../harness/observability/claim-table.ts";
import { QueryableAfterCall, QueryableReads, type QueryableAfter, type QueryableRead } from "../../harness/observability/queryable.ts";
import { Result } from "../../harness/graph/facets.ts";
import { claim, show } from "../../harness/suspension/claims.ts";
import { CaseCalls } from "./queryable.ts";

const HOME = "observability";

interface CallView {
  readonly reads: readonly QueryableRead[];
  readonly after: readonly QueryableAfter[];
  readonly finalState: Readonly<Record<string, unknown>> | undefined;
  readonly invocationId: string | null;
}

function callView(obs: Observation, ctx: CheckContext): CallView {
  const after = obs.get(QueryableAfterCall, ctx.locate(ctx.self.path));
  const result = obs.tryGet(Result);
  return {
    reads: obs.tryGet(QueryableReads) ?? [],
    after,
    finalState: result && result.kind !== "errored" ? (result as { state: Readonly<Record<string, unknown>> }).state : undefined,
    invocationId: after[0]?.invocationId ?? null,
  };
}

/** The calls a case-level claim reads: each call of a multi-invocation case, else the one call. */
function views(obs: Observation, ctx: CheckContext): CallView[] {
  return (obs.calls.length > 0 ? obs.calls : [obs]).map((c) => callView(c, ctx));
}

type Bucket = { readonly invocation_id: string; readonly events: ReadonlyArray<{ readonly invocation_id: string }> };
const bucketReads = (v: CallView) => v.reads.filter((r) => r.op === "read" && r.kind === "per_invocation_accumulator");
const isCount = (x: unknown): x is number => typeof x === "number" && Number.isInteger(x) && x >= 0;

/** null when the read value is internally consistent, else why not. */
function inconsistency(r: QueryableRead, v: CallView): string | null {
  const x = r.value;
  if (r.kind === "event_counter") {
    const final = v.after.find((a) => a.name === r.observer)?.count;
    return isCount(x) && final !== undefined && x <= final ? null : `${r.observer}.${r.method} read ${show(x)}, the observer ended at ${show(final)}`;
  }
  if (r.kind === "typed_event_counter") {
    const s = x as { total?: unknown; by_type?: Record<string, number> };
    const sum = Object.values(s.by_type ?? {}).reduce((a, b) => a + b, 0);
    return isCount(s.total) && s.total === sum ? null : `${r.observer}.${r.method} read total ${show(s.total)} with a breakdown summing to ${sum}`;
  }
  if (x === undefined) return null;
  const b = x as Bucket;
  const foreign = b.events.filter((e) => e.invocation_id !== r.invocationId);
  return b.invocation_id === r.invocationId && foreign.length === 0 ? null : `the bucket read for ${r.invocationId} holds events of ${show([...new Set(foreign.map((e) => e.invocation_id))])}`;
}

const first = <T>(xs: readonly (string | null)[]): string | null => xs.find((x) => x !== null) ?? null;

const callClaims: ClaimRow<CallView>[] = [
  {
    name: "observer_attach_emit_consume_cycle_works",
    section: "observability 047",
    summary: "the observer attached at invoke received events and a node consumed its read into state",
    check: (v) => {
      const reads = v.reads.filter((r) => r.op === "read");
      if (reads.length === 0) return "no node read a queryable observer";
      const got = v.after.filter((a) => (a.count ?? a.bucketIds?.length ?? 0) > 0);
      if (got.length === 0) return "no queryable observer received an event";
      return v.finalState !== undefined ? null : "the call did not complete";
    },
  },
  {
    name: "read_returns_non_negative_integer",
    section: "observability 047",
    summary: "every counter read returned a non-negative integer",
    check: (v) => {
      const reads = v.reads.filter((r) => r.op === "read" && r.kind === "event_counter");
      const bad = reads.filter((r) => !isCount(r.value));
      return reads.length > 0 && bad.length === 0 ? null : `counter reads ${show(reads.map((r) => r.value))}`;
    },
  },
  {
    name: "read_is_consistent_no_torn_view",
    section: "observability 047",
    summary: "every read is internally consistent (a count within what was delivered, a total matching its breakdown, a bucket of its own invocation)",
    check: (v) => (v.reads.some((r) => r.op === "read") ? first(v.reads.filter((r) => r.op === "read").map((r) => inconsistency(r, v))) : "no read was made"),
  },
  {
    name: "snapshot_total_equals_sum_of_breakdown",
    section: "observability 048",
    summary: "each typed-counter snapshot's total equals the sum of its per-type breakdown",
    check: (v) => {
      const reads = v.reads.filter((r) => r.op === "read" && r.kind === "typed_event_counter");
      return reads.length > 0 ? first(reads.map((r) => inconsistency(r, v))) : "no typed-counter snapshot was read";
    },
  },
  {
    name: "read_does_not_raise_on_concurrent_write",
    section: "observability 048",
    summary: "reads made while events were being delivered returned (the call completed)",
    check: (v) => (v.reads.some((r) => r.op === "read") && v.finalState !== undefined ? null : "no read returned, or the call did not complete"),
  },
  {
    name: "observer_does_not_mutate_state_or_influence_routing",
    section: "observability 047",
    summary: "the final state differs from the initial state only in the fields nodes wrote reads into",
    check: (v) => {
      if (v.finalState === undefined) return "the call did not complete";
      const init = v.after[0]?.initialState ?? {};
      const written = new Set(v.reads.flatMap((r) => (r.field !== undefined ? [r.field] : [])));
      const unexplained = Object.keys(v.finalState).filter((k) => !written.has(k) && show(v.finalState![k]) !== show(init[k]));
      return unexplained.length === 0 ? null : `fields changed without a read: ${unexplained.join(", ")}`;
    },
  },
  {
    name: "captured_bucket_is_non_empty",
    section: "observability 049",
    summary: "the accumulator read returned a bucket holding at least one event of this invocation",
    check: (v) => {
      const reads = bucketReads(v);
      const empty = reads.filter((r) => r.value === undefined || (r.value as Bucket).events.length === 0);
      return reads.length > 0 && empty.length === 0 ? null : `bucket reads ${show(reads.map((r) => r.value))}`;
    },
  },
  {
    name: "bucket_after_drop_is_absent",
    section: "observability 049",
    summary: "the re-read after the explicit drop found no bucket",
    check: (v) => {
      const checks = v.reads.filter((r) => r.op === "absent_check");
      return checks.length > 0 && checks.every((r) => r.value === true) ? null : `absence checks ${show(checks.map((r) => r.value))}`;
    },
  },
];
registerClaims(HOME, callView, callClaims);

const caseClaims: ClaimRow<CallView[]>[] = [
  {
    name: "no_auto_drop_on_completion_signal",
    section: "observability 049",
    summary: "once each invocation completed and delivery finished, the accumulator still holds its bucket",
    check: (vs) => {
      for (const v of vs) {
        const accs = v.after.filter((a) => a.kind === "per_invocation_accumulator");
        if (accs.length === 0) return "no accumulator is declared";
        for (const a of accs) if (v.invocationId === null || !a.bucketIds!.includes(v.invocationId)) return `after ${show(v.invocationId)} completed, ${a.name} holds buckets ${show(a.bucketIds)}`;
      }
      return null;
    },
  },
  {
    name: "explicit_drop_removes_bucket",
    section: "observability 049",
    summary: "every explicit drop released a bucket and the re-read after it found none",
    check: (vs) => {
      const drops = vs.flatMap((v) => v.reads.filter((r) => r.op === "drop"));
      const checks = vs.flatMap((v) => v.reads.filter((r) => r.op === "absent_check"));
      if (drops.length === 0) return "no drop was made";
      if (drops.some((d) => d.value !== true)) return "a drop found no bucket to release";
      return checks.length > 0 && checks.every((c) => c.value === true) ? null : `re-reads after drop: ${show(checks.map((c) => c.value))}`;
    },
  },
  {
    name: "per_invocation_id_bucket_isolation",
    section: "observability 049",
    summary: "each invocation's bucket holds only its own invocation's events, under distinct invocation ids",
    check: (vs) => {
      const ids = vs.map((v) => v.invocationId);
      if (new Set(ids).size !== ids.length) return `invocation ids ${show(ids)}`;
      for (const v of vs) {
        const reads = bucketReads(v);
        if (reads.length === 0) return `invocation ${show(v.invocationId)} read no bucket`;
        const why = first(reads.map((r) => inconsistency(r, v)));
        if (why !== null) return why;
      }
      return null;
    },
  },
  {
    name: "accumulator_exposes_drop_method",
    section: "observability 049",
    summary: "every accumulator exposes drop(invocation_id), and the case called it",
    check: (vs) => {
      const accs = vs.flatMap((v) => v.after.filter((a) => a.kind === "per_invocation_accumulator"));
      if (accs.length === 0) return "no accumulator is declared";
      if (accs.some((a) => !a.hasDrop)) return "an accumulator has no drop method";
      return vs.some((v) => v.reads.some((r) => r.op === "drop")) ? null : "no node called drop";
    },
  },
];
registerClaims(HOME, views, caseClaims);

/**
 * `captured_bucket_disjoint_from_<invocation>: true` (049, in a `per_invocation` entry): no event in
 * this invocation's captured bucket belongs to the named invocation.
 */
@directive({ name: /^captured_bucket_disjoint_from_(?<other>.+)$/, at: "invariant", home: HOME, summary: "the captured bucket shares no event with the named invocation's", section: "observability 049" })
export class CapturedBucketDisjointFrom {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const other = ctx.self.groups["other"]!;
    const calls = obs.tryGet(CaseCalls);
    const them = calls?.get(other);
    if (!them) {
      ctx.fail(`${ctx.self.key}: no invocation named '${other}' ran (it reads the case's calls inside a per_invocation entry)`);
      return;
    }
    const mine = callView(obs, ctx);
    const theirs = callView(them, ctx);
    const theirIds = new Set(bucketReads(theirs).flatMap((r) => (r.value === undefined ? [] : [(r.value as Bucket).invocation_id])));
    const mineBuckets = bucketReads(mine).map((r) => r.value as Bucket | undefined);
    const shared = mineBuckets.flatMap((b) => (b ? b.events.filter((e) => theirIds.has(e.invocation_id)) : []));
    const why = mineBuckets.length === 0 || theirIds.size === 0 ? "a bucket read is missing" : shared.length > 0 ? `${shared.length} event(s) of '${other}' in this bucket` : null;
    claim(ctx, value, why === null, () => why ?? "");
  }
}
