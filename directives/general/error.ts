import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import * as F from "../../harness/graph/facets.ts";
import { classify, describeResult } from "../../harness/graph/reading.ts";

/** `error: {category}` under `expected:` with `outcome: errored` (conformance-adapter §5.8 category rule). */
@directive({ name: "error", at: "expected", home: "general", summary: "category of the error the call raised" })
export class ErrorAssertion {
  readonly schema = { type: "object", required: ["category"], additionalProperties: false, properties: { category: { type: "string" } } };
  check(value: { category: string }, obs: Observation, ctx: CheckContext): void {
    const r = obs.get(F.Result, ctx.locate(ctx.self.path));
    if (r.kind !== "errored" && r.kind !== "compile_error") {
      ctx.fail(`expected an error of category ${value.category}, but ${describeResult(r)}`);
      return;
    }
    ctx.match(value.category, classify(r.error).category, null, `${ctx.label}.category`);
  }
}
