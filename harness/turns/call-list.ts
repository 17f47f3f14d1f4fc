/** The call lists of the turn-harness fixtures (`transmissions:`, `chat_turns:`, `signal_arrivals:`). */
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import type { InvocationPlan } from "../../src/conformance/invocation-plan.ts";
import type { KeyPath } from "../../src/conformance/source.ts";

/**
 * One invocation plan per entry, in order (names unique; `name` / `description` are not
 * directives); each entry's other keys resolve and configure at `position`, then `finish` turns
 * what they configured into the plan's call input.
 */
export async function configureCallList(
  value: ReadonlyArray<Record<string, unknown>>,
  ctx: ConfigureContext,
  position: string,
  what: string,
  finish: (plan: InvocationPlan, path: KeyPath) => void,
): Promise<void> {
  const names = new Set<string>();
  for (const [i, entry] of value.entries()) {
    const path = [...ctx.self.path, i];
    const name = typeof entry.name === "string" ? entry.name : `${what} ${i}`;
    if (names.has(name)) throw new FixtureSchemaInvalid(`${what} name '${name}' is used twice`, ctx.locate([...path, "name"]));
    names.add(name);
    const plan = ctx.newPlan(name, path, "invocation");
    const { name: _n, description: _d, ...rest } = entry;
    await ctx.configureAll(ctx.resolve(position, rest, path), plan);
    finish(plan, path);
  }
}
