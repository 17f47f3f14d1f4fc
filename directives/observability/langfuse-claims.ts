/**
 * Named claims of the Langfuse fixtures (observability 022, 031–033, 059, 084; conformance-adapter
 * §5.9), as a claim table over the §6.4 fake's recorded traces and the invocations the observer saw.
 */
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { registerClaims, type ClaimRow } from "../../harness/observability/claim-table.ts";
import { capturedLangfuseAll, useLangfuseCapture, type CapturedLangfuse, type RecordedObservation, type RecordedTrace } from "../../harness/observability/langfuse.ts";
import { isBindingToken } from "../../src/conformance/matcher/tokens.ts";
import { show } from "../../harness/suspension/claims.ts";
import { mainTrace } from "./langfuse.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function withMain(v: CapturedLangfuse, check: (t: RecordedTrace) => string | null): string | null {
  const t = mainTrace(v.traces);
  return t ? check(t) : `no Langfuse trace was recorded (${v.traces.length} detached)`;
}

const detached = (v: CapturedLangfuse): RecordedTrace[] => v.traces.filter((t) => t.metadata["detached_from_invocation_id"] !== undefined);

export function all(obs: readonly RecordedObservation[]): RecordedObservation[] {
  return obs.flatMap((o) => [o, ...all(o.children)]);
}

const nonEmpty = (x: unknown): boolean => typeof x === "string" && x.length > 0;

function attribution(t: RecordedTrace): string | null {
  const missing = ["implementation_name", "implementation_version"].filter((k) => !nonEmpty(t.metadata[k]));
  return missing.length ? `trace.metadata lacks ${missing.join(", ")} (${show(t.metadata)})` : null;
}

/** The main trace's id is the invocation's UUID id with its dashes stripped (§8.4.1). */
export function traceIdIsInvocationId(v: CapturedLangfuse): string | null {
  return withMain(v, (t) => {
    const id = v.invocations[0]?.invocationId ?? "";
    if (!UUID.test(id)) return `the invocation id ${show(id)} is not a UUID`;
    const want = id.replaceAll("-", "").toLowerCase();
    return t.id === want ? null : `trace.id ${show(t.id)}, expected ${show(want)}`;
  });
}

