import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import * as F from "../../harness/graph/facets.ts";
import { causeChain, classify, describeResult } from "../../harness/graph/reading.ts";
import { ConstructionErrors } from "../../harness/graph/construction.ts";

interface Value {
  readonly category: string;
}

/**
 * `expected_construction_error: {category}` (conformance-adapter §5.8 / §5.5, proposal 0116),
 * beside `expected:`: standing up the case's observers / clients and running it raised a
 * categorized error of this category at construction or first use — the observer / client
 * construction analogue of `expected_compile_error`. The raised error must be one a construction
 * recorded (the Langfuse observer's, `harness/graph/construction.ts`), not one a node raised; the
 * category is read by §5.8's category rule.
 */
@directive({ name: "expected_construction_error", at: ["case", "invocation"], home: "general", summary: "standing up the case's observers / clients raised this category" })
export class ExpectedConstructionError {
  readonly schema = {
    type: "object",
    required: ["category"],
    additionalProperties: false,
    properties: { category: { type: "string", minLength: 1 } },
  };
  check(value: Value, obs: Observation, ctx: CheckContext): void {
    const r = obs.get(F.Result, ctx.locate(ctx.self.path));
    const constructed = obs.tryGet(ConstructionErrors) ?? [];
    if (r.kind !== "errored" && r.kind !== "compile_error") {
      const also = constructed.length > 0 ? ` (a construction raised ${constructed.map((e) => e.message).join("; ")}, yet the call did not fail)` : "";
      ctx.fail(`expected standing up the case's observers / clients to raise ${value.category}, but no construction error was raised: ${describeResult(r)}${also}`);
      return;
    }
    const chain = causeChain(r.error).map((l) => l.error);
    if (!constructed.some((e) => chain.includes(e))) {
      const got = classify(r.error);
      ctx.fail(
        `expected an observer / client construction error ${value.category}, but the call raised ${got.category ?? "an uncategorized error"} (${got.message ?? r.error.message}) that no observer / client construction raised`,
        { expected: value.category, actual: got.category },
      );
      return;
    }
    ctx.match(value.category, classify(r.error).category, null, `${ctx.label}.category`);
  }
}
