import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { callerIds } from "../../harness/graph/caller-ids.ts";

/**
 * `correlation_id: <id>` in an `invocations:` entry (conformance-adapter §5.7's multi-invocation
 * form spells the caller's correlation id this way; the single-invocation form spells it
 * `caller_correlation_id`, which an entry also takes). The call passes it to `invoke()` exactly as
 * `caller_correlation_id` does; an entry writing both is rejected as ambiguous.
 */
@directive({ name: "correlation_id", at: "invocation", home: "general", summary: "correlation id the caller supplies (invocations[] spelling)" })
export class InvocationCorrelationId {
  readonly schema = { type: "string", minLength: 1 };
  configure(value: string, ctx: ConfigureContext): void {
    callerIds(ctx).correlationId(ctx.plan, value, ctx.locate(ctx.self.path));
  }
}
