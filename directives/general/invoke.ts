import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";

/**
 * `invoke:` / `invoke_with:` (conformance-adapter §5.7): per-invoke settings of the single
 * invocation (`drain:`, `resume_invocation:`, ...), resolved at the `invoke` position. The two
 * spellings are equivalent.
 */
@directive({ name: /invoke(?:_with)?/, at: "case", home: "general", summary: "per-invoke settings (drain, resume_invocation)" })
export class Invoke {
  readonly schema = { type: "object" };
  async configure(value: Record<string, unknown>, ctx: ConfigureContext): Promise<void> {
    await ctx.configureAll(ctx.resolve("invoke", value, ctx.self.path));
  }
}
