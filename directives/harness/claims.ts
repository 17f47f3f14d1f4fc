/**
 * Named claims of the harness fixtures (their meaning is the fixture prose's; conformance-adapter
 * §5.9). Each reads the turns of its block: what the library's `TurnHarness` returned and what
 * the runner recorded around each call (store calls, engine-bound session ids, subscriptions, the
 * paused record as the call returned).
 */
import { classify } from "../../harness/graph/reading.ts";
import { every, show, turnClaim } from "../../harness/turns/claims.ts";
import { errorCategoryOf, type TurnView } from "../../harness/turns/reading.ts";

const HOME = "harness";
const errored = (t: TurnView) => t.outcome === "errored";
const suspended = (t: TurnView) => t.outcome === "suspended";
const completed = (t: TurnView) => t.outcome === "completed";
const outbound = (t: TurnView) => t.transmission?.turn.outbound;
const BUCKETS: Readonly<Record<string, string>> = { terminating: "session_terminating", retryable_transient: "retryable_transient", user_correctable: "user_correctable" };

// 001 — §3.1
turnClaim(HOME, "harness_classified_as_new_session_path", "every turn took the §3.1 new-session path", (turns) =>
  every(turns, () => true, "turn", (t) => (t.path === "3.1" ? null : `classified as ${show(t.path)}`)),
);
turnClaim(HOME, "harness_auto_generated_session_id", "§3.1: the harness minted the session id the transmission lacked, and the session was saved under it", (turns) =>
  every(turns, (t) => t.path === "3.1", "new-session turn", (t) => {
    const turn = t.transmission?.turn;
    if (turn === undefined || !turn.sessionIdGenerated || typeof turn.sessionId !== "string" || turn.sessionId.length === 0) return "the session id was not minted by the harness";
    if (t.transmission!.transmission.sessionId !== undefined || t.transmission!.transmission.payload?.["session_id"] !== undefined) return "the transmission carried a session id";
    return t.call.storeAfter.has(turn.sessionId) ? null : `no session record under the minted id ${show(turn.sessionId)}`;
  }),
);
turnClaim(HOME, "engine_received_session_id", "the engine had the harness's session id bound while every node ran", (turns) =>
  every(turns, (t) => t.transmission?.turn.sessionId !== undefined, "sessioned turn", (t) => {
    const want = t.transmission!.turn.sessionId;
    if (t.call.engineSessionIds.length === 0) return "no node ran";
    const bad = t.call.engineSessionIds.find((s) => s !== want);
    return bad === undefined ? null : `the engine had ${show(bad)} bound, the harness resolved ${show(want)}`;
  }),
);

// 004 — §5.1
turnClaim(HOME, "completed_outcome_surfaced_as_completion_response_shape", "§5.1: completed turns answer with a completion response carrying the final state", (turns) =>
  every(turns, completed, "completed turn", (t) => {
    const o = outbound(t);
    if (o?.kind !== "completion_response") return `outbound ${show(o?.kind)}`;
    return show(o.payload) === show(t.transmission!.turn.outcome === "completed" ? t.transmission!.turn.state : null) ? null : "the completion payload is not the final state";
  }),
);
turnClaim(HOME, "outbound_shape_distinct_from_error_or_suspended", "§5.1: each outcome has its own outbound shape", (turns) =>
  every(turns, () => true, "turn", (t) => {
    const want = { completed: "completion_response", errored: "error_response", suspended: "suspended_acknowledgment" }[t.outcome];
    const o = outbound(t);
    if (o?.kind !== want) return `a ${t.outcome} turn answered ${show(o?.kind)}`;
    return t.outcome !== "errored" && ("bucket" in o.payload || "category" in o.payload) ? "a non-error outbound carries error fields" : null;
  }),
);

