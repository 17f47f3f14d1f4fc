import { directive } from "../../src/conformance/registry.ts";
import { isConfigures, type CheckContext, type ConfigureContext, type Resolved } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";

/**
 * `invariants:` (conformance-adapter §5.9): named boolean predicates, each key resolved at the
 * `invariant` position (canonical predicates and fixture-specific named claims alike). A predicate
 * the adapter does not implement is `fixture_directive_unknown`, never a silent pass.
 */
@directive({ name: "invariants", at: ["case", "expected", "invocation"], home: "general", summary: "named invariant predicates" })
export class Invariants {
  readonly schema = { type: "object", minProperties: 1 };
  /**
   * Resolve the predicates before the run, so an unknown one fails before anything executes, and
   * let a predicate set up what it reads (e.g. the OTel capture a span claim needs).
   */
  async configure(value: Record<string, unknown>, ctx: ConfigureContext): Promise<void> {
    await configurePredicates(ctx.resolve("invariant", value, ctx.self.path), ctx);
  }
  async check(value: Record<string, unknown>, obs: Observation, ctx: CheckContext): Promise<void> {
    await ctx.checkAll(ctx.resolve("invariant", value, ctx.self.path), obs);
  }
}

/** Run the `configure()` of predicates a container checks itself (they are not plan assertions). */
export async function configurePredicates(resolved: ReadonlyArray<Resolved>, ctx: ConfigureContext): Promise<void> {
  for (const r of resolved) if (isConfigures(r.directive)) await r.directive.configure(r.value, { ...ctx, self: r });
}
