/**
 * Named claims of the harness-chat fixtures (their meaning is the fixture prose's;
 * conformance-adapter §5.9). Each reads the chat calls of its block: the `ChatTurnOutcome` the
 * library returned, the history the store held before the call, the completed node events, the
 * paused record as the call returned, and the listener callbacks received during the call.
 */
import { chatMessageIssues, type ChatMessage } from "../../src/harness/chat/index.ts";
import { classify } from "../../harness/graph/reading.ts";
import { every, show, turnClaim } from "../../harness/turns/claims.ts";
import { errorCategoryOf, type TurnView } from "../../harness/turns/reading.ts";

const HOME = "harness-chat";
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const sends = (t: TurnView) => t.chat?.kind === "send";
const signals = (t: TurnView) => t.chat?.kind === "signal";
const errored = (t: TurnView) => t.outcome === "errored";
const messagesOf = (s: Readonly<Record<string, unknown>> | undefined): readonly ChatMessage[] => (Array.isArray(s?.["messages"]) ? (s!["messages"] as ChatMessage[]) : []);
function finalMessages(t: TurnView): readonly ChatMessage[] | null {
  const o = t.chat?.outcome;
  return o?.outcome === "completed" ? messagesOf(o.finalState) : null;
}
function pausedMessages(t: TurnView): readonly ChatMessage[] {
  return messagesOf(t.call.pausedAtReturn?.state as Readonly<Record<string, unknown>> | undefined);
}

// 002 — §4, §6, §7
turnClaim(HOME, "turn_2_loads_turn_1_history", "each later turn of a session started from the history the earlier turn left", (turns) => {
  const completed = turns.filter((t) => sends(t) && t.outcome === "completed");
  const later = completed.filter((t, i) => completed.slice(0, i).some((p) => p.chat!.sessionId === t.chat!.sessionId));
  return every(later, () => true, "later turn of a session", (t) => {
    const prev = [...completed.slice(0, completed.indexOf(t))].reverse().find((p) => p.chat!.sessionId === t.chat!.sessionId)!;
    const before = finalMessages(prev)!;
    const now = finalMessages(t)!;
    if (!same(t.chat!.historyBefore, before)) return `loaded ${show(t.chat!.historyBefore)}, the earlier turn left ${show(before)}`;
    return same(now.slice(0, before.length), before) ? null : "the final history does not start with the earlier turn's";
  });
});
turnClaim(HOME, "session_messages_field_accumulates_via_append_reducer", "every turn's history = the loaded history + the user message + the turn's replies", (turns) =>
  every(turns, (t) => sends(t) && t.outcome === "completed", "completed chat turn", (t) => {
    const o = t.chat!.outcome as { replies: readonly ChatMessage[] };
    const want = [...(t.chat!.historyBefore ?? []), t.chat!.userMessage, ...o.replies];
    return same(finalMessages(t), want) ? null : `history ${show(finalMessages(t))}, expected ${show(want)}`;
  }),
);
turnClaim(HOME, "replies_field_contains_only_current_turn_new_messages", "replies are exactly the history past the loaded messages and the user message", (turns) =>
  every(turns, (t) => sends(t) && t.outcome === "completed", "completed chat turn", (t) => {
    const o = t.chat!.outcome as { replies: readonly ChatMessage[] };
    const tail = finalMessages(t)!.slice((t.chat!.historyBefore ?? []).length + 1);
    return same(o.replies, tail) ? null : `replies ${show(o.replies)}, new tail ${show(tail)}`;
  }),
);

// 004 — §3
turnClaim(HOME, "multimodal_content_blocks_preserved_in_history", "a block-content user message is stored in history exactly as sent", (turns) =>
  every(turns, (t) => sends(t) && Array.isArray((t.chat!.userMessage as { content?: unknown })?.content) && t.outcome === "completed", "completed turn with content blocks", (t) => {
    const stored = finalMessages(t)![(t.chat!.historyBefore ?? []).length];
    return same(stored, t.chat!.userMessage) ? null : `stored ${show(stored)}`;
  }),
);
const BLOCK_TYPES = new Set(["text", "image", "thinking", "redacted_thinking"]);
turnClaim(HOME, "content_block_types_match_llm_provider_3_1_set", "every history message is a valid ChatMessage whose blocks are of the llm-provider §3.1 types", (turns) =>
  every(turns, (t) => t.outcome === "completed", "completed turn", (t) => {
    for (const m of finalMessages(t)!) {
      const issues = chatMessageIssues(m);
      if (issues.length > 0) return `${show(m)}: ${issues.join("; ")}`;
      const blocks = Array.isArray(m.content) ? (m.content as Array<{ type: string }>) : [];
      const bad = blocks.find((b) => !BLOCK_TYPES.has(b.type));
      if (bad) return `block type ${show(bad.type)}`;
    }
    return null;
  }),
);

