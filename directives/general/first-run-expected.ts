import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";

/**
 * `first_run_expected: { ... }` (conformance-adapter §5.6), beside `first_run_expected_error` and
 * `resume:`: assertions on the first run of a resume case, read from that run's call; it takes the
 * directives of an `expected:` block.
 */
@directive({ name: "first_run_expected", at: "case", home: "general", summary: "assertions on a resume case's first run" })
export class FirstRunExpected {
  readonly schema = { type: "object", minProperties: 1 };
  async configure(value: Record<string, unknown>, ctx: ConfigureContext): Promise<void> {
    await ctx.configureAll(ctx.resolve("expected", value, ctx.self.path));
  }
}
