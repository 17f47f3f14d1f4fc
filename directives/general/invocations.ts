import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import type { KeyPath } from "../../src/conformance/source.ts";

/** Configure each entry of an invocation list at `at` into its own plan (its keys at the `invocation` position). */
export async function configureInvocations(value: ReadonlyArray<Record<string, unknown>>, at: KeyPath, ctx: ConfigureContext): Promise<void> {
  const names = new Set<string>();
  for (const [i, entry] of value.entries()) {
    const path = [...at, i];
    const name = typeof entry.name === "string" ? entry.name : `invocation ${i}`;
    if (names.has(name)) throw new FixtureSchemaInvalid(`invocation name '${name}' is used twice`, ctx.locate([...path, "name"]));
    names.add(name);
    const plan = ctx.newPlan(name, path, "invocation");
    const { name: _name, description: _d, ...rest } = entry;
    await ctx.configureAll(ctx.resolve("invocation", rest, path), plan);
  }
}

/**
 * `invocations:` (conformance-adapter §4.3, §5.7): sequential invoke() calls against one compiled
 * graph and shared backends. Each entry's keys are resolved at the `invocation` position into its
 * own plan; its `expected:` reads that call alone.
 */
@directive({ name: "invocations", at: "case", home: "general", summary: "sequential invocations sharing one graph and backends" })
export class Invocations {
  readonly schema = {
    type: "array",
    description: "invocations is a list of invocation entries (conformance-adapter §4.3); to run the graph N times write run_count: N (§5.7)",
    minItems: 1,
    items: { type: "object" },
  };
  async configure(value: Array<Record<string, unknown>>, ctx: ConfigureContext): Promise<void> {
    await configureInvocations(value, ctx.self.path, ctx);
  }
}
