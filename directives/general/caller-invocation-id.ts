import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { callerIds } from "../../harness/graph/caller-ids.ts";

/**
 * `caller_invocation_id: <id>` (conformance-adapter §5.7, observability §5.1): the call passes this
 * invocation id to `invoke()` (used verbatim on a fresh invocation; a resume ignores it and mints
 * a fresh one, pipeline-utilities §10.4). At case level it applies to the case's own call; inside
 * an invocation or a `resume:` block, to that call.
 */
@directive({ name: "caller_invocation_id", at: ["case", "invocation"], home: "general", summary: "invocation id the caller supplies" })
export class CallerInvocationId {
  readonly schema = { type: "string", minLength: 1 };
  configure(value: string, ctx: ConfigureContext): void {
    callerIds(ctx).invocationId(ctx.plan, value);
  }
}
