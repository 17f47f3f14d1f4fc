import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { MigrationsRun } from "../../../harness/checkpoint/facets.ts";

/**
 * `migration_invocation_count: <n>` (fixture 043; §10.12.2): migration functions were invoked n times in the call's
 * load — once per migrated state (the record's `state` and each `parent_states` entry).
 */
@directive({ name: "migration_invocation_count", at: "invariant", home: "pipeline-utilities" })
export class MigrationInvocationCount {
  readonly schema = { type: "integer", minimum: 0 };
  check(value: number, obs: Observation, ctx: CheckContext): void {
    ctx.match(value, obs.get(MigrationsRun, ctx.locate(ctx.self.path)).length, null);
  }
}