// 005, 006 — §8
const suspendedSends = (t: TurnView) => sends(t) && t.outcome === "suspended";
function pendingOf(t: TurnView): readonly ChatMessage[] {
  return (t.chat!.outcome as { pendingMessages: readonly ChatMessage[] }).pendingMessages;
}
turnClaim(HOME, "pending_message_extracted_from_state_messages_tail", "§8.1: pending messages = the suspended state's history past the loaded messages and the user message", (turns) =>
  every(turns, suspendedSends, "suspended chat turn", (t) => {
    const tail = pausedMessages(t).slice((t.chat!.historyBefore ?? []).length + 1);
    return tail.length > 0 && same(pendingOf(t), tail) ? null : `pending ${show(pendingOf(t))}, suspended state's tail ${show(tail)}`;
  }),
);
turnClaim(HOME, "chat_harness_does_not_block_on_suspended_outcome", "§8 / harness §5.3: send() returned while the invocation was still paused", (turns) =>
  every(turns, suspendedSends, "suspended chat turn", (t) => {
    const fired = [...t.chat!.listenerCalls.values()].reduce((n, l) => n + l.length, 0);
    const status = t.call.pausedAtReturn?.status;
    return status === "suspended" && t.call.signalsDuringCall === 0 && fired === 0 ? null : `paused record ${show(status)}, ${t.call.signalsDuringCall} signal(s), ${fired} listener callback(s) during send()`;
  }),
);
turnClaim(HOME, "no_chat_specific_engine_hook_required_for_pending_message", "§8.1: the pending messages came from an ordinary node update merged by the engine", (turns) =>
  every(turns, suspendedSends, "suspended chat turn", (t) => {
    const suspending = t.call.pausedAtReturn?.nodeName;
    const from = (t.chat!.historyBefore ?? []).length + 1;
    const ok = t.call.events.some((e) => e.phase === "completed" && e.nodeName !== suspending && e.postState !== undefined && same(messagesOf(e.postState).slice(from), pendingOf(t)));
    return ok ? null : "no completed node event's post-state carries the pending messages";
  }),
);
turnClaim(HOME, "compose_pending_state_persisted_before_suspend_node_runs", "§8.1: the paused record persisted at suspend holds the pending messages", (turns) =>
  every(turns, suspendedSends, "suspended chat turn", (t) => {
    const rec = t.call.pausedAtReturn;
    if (rec === undefined) return "no paused record";
    const held = messagesOf(rec.state as Readonly<Record<string, unknown>>);
    const suspendingStep = t.call.events.find((e) => e.nodeName === rec.nodeName)?.step;
    const composed = t.call.events.filter((e) => e.phase === "completed" && e.nodeName !== rec.nodeName).map((e) => e.step);
    if (suspendingStep !== undefined && composed.some((s) => s > suspendingStep)) return "a node completed after the suspending node";
    return pendingOf(t).length > 0 && same(held.slice(held.length - pendingOf(t).length), pendingOf(t)) ? null : `the paused record holds ${show(held)}`;
  }),
);
function listenersOf(turns: readonly TurnView[], t: TurnView): string[] {
  // A listener belongs to the session a chat turn subscribed it to; the runner records the calls by name.
  return [...t.chat!.listenerCalls.keys()].filter((name) => turns.some((x) => x.chat?.listenerCalls.has(name)));
}
turnClaim(HOME, "listener_fires_exactly_once_per_resumed_turn", "§8.2: each resumed turn reached each listener once, and no send() turn did", (turns) => {
  const quiet = turns.filter(sends).find((t) => [...t.chat!.listenerCalls.values()].some((l) => l.length > 0));
  if (quiet !== undefined) return `a listener fired during send() ${quiet.obs.label ?? ""}`;
  return every(turns, signals, "signal arrival", (t) => {
    const names = listenersOf(turns, t);
    if (names.length === 0) return "no listener was subscribed";
    const bad = names.find((n) => t.chat!.listenerCalls.get(n)!.length !== 1);
    return bad === undefined ? null : `listener '${bad}' fired ${t.chat!.listenerCalls.get(bad)!.length} times`;
  });
});
turnClaim(HOME, "listener_callback_carries_post_resume_chat_turn_outcome", "§8.2: the callback is the resumed turn's completed outcome with its new messages", (turns) =>
  every(turns, signals, "signal arrival", (t) => {
    const calls = [...t.chat!.listenerCalls.values()].flat();
    if (calls.length === 0) return "no callback";
    if (calls.some((o) => o !== t.chat!.outcome)) return "a callback carried something other than the resumed turn's outcome";
    const o = t.chat!.outcome;
    if (o.outcome !== "completed") return `the resumed turn ${o.outcome}`;
    const tail = messagesOf(o.finalState).slice((t.chat!.historyBefore ?? []).length);
    return o.replies.length > 0 && same(o.replies, tail) ? null : `replies ${show(o.replies)}, post-resume tail ${show(tail)}`;
  }),
);
turnClaim(HOME, "next_send_call_does_not_consume_the_post_resume_reply", "§8.2: the resumed reply went to the listener and into the saved history, nothing is held for the next send()", (turns) =>
  every(turns, signals, "signal arrival", (t) => {
    const o = t.chat!.outcome;
    if (o.outcome !== "completed") return `the resumed turn ${o.outcome}`;
    const saved = messagesOf(t.call.storeAfter.get(t.chat!.sessionId ?? "")?.state as Readonly<Record<string, unknown>> | undefined);
    if (!same(saved.slice(saved.length - o.replies.length), o.replies)) return "the saved session history does not end with the resumed reply";
    return [...t.chat!.listenerCalls.values()].flat().length > 0 ? null : "no listener received the reply";
  }),
);

