/**
 * A ready chat graph over an llm-provider §5 `Provider` — what `openarmature chat`, the HTTP
 * runtime's web page and the load test run: the harness-chat §4 `messages` history goes to the
 * model (after an optional system prompt) and its answer is appended as one assistant message.
 *
 * Streaming: inside {@link streamReplyTo}`(sink, fn)` the reply node streams the completion
 * (`provider.stream`) and hands every text delta to `sink` as it arrives (the HTTP runtime writes
 * them as server-sent `delta` events, the terminal chat to stdout); outside it the node makes one
 * `complete()` call. The appended message is the same either way (llm-provider §6 *Streaming
 * assembly*).
 *
 * Checkpointing (see {@link checkpointableTurn}): a turn asked to stop suspends at its reply and
 * resumes by re-running it.
 *
 * Approval (harness-chat §8): with `approveWhen`, a user message it matches makes the turn ask
 * first — the graph appends an assistant message ("Approve …?", the §8.1 pending message) and
 * suspends with signal id `approval-<uuid>`; the resume payload `{decision: "approve"}` lets the
 * model answer; any other decision (`"reject"`) appends "Declined." without calling it.
 *
 * ```ts
 * const chat = new ChatHarness({ graph: withSessions(providerChatGraph(providers.create("openai", { model: "gpt-4o-mini" })), { store, projection: "full" }) });
 * ```
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import { END, GraphBuilder, defineState, field } from "../../graph/index.ts";
import type { Message } from "../../llm/messages.ts";
import { textOf } from "../../llm/messages.ts";
import type { Provider } from "../../llm/provider.ts";
import type { Response } from "../../llm/response.ts";
import { suspend } from "../../suspension/index.ts";
import { messagesField } from "./history.ts";
import type { AssistantMessage, ChatMessage } from "./message.ts";

/** Receives each text delta of a streamed reply. */
export type ReplySink = (delta: string) => void;

const sinks = new AsyncLocalStorage<ReplySink>();

/** Run `fn` with `sink` receiving the text deltas of every provider reply made inside it. */
export function streamReplyTo<T>(sink: ReplySink, fn: () => Promise<T>): Promise<T> {
  return sinks.run(sink, fn);
}

const checkpoints = new AsyncLocalStorage<AbortSignal>();

/**
 * Run `fn` (a turn) so that aborting `checkpoint` checkpoints it instead of failing it: the reply
 * node stops its model call and suspends (`metadata.kind: "interrupted"`, `markNodeCompleted:
 * false`), so the engine persists the turn as a paused record — the session saved with it — and a
 * resume (any payload, by invocation id, after a restart too) re-runs the reply. The HTTP runtime's
 * `close({ timeoutMs })` uses it for the turns still running at the deadline.
 */
export function checkpointableTurn<T>(checkpoint: AbortSignal, fn: () => Promise<T>): Promise<T> {
  return checkpoints.run(checkpoint, fn);
}

/** The checkpoint signal of the turn calling this (inside {@link checkpointableTurn}), for graphs of your own. */
export function checkpointSignal(): AbortSignal | undefined {
  return checkpoints.getStore();
}

/** The kind in the descriptor metadata of a turn checkpointed by {@link checkpointableTurn}. */
export const INTERRUPTED_KIND = "interrupted";

function suspendInterrupted(): never {
  suspend({ signalId: `resume-${randomUUID()}`, metadata: { kind: INTERRUPTED_KIND } }, { markNodeCompleted: false });
}

export interface ProviderChatOptions {
  /** A system prompt sent before the history (not stored in it). */
  readonly system?: string;
  /** User messages needing approval before the model answers (see the module comment). */
  readonly approveWhen?: (text: string) => boolean;
  /** The graph's name. Default `"chat"`. */
  readonly name?: string;
}

/** The chat state: the §4 history plus the approval step's bookkeeping. */
export const ProviderChatState = defineState({
  messages: messagesField(),
  awaiting_approval: field.bool().default(false),
  decision: field.string().default(""),
});

function lastUserText(messages: readonly ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === "user") return typeof m.content === "string" ? m.content : m.content.map((b) => (b.type === "text" ? b.text : "")).join("");
  }
  return "";
}

/** The assistant message of a provider response, in the ChatMessage shape. */
export function assistantReply(response: Response): AssistantMessage {
  const text = textOf(response.message.content);
  const calls = response.message.tool_calls ?? [];
  return { role: "assistant", content: text, ...(calls.length > 0 ? { tool_calls: calls } : {}) };
}

/** The one-provider chat graph (see the module comment). */
export function providerChatGraph(provider: Provider, options: ProviderChatOptions = {}) {
  const approveWhen = options.approveWhen;
  return new GraphBuilder(ProviderChatState)
    .addNode("gate", async (s) => {
      // A new turn starts here (a resume continues after "hold"): it never inherits an approval
      // flag the session kept from a paused turn that was cancelled or whose resume failed.
      const text = lastUserText(s.messages);
      if (approveWhen === undefined || !approveWhen(text)) return { awaiting_approval: false, decision: "" };
      return { awaiting_approval: true, decision: "", messages: [{ role: "assistant", content: `Approve "${text}"? (approve / reject)` } satisfies ChatMessage] };
    })
    .addNode("hold", async (s) => {
      if (s.awaiting_approval && s.decision === "") suspend({ signalId: `approval-${randomUUID()}`, metadata: { kind: "approval", request: lastUserText(s.messages) } });
      return {};
    })
    .addNode("reply", async (s, ctx) => {
      const reset = { awaiting_approval: false, decision: "" };
      if (s.awaiting_approval && s.decision !== "approve") return { ...reset, messages: [{ role: "assistant", content: "Declined." } satisfies ChatMessage] };
      // An approved turn: the model sees the history up to the user's message, not the approval question.
      const asked = s.awaiting_approval ? s.messages.slice(0, -1) : s.messages;
      const history: Message[] = [...(options.system !== undefined ? [{ role: "system", content: options.system } as Message] : []), ...(asked as readonly Message[])];
      const sink = sinks.getStore();
      const checkpoint = checkpointSignal();
      if (checkpoint?.aborted) suspendInterrupted();
      const signal = checkpoint !== undefined ? AbortSignal.any([ctx.signal, checkpoint]) : ctx.signal;
      let response: Response | undefined;
      try {
        if (sink === undefined) {
          response = await provider.complete(history, { signal });
        } else {
          for await (const event of provider.stream(history, { signal })) {
            if (event.type === "text_delta") sink(event.delta);
            else if (event.type === "done") response = event.response;
          }
        }
      } catch (e) {
        if (checkpoint?.aborted && !ctx.signal.aborted) suspendInterrupted();
        throw e;
      }
      if (checkpoint?.aborted && !ctx.signal.aborted) suspendInterrupted();
      if (response === undefined) throw new Error(`provider '${provider.name}' ended its stream without a response`);
      return { ...reset, messages: [assistantReply(response)] };
    })
    .addEdge("gate", "hold")
    .addEdge("hold", "reply")
    .addEdge("reply", END)
    .setEntry("gate")
    .compile({ name: options.name ?? "chat" });
}
