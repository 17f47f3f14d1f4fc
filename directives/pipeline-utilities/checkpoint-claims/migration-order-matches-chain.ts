import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { settle } from "../../../harness/checkpoint/claims.ts";
import { resumedRecord } from "../../../harness/checkpoint/reading.ts";
import * as F from "../../../harness/graph/facets.ts";
import { MigrationsRun } from "../../../harness/checkpoint/facets.ts";

/**
 * `migration_order_matches_chain` (fixture 040; §10.12.2): the applied migrations form the chain from the
 * record's `schema_version` to the graph's declared one, each link's output the next one's input.
 */
@directive({ name: "migration_order_matches_chain", at: "invariant", home: "pipeline-utilities" })
export class MigrationOrderMatchesChain {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const ran = obs.get(MigrationsRun, ctx.locate(ctx.self.path)).map((m) => m.split("->") as [string, string]);
    const record = resumedRecord(obs);
    const from = typeof record === "string" ? undefined : record.schema_version;
    const to = obs.get(F.RootGraph, ctx.locate(ctx.self.path)).schema.schemaVersion ?? "";
    let reason: string | null = ran.length === 0 ? "no migration ran" : null;
    if (reason === null && ran[0]![0] !== from) reason = `the chain starts at '${ran[0]![0]}', the record is at '${String(from)}'`;
    for (let i = 1; reason === null && i < ran.length; i++) if (ran[i]![0] !== ran[i - 1]![1]) reason = `'${ran[i - 1]!.join("->")}' is followed by '${ran[i]!.join("->")}'`;
    if (reason === null && ran[ran.length - 1]![1] !== to) reason = `the chain ends at '${ran[ran.length - 1]![1]}', the graph declares '${to}'`;
    settle(value, ctx, reason);
  }
}
