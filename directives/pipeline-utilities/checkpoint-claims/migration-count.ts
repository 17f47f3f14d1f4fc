import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { MigrationsRun } from "../../../harness/checkpoint/facets.ts";

/**
 * `migration_count: <n>` (fixture 040; §10.12.2): the call's load applied n migrations.
 */
@directive({ name: "migration_count", at: "invariant", home: "pipeline-utilities" })
export class MigrationCount {
  readonly schema = { type: "integer", minimum: 0 };
  check(value: number, obs: Observation, ctx: CheckContext): void {
    ctx.match(value, obs.get(MigrationsRun, ctx.locate(ctx.self.path)).length, null);
  }
}
