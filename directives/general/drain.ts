import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { DRAIN } from "../../harness/graph/executor.ts";
import { GraphCaseHooksSlot } from "../../harness/graph/extensions.ts";

/**
 * `drain: {timeout_seconds}` (conformance-adapter §5.7, §6.6): after the call returns, the adapter
 * calls the engine's real process-wide `drain()` with the timeout (`{}`: no timeout) and records
 * the summary for `drain_summary`. Written in the case's `invoke:` beside `invocations:`, it is
 * the drain of every entry that does not write its own.
 */
@directive({ name: "drain", at: ["invoke", "invocation"], home: "general", summary: "process-wide drain after the call" })
export class Drain {
  readonly schema = { type: "object", additionalProperties: false, properties: { timeout_seconds: { type: ["number", "null"], minimum: 0 } } };
  configure(value: { timeout_seconds?: number | null }, ctx: ConfigureContext): void {
    ctx.plan.setInput(DRAIN, { timeoutSeconds: value.timeout_seconds ?? null });
    ctx.slot(GraphCaseHooksSlot).invocationDefaults.add(DRAIN);
  }
}
