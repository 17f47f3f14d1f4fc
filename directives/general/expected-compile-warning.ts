import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import * as F from "../../harness/graph/facets.ts";
import { describeResult } from "../../harness/graph/reading.ts";

/**
 * `expected_compile_warning: <category> | [<category>, ...]` (conformance-adapter §5.8):
 * compilation succeeds and emits compile-time warnings. A scalar asserts the warning is among
 * those emitted; a list is the exhaustive set (order and repeats do not count; `[]`: none).
 * Beside `expected:` at its level (§5.8): the case, an `invocations:` entry or a `resume:` block
 * (whose keys resolve at the invocation position) — compilation is the case's, so every call reads it.
 */
@directive({ name: "expected_compile_warning", at: ["case", "invocation"], home: "general", summary: "compile warnings emitted" })
export class ExpectedCompileWarning {
  readonly schema = { oneOf: [{ type: "string", minLength: 1 }, { type: "array", items: { type: "string" } }] };
  check(value: string | string[], obs: Observation, ctx: CheckContext): void {
    const r = obs.get(F.Result, ctx.locate(ctx.self.path));
    if (r.kind === "compile_error") {
      ctx.fail(`expected compilation to succeed with warnings, but ${describeResult(r)}`);
      return;
    }
    const seen = obs.get(F.CompileWarnings, ctx.locate(ctx.self.path)).map((w) => w.category as string);
    if (typeof value === "string") {
      if (!seen.includes(value)) ctx.fail(`expected warning ${value} among [${seen.join(", ")}]`, { expected: value, actual: seen });
      return;
    }
    ctx.match(value, [...new Set(seen)], Shapes.list("set"));
  }
}
