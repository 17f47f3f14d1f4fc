/**
 * The sessions fixtures' registration keys (sessions conformance directory; case level): the
 * §4.2 projection, the §6.3 auto-save switch, a pre-seeded record and §7 migrations. Each
 * configures the case's `withSessions(graph, …)` registration (harness/sessions/case.ts).
 */
import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { SessionCase } from "../../harness/sessions/case.ts";
import { persistenceCase } from "../../harness/suspension/case.ts";
import { useGraphExecutor } from "../../harness/graph/use-graph.ts";

const HOME = "sessions";

function sessions(ctx: ConfigureContext) {
  const sc = ctx.slot(SessionCase);
  sc.active = true;
  if (ctx.plan.kind === "case") sc.casePlan ??= ctx.plan;
  persistenceCase(ctx);
  useGraphExecutor(ctx);
  return sc;
}

/** `session_state: {fields: [...]}` — the §4.2 projected SessionState (only these fields persist). */
@directive({ name: "session_state", at: "case", home: HOME, summary: "the projected SessionState fields (§4.2)" })
export class SessionStateDirective {
  readonly schema = {
    type: "object",
    required: ["fields"],
    additionalProperties: false,
    properties: { fields: { type: "array", minItems: 1, uniqueItems: true, items: { type: "string", minLength: 1 } } },
  };
  configure(value: { fields: string[] }, ctx: ConfigureContext): void {
    sessions(ctx).projection = { fields: value.fields, path: ctx.self.path };
  }
}

/** `auto_save: <bool>` — §6.3: `false` registers the store with auto-save off. */
@directive({ name: "auto_save", at: "case", home: HOME, summary: "auto-save at END on/off (§6.3)" })
export class AutoSave {
  readonly schema = { type: "boolean" };
  configure(value: boolean, ctx: ConfigureContext): void {
    sessions(ctx).autoSave = value;
  }
}

/** `seeded_session: {schema_version?, state}` — a record stored under the case's `session_id` before the first call. */
@directive({ name: "seeded_session", at: "case", home: HOME, summary: "a session record stored before the calls" })
export class SeededSession {
  readonly schema = {
    type: "object",
    required: ["state"],
    additionalProperties: false,
    properties: { schema_version: { type: "string" }, state: { type: "object" } },
  };
  configure(value: { schema_version?: string; state: Record<string, unknown> }, ctx: ConfigureContext): void {
    sessions(ctx).seeded = { schemaVersion: value.schema_version, state: value.state, path: ctx.self.path };
  }
}

/** `session_migrations: [{from_version, to_version, migrate: <mock>}]` — §7 migrations, by harness mock name. */
@directive({ name: "session_migrations", at: "case", home: HOME, summary: "registered session migrations (§7)" })
export class SessionMigrations {
  readonly schema = {
    type: "array",
    minItems: 1,
    items: {
      type: "object",
      required: ["from_version", "to_version", "migrate"],
      additionalProperties: false,
      properties: { from_version: { type: "string" }, to_version: { type: "string" }, migrate: { type: "string", minLength: 1 } },
    },
  };
  configure(value: Array<{ from_version: string; to_version: string; migrate: string }>, ctx: ConfigureContext): void {
    const sc = sessions(ctx);
    for (const [i, m] of value.entries()) sc.migrations.push({ from: m.from_version, to: m.to_version, mock: m.migrate, path: [...ctx.self.path, i] });
  }
}
