import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { checkpointCase, migrationMock } from "../../harness/checkpoint/case.ts";

interface MigrationEntry {
  from_version: string;
  to_version: string;
  migrate: string;
}

/**
 * `migrations: [{from_version, to_version, migrate: <mock>}, ...]` (pipeline-utilities note,
 * fixtures 039–047; §10.12.1): the state migrations registered with the case's Checkpointer, each
 * `migrate` a named harness mock (`harness/checkpoint/migration-mocks.ts`; an unknown name is
 * `harness_primitive_missing`). Every application is recorded for `migrations_run`.
 */
@directive({ name: "migrations", at: "case", home: "pipeline-utilities", summary: "state migrations registered for resume" })
export class Migrations {
  readonly schema = {
    type: "array",
    items: {
      type: "object",
      required: ["from_version", "to_version", "migrate"],
      additionalProperties: false,
      properties: { from_version: { type: "string" }, to_version: { type: "string" }, migrate: { type: "string", minLength: 1 } },
    },
  };
  configure(value: MigrationEntry[], ctx: ConfigureContext): void {
    const list = value.map((m, i) => ({ from: m.from_version, to: m.to_version, mock: m.migrate, path: [...ctx.self.path, i, "migrate"] }));
    for (const m of list) migrationMock(m, ctx.locate(m.path)); // an unknown mock fails before anything runs
    checkpointCase(ctx).migrations = list;
  }
}