// 005, 008–010 — §5.2, §7
turnClaim(
  HOME,
  /errored_outcome_categorized_into_(?<bucket>session_terminating|retryable_transient|user_correctable)_bucket/,
  "§5.2 / §7: every errored turn fell into that bucket",
  (turns, g) => every(turns, errored, "errored turn", (t) => (errorCategoryOf(t) !== null && t.bucket === g["bucket"] ? null : `category ${show(errorCategoryOf(t))} in bucket ${show(t.bucket)}`)),
);
turnClaim(
  HOME,
  /(?<category>[a-z][a-z0-9_]*?)_classified_as_(?<bucket>terminating|retryable_transient|user_correctable)/,
  "§7: the errored turns of that category fell into that bucket",
  (turns, g) =>
    every(turns, (t) => errorCategoryOf(t) === g["category"], `errored turn of category ${g["category"]}`, (t) => (t.bucket === BUCKETS[g["bucket"]!] ? null : `bucket ${show(t.bucket)}`)),
);
turnClaim(HOME, "outbound_shape_is_error_response", "§5.2: errored turns answer with an error response", (turns) =>
  every(turns, errored, "errored turn", (t) => (outbound(t)?.kind === "error_response" ? null : `outbound ${show(outbound(t)?.kind)}`)),
);
function errorPayload(t: TurnView): Record<string, unknown> | null {
  const o = outbound(t);
  return o?.kind === "error_response" ? (o.payload as unknown as Record<string, unknown>) : null;
}
turnClaim(HOME, "outbound_includes_category_and_bucket", "§5.2: the error response names the turn's category and bucket", (turns) =>
  every(turns, errored, "errored turn", (t) => {
    const p = errorPayload(t);
    return p !== null && p["category"] === errorCategoryOf(t) && p["bucket"] === t.bucket ? null : `error payload ${show(p)}`;
  }),
);
turnClaim(HOME, "outbound_marked_intervention_required", "§7.1: a terminating error's response asks for intervention", (turns) =>
  every(turns, (t) => t.bucket === "session_terminating", "terminating turn", (t) => (errorPayload(t)?.["interventionRequired"] === true ? null : `error payload ${show(errorPayload(t))}`)),
);
turnClaim(HOME, "outbound_marked_retry_safe", "§7.2: a transient error's response says retrying is safe", (turns) =>
  every(turns, (t) => t.bucket === "retryable_transient", "transient turn", (t) => (errorPayload(t)?.["retrySafe"] === true ? null : `error payload ${show(errorPayload(t))}`)),
);
turnClaim(HOME, "outbound_marks_user_action_required", "§7.3: a user-correctable error's response asks the caller to act", (turns) =>
  every(turns, (t) => t.bucket === "user_correctable", "user-correctable turn", (t) => (errorPayload(t)?.["userActionRequired"] === true ? null : `error payload ${show(errorPayload(t))}`)),
);
turnClaim(HOME, "outbound_includes_diagnostic_message", "§7.3: the error response carries the raised error's message", (turns) =>
  every(turns, errored, "errored turn", (t) => {
    const want = classify(t.error).message;
    return errorPayload(t)?.["diagnosticMessage"] === want ? null : `diagnostic ${show(errorPayload(t)?.["diagnosticMessage"])}, raised ${show(want)}`;
  }),
);
turnClaim(HOME, "harness_did_not_auto_retry", "§7.1: the harness made one invoke() and one session load per turn", (turns) =>
  every(turns, () => true, "turn", (t) => {
    const attempts = t.transmission?.turn.attempts ?? 0;
    const loads = t.call.storeCalls?.load ?? 0;
    return attempts <= 1 && loads <= 1 ? null : `${attempts} invoke() call(s), ${loads} session load(s)`;
  }),
);

