import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";

/**
 * `expected:` (conformance-adapter §5.8): the block of bare-named assertions. Its keys are
 * resolved at the `expected` position and checked against the call(s) the block reads (§8.4).
 */
@directive({ name: "expected", at: ["case", "invocation"], home: "general", summary: "block of assertions on the call it belongs to" })
export class Expected {
  readonly schema = { type: "object" };
  async configure(value: Record<string, unknown>, ctx: ConfigureContext): Promise<void> {
    await ctx.configureAll(ctx.resolve("expected", value, ctx.self.path));
  }
}
