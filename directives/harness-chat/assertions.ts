/**
 * The harness-chat fixtures' assertions: on a chat turn's `ChatTurnOutcome` (harness-chat §5.2) —
 * `replies`, `pending_messages`, `signal_descriptor`, `reply`, and `final_state` as this directory
 * writes it — and, inside a signal arrival, `expected_listener_callback` (harness-chat §8.2).
 */
import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import { match, Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import type { ChatTurnOutcome } from "../../src/harness/chat/index.ts";
import { completedState } from "../../harness/graph/reading.ts";
import { ChatCallFacet, type ChatCall } from "../../harness/turns/facets.ts";
import { FinalState } from "../general/final-state.ts";

const HOME = "harness-chat";
/**
 * A ChatMessage is a record in the implementation's language whose type a capability spec defines
 * (harness-chat §3), so even inside a complete list it compares by the keys the fixture names, with
 * the §8.4 null rule (conformance-adapter §8.4 *Mappings*: "such as ... a ChatMessage").
 */
const MESSAGE = Shapes.record();
const MESSAGES = Shapes.list("ordered", MESSAGE);

function chatCall(obs: Observation, ctx: CheckContext): ChatCall | null {
  const c = obs.tryGet(ChatCallFacet);
  if (c === undefined) {
    ctx.fail(`'${ctx.self.key}' reads a chat turn, but the call was not run through the chat harness`);
    return null;
  }
  return c;
}

function outcomeOf<K extends ChatTurnOutcome["outcome"]>(obs: Observation, ctx: CheckContext, kind: K): Extract<ChatTurnOutcome, { outcome: K }> | null {
  const c = chatCall(obs, ctx);
  if (c === null) return null;
  if (c.outcome.outcome !== kind) {
    ctx.fail(`'${ctx.self.key}' needs a ${kind} turn, but the turn ${c.outcome.outcome}`, { expected: kind, actual: c.outcome.outcome });
    return null;
  }
  return c.outcome as Extract<ChatTurnOutcome, { outcome: K }>;
}

/** `replies: [ChatMessage, ...]` — §5.2 / §7: the messages the turn added, complete and in order, each by named keys. */
@directive({ name: "replies", at: "expected", home: HOME, summary: "the completed turn's new messages, in order" })
export class Replies {
  readonly scope = "call" as const;
  readonly schema = { type: "array", items: { type: "object" } };
  check(value: unknown[], obs: Observation, ctx: CheckContext): void {
    const o = outcomeOf(obs, ctx, "completed");
    if (o !== null) ctx.match(value, o.replies, MESSAGES);
  }
}

/** `pending_messages: [ChatMessage, ...]` — §8.1: what the graph appended before suspending, complete and in order. */
@directive({ name: "pending_messages", at: "expected", home: HOME, summary: "the suspended turn's pending messages, in order" })
export class PendingMessages {
  readonly scope = "call" as const;
  readonly schema = { type: "array", items: { type: "object" } };
  check(value: unknown[], obs: Observation, ctx: CheckContext): void {
    const o = outcomeOf(obs, ctx, "suspended");
    if (o !== null) ctx.match(value, o.pendingMessages, MESSAGES);
  }
}

/** `signal_descriptor: {signal_id, metadata?}` — §5.2: the suspended outcome's descriptor; `metadata` exact when written. */
@directive({ name: "signal_descriptor", at: "expected", home: HOME, summary: "the suspended turn's signal descriptor" })
export class SignalDescriptorAssertion {
  readonly scope = "call" as const;
  readonly schema = { type: "object", required: ["signal_id"], additionalProperties: false, properties: { signal_id: { type: "string" }, metadata: { type: "object" } } };
  check(value: { signal_id: string; metadata?: Record<string, unknown> }, obs: Observation, ctx: CheckContext): void {
    const o = outcomeOf(obs, ctx, "suspended");
    if (o === null) return;
    ctx.match(value.signal_id, o.signalDescriptor.signalId, null, `${ctx.label}.signal_id`);
    if (value.metadata !== undefined) ctx.match(value.metadata, o.signalDescriptor.metadata ?? null, Shapes.exact(), `${ctx.label}.metadata`);
  }
}

/**
 * `reply: {role, content_matches_template?, content_includes?}` — §10: the errored turn's reply.
 * `content_matches_template` is a fragment of the §10 template the reply must contain, compared
 * case-insensitively (the spec lets wording vary in case and punctuation around it);
 * `content_includes` lists substrings the reply must contain exactly (the §10.3 diagnostic).
 */
@directive({ name: "reply", at: "expected", home: HOME, summary: "the errored turn's system reply" })
export class ReplyAssertion {
  readonly scope = "call" as const;
  readonly schema = {
    type: "object",
    minProperties: 1,
    additionalProperties: false,
    properties: { role: { type: "string" }, content_matches_template: { type: "string", minLength: 1 }, content_includes: { type: "array", minItems: 1, items: { type: "string", minLength: 1 } } },
  };
  check(value: { role?: string; content_matches_template?: string; content_includes?: string[] }, obs: Observation, ctx: CheckContext): void {
    const o = outcomeOf(obs, ctx, "errored");
    if (o === null) return;
    const content = o.reply.content;
    if (value.role !== undefined) ctx.match(value.role, o.reply.role, null, `${ctx.label}.role`);
    if (value.content_matches_template !== undefined && !content.toLowerCase().includes(value.content_matches_template.toLowerCase())) {
      ctx.fail(`the reply does not match the template fragment`, { path: `${ctx.label}.content_matches_template`, expected: value.content_matches_template, actual: content });
    }
    for (const [i, s] of (value.content_includes ?? []).entries()) {
      if (!content.includes(s)) ctx.fail(`the reply does not include ${JSON.stringify(s)}`, { path: `${ctx.label}.content_includes[${i}]`, expected: s, actual: content });
    }
  }
}

/**
 * `final_state:` as the chat fixtures write it: `messages_count` (the length of the final
 * `messages` history) and `messages_history_contains` (messages that appear in the history in the
 * written order — a subsequence — each a ChatMessage matched by the keys it names). Without either
 * key, the general exact definition.
 */
@directive({ name: "final_state", at: "expected", home: HOME, summary: "final state; messages_count / messages_history_contains" })
export class ChatFinalState extends FinalState {
  override check(value: Record<string, unknown>, obs: Observation, ctx: CheckContext): void {
    if (!("messages_count" in value) && !("messages_history_contains" in value)) return super.check(value, obs, ctx);
    const extra = Object.keys(value).filter((k) => k !== "messages_count" && k !== "messages_history_contains");
    if (extra.length > 0) ctx.fail(`final_state mixes messages_count / messages_history_contains with state fields (${extra.join(", ")})`);
    const state = completedState(obs, ctx);
    if (state === null) return;
    const history = Array.isArray(state["messages"]) ? (state["messages"] as unknown[]) : null;
    if (history === null) return ctx.fail("the final state has no messages list", { actual: state });
    if (value["messages_count"] !== undefined) ctx.match(value["messages_count"], history.length, null, `${ctx.label}.messages_count`);
    const want = value["messages_history_contains"];
    if (Array.isArray(want)) {
      let from = 0;
      for (const [i, m] of want.entries()) {
        const at = history.findIndex((h, j) => j >= from && match(m, h, MESSAGE).ok); // by named keys, whatever their order
        if (at < 0) {
          ctx.fail(`the history does not contain this message after position ${from}`, { path: `${ctx.label}.messages_history_contains[${i}]`, expected: m, actual: history });
          return;
        }
        from = at + 1;
      }
    }
  }
}

/**
 * `expected_listener_callback: {listener, outcome, replies?}` — inside a signal arrival (§8.2): the
 * named listener fired exactly once during the arrival, with that outcome (and those replies,
 * complete and in order).
 */
@directive({ name: "expected_listener_callback", at: "signal_arrival", home: HOME, summary: "the listener's callback for the resumed turn" })
export class ExpectedListenerCallback {
  readonly scope = "call" as const;
  readonly schema = {
    type: "object",
    required: ["listener"],
    additionalProperties: false,
    properties: { listener: { type: "string", minLength: 1 }, outcome: { enum: ["completed", "errored", "suspended"] }, replies: { type: "array", items: { type: "object" } } },
  };
  check(value: { listener: string; outcome?: string; replies?: unknown[] }, obs: Observation, ctx: CheckContext): void {
    const c = chatCall(obs, ctx);
    if (c === null) return;
    const calls = c.listenerCalls.get(value.listener);
    if (calls === undefined) return ctx.fail(`no listener named '${value.listener}' was subscribed by a chat turn`);
    if (calls.length !== 1) return ctx.fail(`listener '${value.listener}' fired ${calls.length} times during the arrival (exactly once expected)`, { expected: 1, actual: calls.length });
    const got = calls[0]!;
    if (value.outcome !== undefined) ctx.match(value.outcome, got.outcome, null, `${ctx.label}.outcome`);
    if (value.replies !== undefined) {
      if (got.outcome !== "completed") return ctx.fail(`the callback's outcome is ${got.outcome}; replies need a completed one`);
      ctx.match(value.replies, got.replies, MESSAGES, `${ctx.label}.replies`);
    }
  }
}
