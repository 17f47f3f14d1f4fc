/**
 * The SessionStore a sessions case registers (`session_store: in_memory`). By default the
 * library's `InMemorySessionStore`; with the environment variable {@link SESSION_BACKEND_ENV} set
 * to `sqlite` or `postgres`, the library's `SqliteSessionStore` (a private `:memory:` database) or
 * `PostgresSessionStore` (a fresh table on the server of `harness/postgres-server.ts`) instead —
 * every store counts its calls (§6.2) the same way. `test/checkpoint/fixtures-both-backends.test.ts`
 * runs every sessions fixture on each and compares the results.
 */
import { HarnessPrimitiveMissing, type FixtureLocation } from "../../src/conformance/errors.ts";
import { PostgresSessionStore } from "../../src/postgres/index.ts";
import { InMemorySessionStore, SqliteSessionStore, type SessionStore, type SessionStoreStats } from "../../src/sessions/index.ts";
import { freshTable, sharedPool } from "../postgres-server.ts";

/** The environment variable selecting the session store behind `session_store: in_memory`. */
export const SESSION_BACKEND_ENV = "OA_SESSION_BACKEND";

const KINDS = ["in_memory", "sqlite", "postgres"] as const;

/** A store that counts its calls. */
export type CountingSessionStore = SessionStore & { stats(): SessionStoreStats; resetStats(): void };

/** How many stores of each kind this process opened (tests check the override took effect). */
export const openedSessionStores: Record<(typeof KINDS)[number], number> = { in_memory: 0, sqlite: 0, postgres: 0 };

/** Open the store for a case (see the module comment). */
export function openSessionStore(where: FixtureLocation): CountingSessionStore {
  const kind = process.env[SESSION_BACKEND_ENV] || "in_memory";
  if (!(KINDS as readonly string[]).includes(kind)) {
    throw new HarnessPrimitiveMissing(`${SESSION_BACKEND_ENV}=${kind}`, `${SESSION_BACKEND_ENV} must be one of ${KINDS.join(", ")}`, where);
  }
  openedSessionStores[kind as (typeof KINDS)[number]]++;
  if (kind === "sqlite") return new SqliteSessionStore(":memory:");
  if (kind === "postgres") return new PostgresSessionStore(sharedPool(), { table: freshTable("conf_ss") });
  return new InMemorySessionStore();
}
