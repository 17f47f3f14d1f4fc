import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { MigrationsRun } from "../../harness/checkpoint/facets.ts";
import * as F from "../../harness/graph/facets.ts";

/**
 * `migrations_run: ["<from>-><to>", ...]` (conformance-adapter §5.6), under `expected:`: every
 * application of a migration function during the load the call performed, repeats included (a
 * migration that raised counts). Complete; a multiset across the record's `state` and its
 * `parent_states` entries, and in order within each entry's chain (§8.4's directive-specific
 * comparison): the written list must be an interleaving of the chains the call applied. A call
 * that never started because registration or compilation raised (§5.8 `raised_at: registration`,
 * e.g. an ambiguous registry detected at build time, pipeline-utilities §10.12.2) performed no
 * load, so it applied none.
 */
@directive({ name: "migrations_run", at: "expected", home: "general", summary: "migration applications during the call's load" })
export class MigrationsRunAssertion {
  readonly scope = "call" as const;
  readonly schema = { type: "array", items: { type: "string", pattern: "^.+->.+$" } };
  check(value: string[], obs: Observation, ctx: CheckContext): void {
    const ran = obs.tryGet(F.Result)?.kind === "compile_error" ? [] : obs.get(MigrationsRun, ctx.locate(ctx.self.path));
    ctx.match(value, ran, Shapes.list("unordered"));
    // Per-entry order: split the applications into chains (each starts where a state's chain starts).
    const start = ran[0]?.split("->")[0];
    const chains: string[][] = [];
    for (const m of ran) {
      if (m.split("->")[0] === start || chains.length === 0) chains.push([m]);
      else chains[chains.length - 1]!.push(m);
    }
    const at = chains.map(() => 0);
    for (const [i, m] of value.entries()) {
      const c = chains.findIndex((ch, k) => ch[at[k]!] === m);
      if (c < 0) {
        if (ran.includes(m)) ctx.fail(`${ctx.label}[${i}]: '${m}' is out of chain order (the call applied ${JSON.stringify(chains)})`, { expected: value, actual: ran });
        return;
      }
      at[c] = at[c]! + 1;
    }
  }
}
