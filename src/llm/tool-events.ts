/**
 * The typed tool-call events of graph-engine §6 (observability §5.5.12): {@link ToolCallEvent} on a
 * tool execution returning, {@link ToolCallFailedEvent} on it raising — one of the two per
 * execution. Declared into the engine's `ObserverEventMap` and registered as event families.
 */
import { lineageRecord, registerEventFamily, type EventLineage, type InvocationMetadata } from "../graph/index.ts";

/** What both tool events carry. */
export interface ToolCallIdentity extends EventLineage {
  /** OA's own per-execution token, minted when the execution starts. */
  readonly callId: string;
  readonly toolName: string;
  /** The `ToolCall.id` this execution satisfies; `null` for a standalone instrumented function. */
  readonly toolCallId: string | null;
  /** The arguments the tool was invoked with (`null` for none). Payload: gate when rendering. */
  readonly arguments: Readonly<Record<string, unknown>> | null;
  /** Scope entry to outcome, ms. */
  readonly latencyMs: number | null;
  /** Null as emitted; see `withCallerInvocationMetadata` (observability §3.4 opt-in). */
  readonly callerInvocationMetadata: Readonly<Record<string, unknown>> | null;
  /** The caller-supplied invocation metadata in scope when the execution started. */
  readonly invocationMetadata: InvocationMetadata;
  /** Wall-clock time the execution started / the event was dispatched, ms since epoch. */
  readonly startTime: number;
  readonly timestamp: number;
}

/** `ToolCallEvent`: the tool returned `result` (as the tool produced it). */
export interface ToolCallEvent extends ToolCallIdentity {
  readonly kind: "tool_call";
  readonly result: unknown;
}

/** `ToolCallFailedEvent`: the tool raised. No `error_category` (arbitrary code has no §7 taxonomy). */
export interface ToolCallFailedEvent extends ToolCallIdentity {
  readonly kind: "tool_call_failed";
  /** The exception class name (or a tool-defined code); `null` when none is available. */
  readonly errorType: string | null;
  readonly errorMessage: string;
  /** The raised value, for the span's exception event. Not part of the spec record. */
  readonly error: unknown;
}

declare module "../graph/events.ts" {
  interface ObserverEventMap {
    tool_call: ToolCallEvent;
    tool_call_failed: ToolCallFailedEvent;
  }
}

function identityRecord(e: ToolCallIdentity): Record<string, unknown> {
  return {
    ...lineageRecord(e),
    caller_invocation_metadata: e.callerInvocationMetadata,
    call_id: e.callId,
    tool_name: e.toolName,
    tool_call_id: e.toolCallId,
    arguments: e.arguments,
    latency_ms: e.latencyMs,
  };
}

registerEventFamily({ typeName: "ToolCallEvent", kind: "tool_call", toRecord: (e) => ({ ...identityRecord(e), result: e.result }) });
registerEventFamily({
  typeName: "ToolCallFailedEvent",
  kind: "tool_call_failed",
  toRecord: (e) => ({ ...identityRecord(e), error_type: e.errorType, error_message: e.errorMessage }),
});