// 006, 007 — §5.3, §6
const registered = (t: TurnView): string | null => {
  const sub = t.call.subscriptionsAfter.find((s) => s.invocationId === t.invocationId);
  return sub === undefined ? "no subscription for the paused invocation once the turn returned" : null;
};
turnClaim(HOME, "suspended_outcome_registered_subscription", "§5.3 step 2: each suspended turn left a subscription with the coordinator", (turns) => every(turns, suspended, "suspended turn", registered));
turnClaim(HOME, "suspend_registered_subscription", "§5.3 step 2 / §6: each suspension was registered with the coordinator", (turns) => every(turns, suspended, "suspended turn", registered));
turnClaim(HOME, "suspended_outcome_distinct_outbound_shape", "§5.3 step 3: suspended turns answer with a suspended acknowledgment", (turns) =>
  every(turns, suspended, "suspended turn", (t) => (outbound(t)?.kind === "suspended_acknowledgment" ? null : `outbound ${show(outbound(t)?.kind)}`)),
);
turnClaim(HOME, "harness_did_not_block_on_suspended_turn", "§5.3 step 4: suspended turns returned without waiting for their signal", (turns) =>
  every(turns, suspended, "suspended turn", (t) => {
    const status = t.call.pausedAtReturn?.status;
    return status === "suspended" && t.call.signalsDuringCall === 0 ? null : `paused record ${show(status)} at return, ${t.call.signalsDuringCall} signal(s) during the call`;
  }),
);
function pausedBefore(turns: readonly TurnView[], t: TurnView): TurnView | undefined {
  const i = turns.indexOf(t);
  return turns.slice(0, i).find((p) => p.outcome === "suspended" && p.invocationId === t.transmission?.turn.resumedInvocationId);
}
const resumes = (t: TurnView) => t.path === "3.3";
turnClaim(HOME, "signal_arrival_correlated_to_paused_invocation", "§6: every arriving signal was mapped to the invocation that suspended awaiting it", (turns) =>
  every(turns, resumes, "signal-resume turn", (t) => {
    const p = pausedBefore(turns, t);
    const signalId = t.transmission?.transmission.signal?.signalId;
    if (p === undefined) return `correlated to ${show(t.transmission?.turn.resumedInvocationId)}, which no earlier turn suspended`;
    return p.transmission?.turn.outcome === "suspended" && p.transmission.turn.descriptor.signalId === signalId ? null : "the paused invocation awaited another signal";
  }),
);
turnClaim(HOME, "resume_invocation_completed_the_graph", "§3.3: every resume ran the paused invocation to END under its own id", (turns) =>
  every(turns, resumes, "signal-resume turn", (t) => (t.outcome === "completed" && t.invocationId === t.transmission?.turn.resumedInvocationId ? null : `the resume ${t.outcome}`)),
);
turnClaim(HOME, "end_to_end_signal_roundtrip_succeeded", "§5.3 + §6 + §3.3: suspend, subscribe, correlate, resume to completion, subscription released", (turns) =>
  every(turns, resumes, "signal-resume turn", (t) => {
    const p = pausedBefore(turns, t);
    if (p === undefined) return "no earlier suspended turn matches the resumed invocation";
    if (registered(p) !== null) return "the suspension was never subscribed";
    if (t.outcome !== "completed") return `the resume ${t.outcome}`;
    return t.call.subscriptionsAfter.some((s) => s.invocationId === p.invocationId) ? "the subscription was not released after the resume" : null;
  }),
);

// 011 — §3.0, §8.1
turnClaim(HOME, "stateless_harness_classified_via_path_3_0", "§3.0: a stateless harness routed every transmission through 3.0", (turns) =>
  every(turns, () => true, "turn", (t) => (t.transmission?.turn.mode === "stateless" && t.path === "3.0" ? null : `mode ${show(t.transmission?.turn.mode)}, path ${show(t.path)}`)),
);
turnClaim(HOME, "stateless_harness_did_not_resolve_session_id", "§3.0: no session id resolved or threaded", (turns) =>
  every(turns, () => true, "turn", (t) => {
    const turn = t.transmission?.turn;
    return turn !== undefined && turn.sessionId === undefined && !turn.sessionIdGenerated && !(turn.invocation !== undefined && "sessionId" in turn.invocation) ? null : `session ${show(turn?.sessionId)}`;
  }),
);
turnClaim(HOME, "engine_did_not_invoke_session_store", "§8.1: the registered SessionStore got no load or save", (turns) =>
  every(turns, () => true, "turn", (t) => {
    const s = t.call.storeCalls;
    if (s === null) return "no SessionStore is registered, so there was nothing to leave untouched";
    return s.load === 0 && s.save === 0 ? null : `load ${s.load}, save ${s.save}`;
  }),
);
turnClaim(HOME, "session_store_completely_untouched", "§8.1: the SessionStore got no call of any kind and holds what it held", (turns) =>
  every(turns, () => true, "turn", (t) => {
    const s = t.call.storeCalls;
    if (s === null) return "no SessionStore is registered";
    if (s.load + s.save + s.delete + s.list > 0) return `calls ${show(s)}`;
    return show([...t.call.storeBefore]) === show([...t.call.storeAfter]) ? null : "its records changed";
  }),
);
