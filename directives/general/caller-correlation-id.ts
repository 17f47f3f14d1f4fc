import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { callerIds } from "../../harness/graph/caller-ids.ts";

/**
 * `caller_correlation_id: <id>` (conformance-adapter §5.7, observability §3.1): the call passes this
 * correlation id to `invoke()`. At case level it applies to the case's own call; inside an
 * invocation or a `resume:` block, to that call.
 */
@directive({ name: "caller_correlation_id", at: ["case", "invocation"], home: "general", summary: "correlation id the caller supplies" })
export class CallerCorrelationId {
  readonly schema = { type: "string", minLength: 1 };
  configure(value: string, ctx: ConfigureContext): void {
    callerIds(ctx).correlationId(ctx.plan, value, ctx.locate(ctx.self.path));
  }
}
