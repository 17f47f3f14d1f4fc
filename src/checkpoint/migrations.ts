/**
 * State migrations (pipeline-utilities §10.12).
 *
 * A migration turns a saved state at `fromVersion` into one at `toVersion`. Register them on a
 * {@link MigrationRegistry} (or pass a list to `withCheckpointer(..., { migrations })`); when a
 * loaded record's `schemaVersion` differs from the graph's declared `schemaVersion`, the
 * shortest chain of migrations between the two is applied to the record's `state` and to every
 * `parentStates` entry (parents are treated as carrying the record's version, §10.12.2).
 *
 * ```ts
 * const migrations = new MigrationRegistry()
 *   .register("v1", "v2", (s) => ({ ...s, tags: [] }))
 *   .register("v2", "v3", ({ name, ...rest }) => ({ ...rest, title: name }));
 * const runner = withCheckpointer(graph, checkpointer, { migrations });
 * ```
 *
 * - Input is plain data independent of the current state schema (what the backend decoded), a
 *   private copy the migration may mutate; output must be a mapping. Migrations must be pure and
 *   deterministic (documented, not enforced — §10.12.2). They may be async.
 * - Chains resolve by version pair, never by registration order: shortest path (fewest
 *   migrations) by BFS. Two shortest paths between one pair is
 *   `checkpoint_state_migration_chain_ambiguous`, as is registering a `(from, to)` pair twice
 *   (at registration). {@link MigrationRegistry.checkUnambiguous} scans every reachable pair
 *   (`withCheckpointer` calls it, so ambiguity surfaces before any resume).
 * - No chain: `checkpoint_state_migration_missing` (carries both versions, the registered count
 *   and a description of the registry). A migration raising: `checkpoint_state_migration_failed`
 *   (the rest of the chain does not run). A migrated state the current schema rejects:
 *   `checkpoint_record_invalid` (§10.12.4).
 * - Equal versions never consult the registry (§10.12.3).
 */
import type { MaybePromise } from "../graph/index.ts";
import { VersionGraph } from "../migrations/version-graph.ts";
import {
  CheckpointRecordInvalidError,
  CheckpointStateMigrationChainAmbiguousError,
  CheckpointStateMigrationFailedError,
  CheckpointStateMigrationMissingError,
} from "./errors.ts";

/** A state in its serialized, schema-independent form (§10.12.1). */
export type SerializedState = Record<string, unknown>;

/** A migration function: state at `fromVersion` → state at `toVersion`. */
export type MigrationFn = (state: SerializedState) => MaybePromise<SerializedState>;

/** One registered migration (§10.12.1). */
export interface StateMigration {
  readonly fromVersion: string;
  readonly toVersion: string;
  readonly migrate: MigrationFn;
}

/** Build a {@link StateMigration}. */
export function defineMigration(fromVersion: string, toVersion: string, migrate: MigrationFn): StateMigration {
  return Object.freeze({ fromVersion, toVersion, migrate });
}

function checkVersion(v: unknown, what: string): asserts v is string {
  if (typeof v !== "string") throw new TypeError(`${what} must be a string`);
}

/** The registered migration set of a graph (§10.12.1), ordered by `(fromVersion, toVersion)`. */
export class MigrationRegistry {
  readonly #graph = new VersionGraph<StateMigration>();

  constructor(migrations: Iterable<StateMigration> = []) {
    for (const m of migrations) this.register(m);
  }

  /**
   * Register a migration. Registering a second migration for the same `(fromVersion, toVersion)`
   * pair throws `checkpoint_state_migration_chain_ambiguous` (§10.12.1).
   */
  register(migration: StateMigration): this;
  register(fromVersion: string, toVersion: string, migrate: MigrationFn): this;
  register(a: StateMigration | string, b?: string, c?: MigrationFn): this {
    const m: StateMigration = typeof a === "string" ? defineMigration(a, b as string, c as MigrationFn) : a;
    checkVersion(m.fromVersion, "fromVersion");
    checkVersion(m.toVersion, "toVersion");
    if (typeof m.migrate !== "function") throw new TypeError("migrate must be a function");
    if (m.fromVersion === m.toVersion) throw new RangeError(`a migration must change the version (got "${m.fromVersion}" -> itself)`);
    if (!this.#graph.add(m)) {
      throw new CheckpointStateMigrationChainAmbiguousError(
        m.fromVersion,
        m.toVersion,
        `a migration "${m.fromVersion}" -> "${m.toVersion}" is already registered`,
      );
    }
    return this;
  }

  /** Number of registered migrations. */
  get size(): number {
    return this.#graph.size;
  }

  /** The registered migrations, ordered by `(fromVersion, toVersion)`. */
  get migrations(): readonly StateMigration[] {
    return this.#graph.edges;
  }

  /** `"v1" -> "v2", "v2" -> "v3"` (or `(none)`): the §10.10 `registry_description`. */
  describe(): string {
    return this.#graph.describe();
  }

  /**
   * The chain from `fromVersion` to `toVersion` (empty when equal). Throws
   * `checkpoint_state_migration_chain_ambiguous` (two shortest paths) or
   * `checkpoint_state_migration_missing` (no path).
   */
  resolve(fromVersion: string, toVersion: string): readonly StateMigration[] {
    const r = this.#graph.chain(fromVersion, toVersion);
    if (r.status === "missing") throw new CheckpointStateMigrationMissingError(fromVersion, toVersion, this.size, this.describe());
    if (r.status === "ambiguous") {
      throw new CheckpointStateMigrationChainAmbiguousError(
        fromVersion,
        toVersion,
        `more than one shortest migration chain; restructure the registry (${this.describe()})`,
      );
    }
    return r.chain;
  }

  /**
   * Scan every reachable version pair; throw `checkpoint_state_migration_chain_ambiguous` for the
   * first one (in version order) with two shortest chains (§10.12.2 compile-time detection).
   */
  checkUnambiguous(): void {
    const a = this.#graph.firstAmbiguity();
    if (a) {
      throw new CheckpointStateMigrationChainAmbiguousError(a.from, a.to, `more than one shortest migration chain; restructure the registry (${this.describe()})`);
    }
  }

  /**
   * Apply `chain` to `state` (a private copy is made first). A raising migration becomes
   * `checkpoint_state_migration_failed` (later migrations do not run); a non-mapping result is
   * `checkpoint_record_invalid`.
   */
  static async apply(chain: readonly StateMigration[], state: SerializedState): Promise<SerializedState> {
    if (chain.length === 0) return state;
    let cur: SerializedState;
    try {
      cur = structuredClone(state);
    } catch (cause) {
      throw new CheckpointRecordInvalidError("the saved state cannot be copied for migration", { cause });
    }
    for (const m of chain) {
      let out: unknown;
      try {
        out = await m.migrate(cur);
      } catch (cause) {
        throw new CheckpointStateMigrationFailedError(m.fromVersion, m.toVersion, cause);
      }
      if (typeof out !== "object" || out === null || Array.isArray(out)) {
        throw new CheckpointRecordInvalidError(`migration "${m.fromVersion}" -> "${m.toVersion}" did not return a state mapping`);
      }
      cur = out as SerializedState;
    }
    return cur;
  }
}

/** Accept a registry or a list of migrations. */
export function toRegistry(m: MigrationRegistry | Iterable<StateMigration> | undefined): MigrationRegistry {
  if (m instanceof MigrationRegistry) return m;
  return new MigrationRegistry(m ?? []);
}