const rows: ClaimRow<CapturedLangfuse>[] = [
  {
    name: "trace_id_equals_invocation_id_dashes_stripped",
    section: "observability 022 / §8.4.1",
    summary: "the Langfuse trace id is the UUID invocation id with its dashes stripped",
    check: traceIdIsInvocationId,
  },
  {
    name: "dispatch_detached_child_trace_id_count",
    section: "observability 033 / §8.5",
    summary: "the dispatching observation lists this many detached child trace ids, each a recorded trace",
    schema: { type: "integer", minimum: 0 },
    check: (v, n: number) =>
      withMain(v, (t) => {
        const marked = all(t.observations).filter((o) => o.metadata["detached_child_trace_ids"] !== undefined);
        if (marked.length !== 1) return `${marked.length} observations carry detached_child_trace_ids`;
        const ids = marked[0]!.metadata["detached_child_trace_ids"] as string[];
        const known = new Set(detached(v).map((d) => d.id));
        if (ids.length !== n) return `${marked[0]!.name} lists ${ids.length} ids`;
        const unknown = ids.filter((i) => !known.has(i));
        return unknown.length ? `${show(unknown)} name no recorded detached trace` : null;
      }),
  },
  {
    name: "all_instance_traces_carry_detached_from_invocation_id",
    section: "observability 033 / §8.4.1",
    summary: "every detached trace points back to the invocation (the value: its id, or a binding token)",
    schema: { type: "string" },
    check: (v, want: string) => {
      const id = v.invocations[0]?.invocationId;
      const expected = isBindingToken(want) ? id : want;
      const d = detached(v);
      if (d.length === 0) return "no detached trace was recorded";
      const bad = d.filter((t) => t.metadata["detached_from_invocation_id"] !== expected);
      return bad.length ? `${bad.length} detached traces carry ${show(bad.map((t) => t.metadata["detached_from_invocation_id"]))}, expected ${show(expected)}` : null;
    },
  },
  { name: "implementation_name_present_on_trace", section: "observability 059", summary: "trace.metadata.implementation_name is a non-empty string", check: (v) => withMain(v, (t) => (nonEmpty(t.metadata["implementation_name"]) ? null : "implementation_name missing")) },
  { name: "implementation_version_present_on_trace", section: "observability 059", summary: "trace.metadata.implementation_version is a non-empty string", check: (v) => withMain(v, (t) => (nonEmpty(t.metadata["implementation_version"]) ? null : "implementation_version missing")) },
  { name: "rows_emit_with_default_privacy_config", section: "observability 059", summary: "both attribution rows are on the trace under the default privacy configuration", check: (v) => withMain(v, attribution) },
  { name: "rows_emit_with_state_payload_enabled", section: "observability 059", summary: "both attribution rows are on the trace with the state payload on", check: (v) => withMain(v, attribution) },
  { name: "always_emit_invariant_inherited_from_spec_5_1", section: "observability 059 / §5.1", summary: "the attribution rows emit whatever the privacy flags", check: (v) => withMain(v, attribution) },
  {
    name: "trace_session_id_equals_supplied_session_id",
    section: "observability 084 / §8.4.1",
    summary: "trace.sessionId is the session id the invocation was bound to",
    check: (v) =>
      withMain(v, (t) => {
        const want = v.invocations[0]?.sessionId;
        if (want === undefined) return "the invocation was not session-bound";
        return t.sessionId === want ? null : `trace.sessionId ${show(t.sessionId)}, expected ${show(want)}`;
      }),
  },
  { name: "trace_session_id_unset", section: "observability 084", summary: "trace.sessionId is unset", check: (v) => withMain(v, (t) => (t.sessionId === undefined ? null : `trace.sessionId is ${show(t.sessionId)}`)) },
  {
    name: "trace_user_id_equals_metadata_userid",
    section: "observability 084 / §8.4.1",
    summary: "trace.userId is the caller metadata's userId",
    check: (v) =>
      withMain(v, (t) => {
        const want = v.invocations[0]?.metadata["userId"];
        if (want === undefined) return "the caller metadata has no userId";
        return t.userId === want ? null : `trace.userId ${show(t.userId)}, expected ${show(want)}`;
      }),
  },
  {
    name: "user_id_promotion_is_additive",
    section: "observability 084 / §8.4.1",
    summary: "the promoted userId also stays at trace.metadata.userId",
    check: (v) => withMain(v, (t) => (t.userId !== undefined && t.metadata["userId"] === t.userId ? null : `trace.userId ${show(t.userId)}, trace.metadata.userId ${show(t.metadata["userId"])}`)),
  },
  { name: "trace_user_id_unset", section: "observability 084", summary: "trace.userId is unset", check: (v) => withMain(v, (t) => (t.userId === undefined ? null : `trace.userId is ${show(t.userId)}`)) },
  {
    name: "other_metadata_unaffected",
    section: "observability 084 / §8.4.1",
    summary: "every caller metadata key lands as a top-level trace.metadata key, unchanged",
    check: (v) =>
      withMain(v, (t) => {
        const meta = v.invocations[0]?.metadata ?? {};
        const bad = Object.entries(meta).filter(([k, x]) => JSON.stringify(t.metadata[k]) !== JSON.stringify(x));
        return bad.length ? `trace.metadata differs for ${bad.map(([k]) => k).join(", ")}: ${show(t.metadata)}` : null;
      }),
  },
  {
    name: "each_invocation_distinct_trace_id",
    section: "observability 084",
    summary: "each invocation has its own Langfuse trace id",
    check: (v) => {
      const ids = v.traces.map((t) => t.id);
      if (ids.length !== v.invocations.length) return `${ids.length} traces for ${v.invocations.length} invocations`;
      return new Set(ids).size === ids.length ? null : `trace ids repeat: ${show(ids)}`;
    },
  },
  {
    name: "all_traces_share_session_id",
    section: "observability 084",
    summary: "every trace carries this trace.sessionId",
    schema: { type: "string", minLength: 1 },
    check: (v, want: string) => {
      if (v.traces.length === 0) return "no Langfuse trace was recorded";
      const bad = v.traces.filter((t) => t.sessionId !== want);
      return bad.length ? `sessionIds ${show(v.traces.map((t) => t.sessionId ?? null))}` : null;
    },
  },
  {
    name: "traces_group_into_one_langfuse_session",
    section: "observability 084 / §8.4.1",
    summary: "the traces share one non-empty trace.sessionId (Langfuse groups them into one Session)",
    check: (v) => {
      const ids = new Set(v.traces.map((t) => t.sessionId));
      return v.traces.length > 1 && ids.size === 1 && nonEmpty([...ids][0]) ? null : `${v.traces.length} traces with sessionIds ${show([...ids])}`;
    },
  },
];

const read = (obs: Observation, ctx: CheckContext): CapturedLangfuse | null => capturedLangfuseAll(obs, ctx);

registerClaims("observability", read, rows, useLangfuseCapture);