// 007–010 — §10
const SECTIONS: Readonly<Record<string, string>> = { "1": "session_terminating", "2": "retryable_transient", "3": "user_correctable" };
turnClaim(HOME, /error_bucket_routes_to_harness_section_7_(?<n>[123])/, "§10: every errored turn's bucket is that harness §7 section's", (turns, g) =>
  every(turns, errored, "errored chat turn", (t) => (t.bucket === SECTIONS[g["n"]!] ? null : `bucket ${show(t.bucket)}`)),
);
turnClaim(HOME, "reply_role_is_system", "§10: errored turns reply with a system message", (turns) =>
  every(turns, errored, "errored chat turn", (t) => {
    const o = t.chat!.outcome as { reply: { role: string } };
    return o.reply.role === "system" ? null : `reply role ${show(o.reply.role)}`;
  }),
);
turnClaim(HOME, "reply_content_includes_upstream_diagnostic", "§10.3: the reply carries the raised error's message", (turns) =>
  every(turns, errored, "errored chat turn", (t) => {
    const o = t.chat!.outcome as { reply: { content: string } };
    const diag = classify(t.error).message ?? "";
    return diag.length > 0 && o.reply.content.includes(diag) ? null : `reply ${show(o.reply.content)} lacks ${show(diag)}`;
  }),
);
const notInvoked = (t: TurnView): string | null => {
  const o = t.chat!.outcome as { invoked: boolean };
  return t.call.events.length === 0 && !o.invoked ? null : `${t.call.events.length} node(s) ran`;
};
turnClaim(HOME, "chat_harness_does_not_invoke_graph_when_session_load_fails", "harness §7.1: a failing session load ends the turn before the graph runs", (turns) =>
  every(turns, (t) => errorCategoryOf(t) === "session_load_failed", "session_load_failed turn", notInvoked),
);
turnClaim(HOME, "graph_body_not_invoked_when_message_validation_fails", "§3.1: a malformed message ends the turn before the graph runs", (turns) =>
  every(turns, (t) => errorCategoryOf(t) === "chat_message_shape_invalid", "chat_message_shape_invalid turn", notInvoked),
);
turnClaim(HOME, "message_validation_runs_at_send_api_boundary_before_session_load", "§3.1: validation happens before any session load", (turns) =>
  every(turns, (t) => errorCategoryOf(t) === "chat_message_shape_invalid", "chat_message_shape_invalid turn", (t) => ((t.call.storeCalls?.load ?? 0) === 0 ? null : `${t.call.storeCalls?.load} session load(s)`)),
);
turnClaim(HOME, "chat_message_shape_invalid_routes_to_user_correctable", "§10.4: chat_message_shape_invalid is user-correctable", (turns) =>
  every(turns, (t) => errorCategoryOf(t) === "chat_message_shape_invalid", "chat_message_shape_invalid turn", (t) => (t.bucket === "user_correctable" ? null : `bucket ${show(t.bucket)}`)),
);
turnClaim(HOME, "session_state_preserved_after_transient_error", "§10.2: a transient error leaves the session as it was", (turns) =>
  every(turns, (t) => t.bucket === "retryable_transient", "transient chat turn", (t) => {
    const id = t.chat!.sessionId ?? "";
    return same(t.call.storeBefore.get(id) ?? null, t.call.storeAfter.get(id) ?? null) ? null : "the session record changed";
  }),
);
