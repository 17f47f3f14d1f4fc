/**
 * Session schema migrations (sessions §7), with the chain semantics of checkpoint state migration
 * (pipeline-utilities §10.12) and the sessions §10 categories. (The registry is forked from the
 * checkpoint one, as §7 *Reuse vs fork* permits: the categories and lifecycles differ.)
 *
 * ```ts
 * const migrations = new SessionMigrationRegistry()
 *   .register("v1", "v2", (s) => ({ ...s, tags: [] }))
 *   .register("v2", "v3", ({ name, ...rest }) => ({ ...rest, title: name }));
 * withSessions(graph, { store, projection, migrations });
 * ```
 *
 * - A migration receives the loaded record's state as plain JSON data (a private copy it may
 *   mutate) and returns the state at `toVersion`. Pure and deterministic (documented, not policed).
 *   It may be async.
 * - Chains resolve by version pair, never by registration order: the shortest path (BFS). Registering
 *   a pair twice, or two distinct shortest paths, is `session_state_migration_chain_ambiguous`;
 *   {@link SessionMigrationRegistry.checkUnambiguous} scans every reachable pair (`withSessions`
 *   calls it, so ambiguity surfaces at registration, before any invoke — §13 SHOULD).
 * - No chain: `session_state_migration_missing`. A migration raising (or returning a non-mapping):
 *   `session_state_migration_failed`, and the rest of the chain does not run.
 * - Equal versions never consult the registry (pipeline-utilities §10.12.3).
 */
import type { MaybePromise } from "../graph/index.ts";
import { VersionGraph } from "../migrations/version-graph.ts";
import {
  SessionStateMigrationChainAmbiguousError,
  SessionStateMigrationFailedError,
  SessionStateMigrationMissingError,
} from "./errors.ts";

/** A migration function: state at `fromVersion` → state at `toVersion` (plain JSON data). */
export type SessionMigrationFn = (state: Record<string, unknown>) => MaybePromise<Record<string, unknown>>;

/** One registered session migration (§7). */
export interface SessionMigration {
  readonly fromVersion: string;
  readonly toVersion: string;
  readonly migrate: SessionMigrationFn;
}

/** One applied step, as reported in `migrationsRun`. */
export interface SessionMigrationStep {
  readonly fromVersion: string;
  readonly toVersion: string;
}

/** Build a {@link SessionMigration}. */
export function defineSessionMigration(fromVersion: string, toVersion: string, migrate: SessionMigrationFn): SessionMigration {
  return Object.freeze({ fromVersion, toVersion, migrate });
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The registered session migration set (§7), ordered by `(fromVersion, toVersion)`. */
export class SessionMigrationRegistry {
  readonly #graph = new VersionGraph<SessionMigration>();

  constructor(migrations: Iterable<SessionMigration> = []) {
    for (const m of migrations) this.register(m);
  }

  /** Register a migration; a second one for the same pair is `session_state_migration_chain_ambiguous`. */
  register(migration: SessionMigration): this;
  register(fromVersion: string, toVersion: string, migrate: SessionMigrationFn): this;
  register(a: SessionMigration | string, b?: string, c?: SessionMigrationFn): this {
    const m = typeof a === "string" ? defineSessionMigration(a, b as string, c as SessionMigrationFn) : a;
    if (typeof m !== "object" || m === null) throw new TypeError("a session migration must be an object");
    if (typeof m.fromVersion !== "string") throw new TypeError("fromVersion must be a string");
    if (typeof m.toVersion !== "string") throw new TypeError("toVersion must be a string");
    if (typeof m.migrate !== "function") throw new TypeError("migrate must be a function");
    if (m.fromVersion === m.toVersion) throw new RangeError(`a migration must change the version (got ${JSON.stringify(m.fromVersion)} -> itself)`);
    if (!this.#graph.add(m)) {
      throw new SessionStateMigrationChainAmbiguousError(m.fromVersion, m.toVersion, "this (from_version, to_version) pair is already registered");
    }
    return this;
  }

  /** Number of registered migrations (the §10 `registered_migrations_count`). */
  get size(): number {
    return this.#graph.size;
  }

  /** The registered migrations, ordered by `(fromVersion, toVersion)`. */
  get migrations(): readonly SessionMigration[] {
    return this.#graph.edges;
  }

  /** `"v1" -> "v2", "v2" -> "v3"` or `(none)`: the §10 `registry_description`. */
  describe(): string {
    return this.#graph.describe();
  }

  /**
   * The chain `fromVersion` → `toVersion` (empty when equal). Throws
   * `session_state_migration_chain_ambiguous` or `session_state_migration_missing`.
   */
  resolve(fromVersion: string, toVersion: string, sessionId?: string): readonly SessionMigration[] {
    const r = this.#graph.chain(fromVersion, toVersion);
    if (r.status === "missing") throw new SessionStateMigrationMissingError(fromVersion, toVersion, this.size, this.describe(), sessionId);
    if (r.status === "ambiguous") {
      throw new SessionStateMigrationChainAmbiguousError(fromVersion, toVersion, `more than one shortest chain (${this.describe()})`, sessionId);
    }
    return r.chain;
  }

  /** Throw `session_state_migration_chain_ambiguous` for the first (in version order) pair with two shortest chains. */
  checkUnambiguous(): void {
    const a = this.#graph.firstAmbiguity();
    if (a) throw new SessionStateMigrationChainAmbiguousError(a.from, a.to, `more than one shortest chain (${this.describe()})`);
  }

  /**
   * Apply `chain` to `state` — to a private copy (`structuredClone`) unless `copy: false` says the
   * caller already handed over one. A migration that raises or returns a non-mapping is
   * `session_state_migration_failed`; the following migrations do not run. `onStep` sees each
   * completed step.
   */
  static async apply(
    chain: readonly SessionMigration[],
    state: Readonly<Record<string, unknown>>,
    options: { readonly sessionId?: string; readonly onStep?: (step: SessionMigrationStep) => void; readonly copy?: boolean } = {},
  ): Promise<Record<string, unknown>> {
    const { sessionId, onStep } = options;
    let cur = (options.copy === false ? state : structuredClone(state)) as Record<string, unknown>;
    for (const m of chain) {
      let out: unknown;
      try {
        out = await m.migrate(cur);
      } catch (cause) {
        throw new SessionStateMigrationFailedError(m.fromVersion, m.toVersion, cause, sessionId);
      }
      if (typeof out !== "object" || out === null || Array.isArray(out)) {
        throw new SessionStateMigrationFailedError(
          m.fromVersion,
          m.toVersion,
          new TypeError(`the migration returned ${out === null ? "null" : Array.isArray(out) ? "a list" : typeof out}, not a state mapping`),
          sessionId,
        );
      }
      cur = out as Record<string, unknown>;
      onStep?.(Object.freeze({ fromVersion: m.fromVersion, toVersion: m.toVersion }));
    }
    return cur;
  }
}

/** Accept a registry or a list of migrations. */
export function toSessionMigrationRegistry(m: SessionMigrationRegistry | Iterable<SessionMigration> | undefined): SessionMigrationRegistry {
  if (m instanceof SessionMigrationRegistry) return m;
  return new SessionMigrationRegistry(m ?? []);
}
