import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { checkpointCase, RESUME_INVOCATION } from "../../harness/checkpoint/case.ts";

/**
 * `invoke_with: {resume_invocation: <id>}` (conformance-adapter §5.7): the case's call is
 * `invoke(resume_invocation=<id>)` of the checkpointed graph (pipeline-utilities §10.4) — with no
 * Checkpointer registered, or no record for `<id>`, the library raises `checkpoint_not_found`.
 */
@directive({ name: "resume_invocation", at: "invoke", home: "general", summary: "resume this invocation instead of starting one" })
export class ResumeInvocation {
  readonly schema = { type: "string", minLength: 1 };
  configure(value: string, ctx: ConfigureContext): void {
    checkpointCase(ctx);
    ctx.plan.setInput(RESUME_INVOCATION, value);
  }
}
