import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import { checkpointCase, RESUME_REQUEST, type ResumeRequest } from "../../harness/checkpoint/case.ts";
import { CALL_RUNNER } from "../../harness/graph/extensions.ts";
import { useGraphExecutor } from "../../harness/graph/use-graph.ts";

/**
 * `resume: {from_first_run | from_seeded_record: true, expected, invariants, expected_error, ...}`
 * (conformance-adapter §5.6; `from_seeded_record` per the pipeline-utilities note, fixtures 039–047,
 * 076): after the first run ended (by `first_run_expected_error` or `crash_injection`), resume its
 * invocation — or the `seeded_record`'s — with the library's real `invoke(resume_invocation=<id>)`,
 * and check the block's assertions against that call.
 *
 * The block is its own call (a follow-up plan with its own runner). Its other keys resolve at the
 * `invocation` position (`expected`, `invariants`, `expected_error`, `caller_invocation_id`,
 * `resume_with_modified_items`, ...). A seeded resume is the case's only call: there is no first run.
 */
@directive({ name: "resume", at: "case", home: "general", summary: "resume the first run's (or the seeded) invocation and assert on it" })
export class Resume {
  readonly schema = {
    type: "object",
    properties: { from_first_run: { type: "boolean" }, from_seeded_record: { type: "boolean" } },
  };
  async configure(value: Record<string, unknown>, ctx: ConfigureContext): Promise<void> {
    const { from_first_run: first, from_seeded_record: seeded, ...rest } = value;
    if ((first === true) === (seeded === true)) {
      throw new FixtureSchemaInvalid("'resume' needs exactly one of from_first_run: true and from_seeded_record: true", ctx.locate(ctx.self.path));
    }
    const state = checkpointCase(ctx);
    const req: ResumeRequest = { from: first === true ? "first_run" : "seeded_record", path: ctx.self.path };
    // A seeded resume is the case's only call: an `invocation` plan, so the executor makes no first run.
    const plan = ctx.newPlan("resume", ctx.self.path, req.from === "seeded_record" ? "invocation" : "resume");
    plan.setInput(RESUME_REQUEST, req);
    plan.setInput(CALL_RUNNER, state.resumeRunner(req));
    await ctx.configureAll(ctx.resolve("invocation", rest, ctx.self.path), plan);
    useGraphExecutor(ctx);
  }
}
