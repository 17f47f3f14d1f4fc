import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { settle } from "../../../harness/checkpoint/claims.ts";
import { MigrationsRun } from "../../../harness/checkpoint/facets.ts";

/**
 * `single_migration_invocation` (fixture 039; §10.12.2): the call's load applied exactly one migration, once.
 */
@directive({ name: "single_migration_invocation", at: "invariant", home: "pipeline-utilities" })
export class SingleMigrationInvocation {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const ran = obs.get(MigrationsRun, ctx.locate(ctx.self.path));
    settle(value, ctx, ran.length === 1 ? null : `the load applied ${ran.length} migration(s): ${JSON.stringify(ran)}`);
  }
}
