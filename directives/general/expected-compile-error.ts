import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import * as F from "../../harness/graph/facets.ts";
import { describeResult } from "../../harness/graph/reading.ts";

/**
 * `expected_compile_error: <category>` (conformance-adapter §5.8): compilation, not invocation,
 * fails with this graph-engine §2 compile-error category, before any node body runs. Beside
 * `expected:` at its level (§5.8): the case, an `invocations:` entry or a `resume:` block.
 */
@directive({ name: "expected_compile_error", at: ["case", "invocation"], home: "general", summary: "compilation fails with this category" })
export class ExpectedCompileError {
  readonly schema = { type: "string", minLength: 1 };
  check(value: string, obs: Observation, ctx: CheckContext): void {
    const r = obs.get(F.Result, ctx.locate(ctx.self.path));
    if (r.kind !== "compile_error") {
      ctx.fail(`expected compilation to fail with ${value}, but ${describeResult(r)}`);
      return;
    }
    ctx.match(value, (r.error as { category?: string }).category ?? null, null);
  }
}
