/**
 * The sessions harness of one graph case (conformance-adapter §5.6, §5.7, §6.2; sessions §3–§10):
 * the case's session directives describe the registration at configure time — `session_store`,
 * `session_state` (the §4.2 projection), `auto_save`, `seeded_session`, `session_migrations`, the
 * case- or invocation-level `session_id` — and the persistence runner (`harness/suspension/case.ts`)
 * calls the real `withSessions(graph, …).invoke(initial, { sessionId })` for every call.
 *
 * The store is the library's `InMemorySessionStore` (§6.2: it counts its calls), or — with
 * `OA_SESSION_BACKEND` — the SQLite or Postgres store (`backends.ts`), which count theirs alike. Around each call
 * the harness zeroes the counters, snapshots the store, and records what the store saw and holds
 * afterwards, plus the library's own report (loaded session state, saved session, migrations), as
 * the {@link SessionCallFacet}. Migration mocks record every application (a raising one included)
 * into the `MigrationsRun` facet the general `migrations_run` assertion reads.
 */
import { SlotKey } from "../../src/conformance/directive.ts";
import { FixtureSchemaInvalid, HarnessPrimitiveMissing, type FixtureLocation } from "../../src/conformance/errors.ts";
import type { InvocationPlan } from "../../src/conformance/invocation-plan.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import type { CompiledGraph, InvocationResult, StateRecord } from "../../src/graph/index.ts";
import {
  InMemorySessionStore,
  SessionMigrationRegistry,
  withSessions,
  type SessionBoundGraph,
  type SessionRecord,
  type SessionStoreStats,
} from "../../src/sessions/index.ts";
import { MigrationsRun } from "../checkpoint/facets.ts";
import { openSessionStore, type CountingSessionStore } from "./backends.ts";
import { KeyError } from "../checkpoint/migration-mocks.ts";
import type { CallContext } from "../graph/extensions.ts";
import { perCall } from "../pipeline/facets.ts";
import { ExplicitSaves, SessionCallFacet } from "./facets.ts";

/** Plan input: `session_id` (case- or invocation-level). */
export const SESSION_ID = "session_id";

/** The session migration mocks the sessions fixtures name (`session_migrations[].migrate`). */
export const SESSION_MIGRATION_MOCKS: Readonly<Record<string, (s: Record<string, unknown>) => Record<string, unknown>>> = {
  /** 007: `value' = value + 10`. */
  add_ten_to_value: (s) => ({ ...s, value: (typeof s["value"] === "number" ? s["value"] : 0) + 10 }),
  /** 013: raises a KeyError mid-execution (Python's, by name). */
  raises_keyerror: () => {
    throw new KeyError("'legacy_key'");
  },
};

const NO_STATS: SessionStoreStats = Object.freeze({ load: 0, save: 0, delete: 0, list: 0 });

export interface DeclaredSessionMigration {
  readonly from: string;
  readonly to: string;
  readonly mock: string;
  readonly path: KeyPath;
}

export class SessionCaseState {
  /** Some session directive appeared: every call goes through `withSessions`. */
  active = false;
  store: { readonly name: string; readonly path: KeyPath } | undefined;
  projection: { readonly fields: readonly string[]; readonly path: KeyPath } | undefined;
  autoSave = true;
  seeded: { readonly schemaVersion: string | undefined; readonly state: Readonly<Record<string, unknown>>; readonly path: KeyPath } | undefined;
  migrations: DeclaredSessionMigration[] = [];
  casePlan: InvocationPlan | undefined;

  #store: CountingSessionStore | undefined;
  #bound: SessionBoundGraph<StateRecord, unknown, StateRecord> | undefined;
  #graph: CompiledGraph | undefined;
  #current: CallContext | undefined;
  #before: Map<string, SessionRecord> = new Map();
  #locate: ((p: KeyPath) => FixtureLocation) | undefined;

  setLocator(locate: (p: KeyPath) => FixtureLocation): void {
    this.#locate ??= locate;
  }

  /** The session id the call is bound to: the invocation's, else the case's. */
  sessionIdOf(plan: InvocationPlan): string | undefined {
    return plan.input<string>(SESSION_ID) ?? this.casePlan?.input<string>(SESSION_ID);
  }

  /** The registered store (after set-up), if any. */
  get registeredStore(): CountingSessionStore | undefined {
    return this.#store;
  }

