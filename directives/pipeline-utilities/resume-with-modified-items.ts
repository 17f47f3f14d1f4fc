import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import { MODIFIED_ITEMS, RESUME_REQUEST } from "../../harness/checkpoint/case.ts";

/**
 * `resume_with_modified_items: {<field>: <value>}` (pipeline-utilities note, fixture 056), inside
 * `resume:`: the resumed run's restored state has these fields re-resolved to the new values
 * ("the user changed the input set between runs"), so a fan-out resolves a different instance count
 * than its saved progress (`harness/checkpoint/modified-items-view.ts`).
 */
@directive({ name: "resume_with_modified_items", at: "invocation", home: "pipeline-utilities", summary: "re-resolve state fields on the resumed run" })
export class ResumeWithModifiedItems {
  readonly schema = { type: "object", minProperties: 1 };
  configure(value: Record<string, unknown>, ctx: ConfigureContext): void {
    if (ctx.plan.input(RESUME_REQUEST) === undefined) {
      throw new FixtureSchemaInvalid("'resume_with_modified_items' belongs inside a 'resume:' block", ctx.locate(ctx.self.path));
    }
    ctx.plan.setInput(MODIFIED_ITEMS, { fields: value, path: ctx.self.path });
  }
}
