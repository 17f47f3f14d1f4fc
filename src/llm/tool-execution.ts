/**
 * The one place a tool the agent loop knows is run for a model's tool call. Every tool execution of
 * `runAgentLoop` / `agentNode` goes through {@link executeToolCall}, which runs it inside
 * `runToolCall`, the tool-call instrumentation scope (src/llm/tool-call.ts): inside a graph node,
 * one ToolCallEvent / ToolCallFailedEvent per execution, carrying the model's `ToolCall.id`.
 */
import type { JsonObject, ToolCall } from "./messages.ts";
import { runToolCall } from "./tool-call.ts";
import type { Tool } from "./tools.ts";

/** What a tool's `run` receives besides its arguments. */
export interface ToolContext {
  /** The model's tool call being satisfied (its `id` becomes the tool message's `tool_call_id`). */
  readonly call: ToolCall;
  /** Aborts when the loop is cancelled (the node's `ctx.signal`, or the caller's signal). */
  readonly signal: AbortSignal;
}

/**
 * A tool definition (llm-provider §4) with the function that runs it. `A` types the argument record
 * the model sends (the JSON Schema in `parameters` is what the model sees; the loop does not
 * validate arguments against it — a tool that must trust them checks them).
 */
export interface AgentTool<A extends JsonObject = JsonObject> extends Tool {
  run(args: A, ctx: ToolContext): unknown;
}

/** Define a tool with typed arguments: `defineTool<{ city: string }>({ name, description, parameters, run })`. */
export function defineTool<A extends JsonObject = JsonObject>(tool: AgentTool<A>): AgentTool<A> {
  return tool;
}

/** Run `tool` for `call` as one instrumented tool execution: the single tool-execution call site of the agent loop. */
export async function executeToolCall(tool: AgentTool, call: ToolCall, signal: AbortSignal): Promise<unknown> {
  signal.throwIfAborted();
  const args = call.arguments ?? {};
  return await runToolCall({ name: tool.name, toolCallId: call.id, arguments: args }, () => tool.run(args, { call, signal }));
}
