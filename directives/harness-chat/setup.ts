/**
 * The harness-chat fixtures' set-up keys (harness-chat conformance directory): the harness
 * directory's shared keys registered for this directory (`harness:`, `session_store` with its
 * synthetic `behavior`, `raises: {category, message}`, `suspend_with_descriptor`), the
 * `list[ChatMessage]` state type, and the call lists — `chat_turns:` (one `send()` each) and
 * `signal_arrivals:` (one signal through the coordinator each, resuming via the subscribed-listener
 * path, harness-chat §8.2).
 */
import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import { configureCallList } from "../../harness/turns/call-list.ts";
import { CHAT_SEND, CHAT_SIGNAL, turnCase, type ChatSendInput, type ChatSignalInput } from "../../harness/turns/case.ts";
import { State } from "../general/state.ts";
import { CategorizedRaises, HarnessBlock, HarnessSessionStore, HarnessSuspendWithDescriptor, TurnExpected } from "../harness/setup.ts";

const HOME = "harness-chat";

directive({ name: "harness", at: "case", home: HOME, summary: "the chat harness's mode (sessioned only, harness-chat §1)" })(HarnessBlock);
directive({ name: "session_store", at: "case", home: HOME, summary: "the SessionStore; behavior.load_raises injects a failing load" })(HarnessSessionStore);
directive({ name: "raises", at: "node", home: HOME, summary: "raise; {category, message} raises a categorized error" })(CategorizedRaises);
directive({ name: "suspend_with_descriptor", at: "node", home: HOME, summary: "the node body calls suspend(descriptor)" })(HarnessSuspendWithDescriptor);

/**
 * `state:` (general), where a field typed `list[ChatMessage]` is the conversation history of
 * harness-chat §4: the same field the library's `messagesField()` declares (`list<any>` holding
 * `ChatMessage`s; messages are validated at the `send()` boundary, harness-chat §3.1).
 */
@directive({ name: "state", at: "case", home: HOME, summary: "typed state; list[ChatMessage] is the messagesField() history" })
export class ChatState extends State {
  override configure(value: Record<string, unknown>, ctx: ConfigureContext): void {
    const fields = Object.fromEntries(
      Object.entries(value["fields"] as Record<string, Record<string, unknown>>).map(([k, f]) => [k, f["type"] === "list[ChatMessage]" ? { ...f, type: "list<any>" } : f]),
    );
    super.configure({ ...value, fields }, ctx);
  }
}

type Parts = { sessionId?: string; message?: unknown; hasMessage?: boolean; listener?: string; signalId?: string; payload?: Record<string, unknown> };
const PARTS = "harness-chat.parts";
function parts(ctx: ConfigureContext): Parts {
  let p = ctx.plan.input<Parts>(PARTS);
  if (p === undefined) ctx.plan.setInput(PARTS, (p = {}));
  return p;
}

async function entries(value: Array<Record<string, unknown>>, ctx: ConfigureContext, position: string, what: string, check: (p: Parts, path: KeyPath) => void): Promise<void> {
  turnCase(ctx).chat = true;
  await configureCallList(value, ctx, position, what, (plan, path) => {
    const p = plan.input<Parts>(PARTS) ?? {};
    check(p, path);
    if (position === "chat_turn") plan.setInput<ChatSendInput>(CHAT_SEND, { sessionId: p.sessionId, message: p.message, listener: p.listener });
    else plan.setInput<ChatSignalInput>(CHAT_SIGNAL, { signalId: p.signalId!, payload: p.payload ?? {} });
  });
}

/** `chat_turns: [...]` — one `send(session_id, user_message)` each, in order, on one chat harness. */
@directive({ name: "chat_turns", at: "case", home: HOME, summary: "chat turns, one send() each" })
export class ChatTurns {
  readonly schema = { type: "array", minItems: 1, items: { type: "object" } };
  async configure(value: Array<Record<string, unknown>>, ctx: ConfigureContext): Promise<void> {
    await entries(value, ctx, "chat_turn", "chat turn", (p, path) => {
      if (p.sessionId === undefined) throw new FixtureSchemaInvalid("a chat turn needs 'session_id'", ctx.locate(path));
      if (!p.hasMessage) throw new FixtureSchemaInvalid("a chat turn needs 'user_message'", ctx.locate(path));
    });
  }
}

/** `signal_arrivals: [...]` — after the chat turns, one arriving signal each (harness §6 → §3.3). */
@directive({ name: "signal_arrivals", at: "case", home: HOME, summary: "signals arriving after the chat turns" })
export class SignalArrivals {
  readonly schema = { type: "array", minItems: 1, items: { type: "object" } };
  async configure(value: Array<Record<string, unknown>>, ctx: ConfigureContext): Promise<void> {
    await entries(value, ctx, "signal_arrival", "signal arrival", (p, path) => {
      if (p.signalId === undefined) throw new FixtureSchemaInvalid("a signal arrival needs 'signal_id'", ctx.locate(path));
    });
  }
}

/** `session_id:` of a chat turn — the session `send()` targets. */
@directive({ name: "session_id", at: "chat_turn", home: HOME, summary: "the session send() targets" })
export class ChatTurnSessionId {
  readonly schema = { type: "string" };
  configure(value: string, ctx: ConfigureContext): void {
    parts(ctx).sessionId = value;
  }
}

/** `user_message:` — the inbound ChatMessage, sent as written (validation is the harness's, harness-chat §3.1). */
@directive({ name: "user_message", at: "chat_turn", home: HOME, summary: "the ChatMessage send() receives" })
export class UserMessage {
  readonly schema = true;
  configure(value: unknown, ctx: ConfigureContext): void {
    const p = parts(ctx);
    p.message = value;
    p.hasMessage = true;
  }
}

/** `subscribe_listener: <name>` — register a named listener on the turn's session (harness-chat §8.2) before sending. */
@directive({ name: "subscribe_listener", at: "chat_turn", home: HOME, summary: "subscribe a named listener to the turn's session" })
export class SubscribeListener {
  readonly schema = { type: "string", minLength: 1 };
  configure(value: string, ctx: ConfigureContext): void {
    parts(ctx).listener = value;
  }
}

directive({ name: "expected", at: "chat_turn", home: HOME, summary: "assertions on the chat turn's outcome" })(TurnExpected);

/** `signal_id:` — the arriving signal's correlation key (the awaited descriptor's signal id). */
@directive({ name: "signal_id", at: "signal_arrival", home: HOME, summary: "the arriving signal's correlation key" })
export class ArrivalSignalId {
  readonly schema = { type: "string", minLength: 1 };
  configure(value: string, ctx: ConfigureContext): void {
    parts(ctx).signalId = value;
  }
}

/** `signal_payload:` — merged into the paused state on resume (suspension §6). */
@directive({ name: "signal_payload", at: "signal_arrival", home: HOME, summary: "the arriving signal's payload" })
export class ArrivalSignalPayload {
  readonly schema = { type: "object" };
  configure(value: Record<string, unknown>, ctx: ConfigureContext): void {
    parts(ctx).payload = value;
  }
}
