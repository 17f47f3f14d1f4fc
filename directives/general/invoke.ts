import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";

/** The plan input recording which spelling configured the call's invoke container. */
const CONTAINER = "invoke container";

/**
 * `invoke:` / `invoke_with:` (conformance-adapter §5.7): per-invoke settings of the single
 * invocation (`drain:`, `resume_invocation:`, ...), resolved at the `invoke` position. The two
 * spellings are equivalent, so a case writing both names its invoke settings twice:
 * `fixture_schema_invalid` (§9: the adapter does not pick one of the two).
 */
@directive({ name: /invoke(?:_with)?/, at: "case", home: "general", summary: "per-invoke settings (drain, resume_invocation)" })
export class Invoke {
  readonly schema = { type: "object" };
  async configure(value: Record<string, unknown>, ctx: ConfigureContext): Promise<void> {
    const first = ctx.plan.input<string>(CONTAINER);
    if (first !== undefined) {
      throw new FixtureSchemaInvalid(
        `the case writes both '${first}' and '${ctx.self.key}', two spellings of one invoke container (§5.7): write one`,
        ctx.locate(ctx.self.path),
      );
    }
    ctx.plan.setInput(CONTAINER, ctx.self.key);
    await ctx.configureAll(ctx.resolve("invoke", value, ctx.self.path));
  }
}
