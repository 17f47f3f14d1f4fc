/**
 * The tool-calling agent loop: model call → tool calls → model call, until the model answers
 * without tool calls or `maxTurns` model calls have been made. {@link runAgentLoop} runs it over a
 * message list; {@link agentNode} makes it a graph node reading and writing a `messages` field.
 * Cancellation: the signal (a node's `ctx.signal`) reaches every model request and every tool, and
 * is checked between steps; an abort rejects with the abort reason.
 */
import { textOf, type Message, type ToolCall, type ToolMessage } from "./messages.ts";
import type { CompleteOptions, Provider } from "./provider.ts";
import type { Response } from "./response.ts";
import type { Tool } from "./tools.ts";
import { executeToolCall, type AgentTool } from "./tool-execution.ts";

/** Project error categories of the agent loop (not llm-provider §7 ones: no provider failed). */
export type AgentLoopErrorCategory = "agent_max_turns" | "agent_unknown_tool" | "agent_tool_failed";

/** The loop stopped without an answer; `messages` is the transcript so far (to inspect or resume). */
export class AgentLoopError extends Error {
  override readonly name = "AgentLoopError";
  constructor(
    readonly category: AgentLoopErrorCategory,
    message: string,
    readonly messages: readonly Message[],
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface AgentLoopOptions {
  readonly provider: Provider;
  /** Tools of any argument type (`run` is a method, so `AgentTool<{ city: string }>` fits). */
  readonly tools: ReadonlyArray<AgentTool>;
  /** Most model calls in one loop (default 8). */
  readonly maxTurns?: number;
  /** At the bound: `"error"` (default) throws `agent_max_turns`; `"return"` returns with `stop: "max_turns"`. */
  readonly onMaxTurns?: "error" | "return";
  /**
   * A tool that throws, or a call naming no known tool: `"raise"` (default) throws
   * `agent_tool_failed` (the tool's error as `cause`) / `agent_unknown_tool`; `"report"` sends
   * `Error: <message>` back to the model as the tool result and goes on.
   */
  readonly toolErrors?: "raise" | "report";
  /** Passed to every model call (`config`, `toolChoice`, `retry`, `stream`, `onEvent`, ...). */
  readonly callOptions?: Omit<CompleteOptions, "tools" | "signal">;
}

export interface AgentLoopResult {
  /** The input messages followed by every message the loop added. */
  readonly messages: Message[];
  /** Only the messages the loop added (assistant turns and tool results), for an append reducer. */
  readonly added: Message[];
  /** The last model response. */
  readonly response: Response;
  /** The final answer's text (`""` when the last message is not a text answer). */
  readonly text: string;
  /** Model calls made. */
  readonly turns: number;
  readonly stop: "answered" | "max_turns";
}

/** Run the loop over `messages`. */
export async function runAgentLoop(messages: ReadonlyArray<Message>, options: AgentLoopOptions & { readonly signal?: AbortSignal }): Promise<AgentLoopResult> {
  const maxTurns = options.maxTurns ?? 8;
  if (!Number.isInteger(maxTurns) || maxTurns < 1) throw new RangeError(`runAgentLoop: maxTurns must be a positive integer, got ${String(maxTurns)}`);
  const signal = options.signal ?? new AbortController().signal;
  const byName = new Map(options.tools.map((t) => [t.name, t]));
  const definitions: Tool[] = options.tools.map(({ name, description, parameters }) => ({ name, description, parameters }));
  const transcript = [...messages];
  const added: Message[] = [];
  const push = (m: Message) => {
    transcript.push(m);
    added.push(m);
  };
  for (let turn = 1; ; turn++) {
    signal.throwIfAborted();
    const response = await options.provider.complete(transcript, { ...options.callOptions, tools: definitions, signal });
    push(response.message);
    const calls = response.message.tool_calls ?? [];
    if (calls.length === 0) return { messages: transcript, added, response, text: textOf(response.message.content), turns: turn, stop: "answered" };
    for (const call of calls) push(await runCall(call, byName, options.toolErrors ?? "raise", signal, transcript));
    if (turn >= maxTurns) {
      if (options.onMaxTurns === "return") return { messages: transcript, added, response, text: "", turns: turn, stop: "max_turns" };
      throw new AgentLoopError("agent_max_turns", `agent loop: ${maxTurns} model call(s) made and the model still calls tools (last: ${calls.map((c) => c.name).join(", ")}); raise maxTurns or pass onMaxTurns: "return"`, transcript);
    }
  }
}

async function runCall(call: ToolCall, byName: ReadonlyMap<string, AgentTool>, toolErrors: "raise" | "report", signal: AbortSignal, transcript: readonly Message[]): Promise<ToolMessage> {
  const reply = (content: string): ToolMessage => ({ role: "tool", tool_call_id: call.id, content });
  const tool = byName.get(call.name);
  if (tool === undefined) {
    const known = [...byName.keys()].join(", ") || "(none)";
    if (toolErrors === "report") return reply(`Error: no tool named '${call.name}' (tools: ${known})`);
    throw new AgentLoopError("agent_unknown_tool", `agent loop: the model called '${call.name}' (call ${call.id}), which is not among the tools (${known})`, transcript);
  }
  let result: unknown;
  try {
    result = await executeToolCall(tool, call, signal);
  } catch (error) {
    if (signal.aborted) throw error;
    const message = error instanceof Error ? error.message : String(error);
    if (toolErrors === "report") return reply(`Error: ${message}`);
    throw new AgentLoopError("agent_tool_failed", `agent loop: tool '${call.name}' (call ${call.id}) failed: ${message}`, transcript, { cause: error });
  }
  return reply(typeof result === "string" ? result : JSON.stringify(result) ?? "null");
}

/** The state an {@link agentNode} reads: a `messages` list. */
export interface AgentState {
  readonly messages: ReadonlyArray<Message>;
}

/**
 * A graph node running {@link runAgentLoop} on `state.messages`, cancelled through `ctx.signal`.
 * By default it returns `{ messages }` (the whole transcript, for a last-write-wins field); pass
 * `update` to write something else — `(r) => ({ messages: r.added, answer: r.text })` for an
 * `append` messages field.
 */
export function agentNode<S extends AgentState, U = { messages: Message[] }>(
  options: AgentLoopOptions & { readonly update?: (result: AgentLoopResult, state: Readonly<S>) => U },
): (state: Readonly<S>, ctx: { readonly signal: AbortSignal }) => Promise<U> {
  const update = options.update ?? ((r: AgentLoopResult) => ({ messages: r.messages }) as U);
  return async (state, ctx) => update(await runAgentLoop(state.messages, { ...options, signal: ctx.signal }), state);
}
