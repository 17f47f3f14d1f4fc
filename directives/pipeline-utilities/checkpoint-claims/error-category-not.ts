import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { raisedError } from "../../../harness/checkpoint/reading.ts";
import { classify } from "../../../harness/graph/reading.ts";

/**
 * `error_category_not: [<category>, ...]` (fixtures 044, 046; §10.10, §10.12.4): the call's error, by the §5.8
 * category rule, is none of these categories (the routing chose another).
 */
@directive({ name: "error_category_not", at: "invariant", home: "pipeline-utilities" })
export class ErrorCategoryNot {
  readonly schema = { type: "array", minItems: 1, items: { type: "string" } };
  check(value: string[], obs: Observation, ctx: CheckContext): void {
    const e = raisedError(obs, ctx);
    if (typeof e === "string") return ctx.fail(`${ctx.self.key}: ${e}`);
    const category = classify(e).category;
    if (category !== null && value.includes(category)) ctx.fail(`${ctx.self.key}: the call raised ${category}`, { expected: `none of ${JSON.stringify(value)}`, actual: category });
  }
}