  /** Open the store, seed it and bind the graph to it with its migrations (before the first call). */
  async setUp(root: CompiledGraph): Promise<void> {
    this.#graph = root;
    if (this.store !== undefined) {
      if (this.store.name !== "in_memory") {
        throw new HarnessPrimitiveMissing(`session_store: ${this.store.name}`, `this adapter provides the in_memory SessionStore only`, this.#where(this.store.path));
      }
      this.#store = openSessionStore(this.#where(this.store.path));
    }
    if (this.seeded !== undefined) {
      if (this.#store === undefined) throw new FixtureSchemaInvalid("'seeded_session' needs a 'session_store' to hold it", this.#where(this.seeded.path));
      const id = this.casePlan?.input<string>(SESSION_ID);
      if (id === undefined) throw new FixtureSchemaInvalid("'seeded_session' needs a case-level 'session_id' to seed under", this.#where(this.seeded.path));
      await this.#store.save(id, { state: structuredClone(this.seeded.state), ...(this.seeded.schemaVersion !== undefined ? { schemaVersion: this.seeded.schemaVersion } : {}) });
    }
    // Register the store and the migration registry now, before the first invoke(): an error they
    // raise (a duplicate migration pair, sessions §7) is a registration-time error (§5.8 raised_at).
    this.bound(root);
  }

  /** The session-bound graph (built once, on the case's compiled graph). */
  bound(graph: CompiledGraph): SessionBoundGraph<StateRecord, unknown, StateRecord> {
    if (this.#bound !== undefined && this.#graph === graph) return this.#bound;
    const registry = new SessionMigrationRegistry();
    for (const m of this.migrations) {
      const fn = SESSION_MIGRATION_MOCKS[m.mock];
      if (fn === undefined) {
        throw new HarnessPrimitiveMissing(`session migration mock: ${m.mock}`, `this adapter has no session migration mock named '${m.mock}' (it has ${Object.keys(SESSION_MIGRATION_MOCKS).join(", ")})`, this.#where(m.path));
      }
      registry.register(m.from, m.to, (s) => {
        const call = this.#current?.observation;
        if (call) perCall(call, MigrationsRun, () => []).push(`${m.from}->${m.to}`);
        return fn(s);
      });
    }
    const projection = this.projection !== undefined ? { fields: this.projection.fields as string[] } : ("full" as const);
    this.#bound = withSessions(graph as CompiledGraph<StateRecord, unknown>, {
      store: this.#store ?? null,
      projection,
      autoSave: this.autoSave,
      migrations: registry,
    }) as unknown as SessionBoundGraph<StateRecord, unknown, StateRecord>;
    this.#graph = graph;
    return this.#bound;
  }

  async #snapshot(): Promise<Map<string, SessionRecord>> {
    const out = new Map<string, SessionRecord>();
    const s = this.#store;
    if (s === undefined) return out;
    for (const sum of await s.list()) {
      const r = await s.load(sum.sessionId);
      if (r) out.set(sum.sessionId, r);
    }
    return out;
  }

  async beforeCall(c: CallContext): Promise<void> {
    this.#current = c;
    c.observation.set(MigrationsRun, []).set(ExplicitSaves, []);
    this.#before = await this.#snapshot();
    this.#store?.resetStats();
  }

  async afterCall(c: CallContext, result: InvocationResult | Error): Promise<void> {
    const stats = this.#store?.stats() ?? NO_STATS;
    const sessionId = this.sessionIdOf(c.plan);
    const recordAfter = this.#store !== undefined && sessionId !== undefined ? await this.#store.load(sessionId) : null;
    const after = await this.#snapshot();
    const r = result instanceof Error ? undefined : (result as InvocationResult & Partial<Record<string, unknown>>);
    c.observation.set(SessionCallFacet, {
      sessionId,
      storeRegistered: this.#store !== undefined,
      reported:
        r === undefined
          ? undefined
          : {
              loadedSessionState: (r["loadedSessionState"] as Readonly<Record<string, unknown>> | null | undefined) ?? null,
              loadedRecord: (r["loadedRecord"] as SessionRecord | null | undefined) ?? null,
              savedSession: (r["savedSession"] as NonNullable<SessionCallFacetReported>["savedSession"] | undefined) ?? null,
            },
      stats,
      recordAfter,
      storeBefore: this.#before,
      storeAfter: after,
      explicitSaves: [...(c.observation.tryGet(ExplicitSaves) ?? [])],
    });
    this.#store?.resetStats();
    this.#current = undefined;
  }

  #where(path: KeyPath): FixtureLocation {
    return this.#locate!(path);
  }
}

type SessionCallFacetReported = import("./facets.ts").SessionCall["reported"];

export const SessionCase = new SlotKey<SessionCaseState>("sessions case", () => new SessionCaseState());
