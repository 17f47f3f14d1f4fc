/**
 * The tool-call instrumentation scope (graph-engine §6, observability §5.5.11 / §5.5.12):
 * {@link runToolCall} runs one tool execution and dispatches exactly one `ToolCallEvent` (it
 * returned) or `ToolCallFailedEvent` (it raised — the error still propagates unchanged) into the
 * calling node's invocation, carrying the requesting `ToolCall.id` when the model asked for it.
 * Outside a graph node it only runs the tool.
 *
 * ```ts
 * for (const call of response.message.tool_calls ?? []) {
 *   const result = await runToolCall({ name: call.name, toolCallId: call.id, arguments: call.arguments }, (args) => tools[call.name](args));
 *   messages.push({ role: "tool", tool_call_id: call.id, content: JSON.stringify(result) });
 * }
 * ```
 */
import { randomUUID } from "node:crypto";
import { currentNodeContext, getInvocationMetadata, lineageOf, preciseNow, type NodeContext } from "../graph/index.ts";
import "./tool-events.ts"; // registers the tool event families
import type { ToolCallIdentity } from "./tool-events.ts";

/** Which tool runs, for whom, with what. */
export interface ToolExecution {
  /** The tool's name (`Tool.name` when the model requested it). */
  readonly name: string;
  /** The `ToolCall.id` this execution satisfies; omit (or null) for a standalone instrumented function. */
  readonly toolCallId?: string | null;
  /** The arguments the tool is invoked with (the parsed `ToolCall.arguments`); null for none. */
  readonly arguments?: Readonly<Record<string, unknown>> | null;
}

/**
 * Run `tool(arguments)` as one instrumented tool execution. Resolves with what the tool returned;
 * rejects with what it raised. The result is recorded as produced (OA does not serialize it).
 */
export async function runToolCall<R>(execution: ToolExecution, tool: (args: Readonly<Record<string, unknown>> | null) => R | Promise<R>): Promise<R> {
  if (typeof execution?.name !== "string" || execution.name === "") throw new TypeError("runToolCall: execution.name must be a non-empty string");
  const args = execution.arguments ?? null;
  const ctx = currentNodeContext();
  if (!ctx) return tool(args);
  const start = preciseNow();
  const identity = scopeIdentity(ctx, execution.name, execution.toolCallId ?? null, args, start);
  let result: R;
  try {
    result = await tool(args);
  } catch (error) {
    const end = preciseNow();
    ctx.emit({
      kind: "tool_call_failed",
      ...identity,
      latencyMs: end - start,
      timestamp: end,
      errorType: error instanceof Error ? error.name : null,
      errorMessage: error instanceof Error ? error.message : String(error ?? ""),
      error,
    });
    throw error;
  }
  const end = preciseNow();
  ctx.emit({ kind: "tool_call", ...identity, latencyMs: end - start, timestamp: end, result });
  return result;
}

/** The scope-entry identity (graph-engine §6 *Identity under deferred execution*). */
function scopeIdentity(
  ctx: NodeContext,
  toolName: string,
  toolCallId: string | null,
  args: Readonly<Record<string, unknown>> | null,
  startTime: number,
): Omit<ToolCallIdentity, "latencyMs" | "timestamp"> {
  return {
    ...lineageOf(ctx),
    callId: randomUUID(),
    toolName,
    toolCallId,
    arguments: args,
    callerInvocationMetadata: null,
    invocationMetadata: getInvocationMetadata(),
    startTime,
  };
}
