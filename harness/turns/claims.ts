/**
 * Named claims of the harness / harness-chat fixtures (conformance-adapter §5 *Named claims*, §5.9):
 * booleans whose meaning the fixture prose gives, each checked against the turns of its block.
 * {@link turnClaim} registers one: its test returns `null` when the claim holds, else why not.
 */
import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { claim } from "../suspension/claims.ts";
import { turnsOf, type TurnView } from "./reading.ts";

export type ClaimTest = (turns: readonly TurnView[], groups: Readonly<Record<string, string>>) => string | null;

function pascal(name: string): string {
  return name.replace(/(^|_)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase()).replace(/[^A-Za-z0-9]/g, "");
}

/** Register the claim `name` (a string or a pattern family) for `home`. */
export function turnClaim(home: string, name: string | RegExp, summary: string, test: ClaimTest): void {
  const cls = class {
    readonly schema = { type: "boolean" } as const;
    check(value: boolean, obs: Observation, ctx: CheckContext): void {
      const turns = turnsOf(obs);
      const why = turns.length === 0 ? "the block holds no harness turn" : test(turns, ctx.self.groups);
      claim(ctx, value, why === null, () => why ?? "");
    }
  };
  Object.defineProperty(cls, "name", { value: typeof name === "string" ? pascal(name) : `${pascal(home)}ClaimFamily${summary.length}` });
  directive({ name, at: "invariant", home, summary, section: "conformance-adapter §5.9" })(cls);
}

/** `null` when every turn `pick` selects satisfies `ok` (and at least one is selected), else the first failure. */
export function every(turns: readonly TurnView[], pick: (t: TurnView) => boolean, what: string, ok: (t: TurnView) => string | null): string | null {
  const picked = turns.filter(pick);
  if (picked.length === 0) return `no ${what} in the block`;
  for (const t of picked) {
    const why = ok(t);
    if (why !== null) return `${t.obs.label ?? "a call"}: ${why}`;
  }
  return null;
}

export function show(v: unknown): string {
  return JSON.stringify(v) ?? String(v);
}
