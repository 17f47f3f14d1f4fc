/**
 * Session-aware invocation (sessions §3, §6, §7, §8, §9): {@link withSessions} wraps a compiled graph
 * so `invoke(initial, { sessionId })`
 *
 * 1. binds `sessionId` to the invocation's async context (§3; {@link currentSessionId});
 * 2. when a store is registered: `load(sessionId)` (§6.1; a raising load is `session_load_failed`
 *    and the graph does not run), migrates the record to the current schema version (§7), and
 *    merges the §4 inbound projection into the initial state — the loaded session state is the
 *    base and the caller's `initial` fields are merged over it through the state's reducers (an
 *    `append` history grows, a last-write-wins field supplied by the caller wins). No record: the
 *    supplied initial state proceeds unchanged;
 * 3. runs the graph;
 * 4. auto-saves (§6.1, unless `autoSave: false`, §6.3) the §4 outbound projection of the final state
 *    when END is reached — a failing save is a post-completion `session_save_failed` carrying the
 *    committed `result` — and of the outermost state at suspension (suspension §8.6; a failing save
 *    there is `suspension_persistence_failed` and the invocation is errored). An errored invocation
 *    saves nothing (mid-invoke saves already made stay committed).
 *
 * Without `sessionId` the store is never called (§3); without a store, `sessionId` only
 * propagates. Subgraphs, fan-out instances and parallel branches never see session state except
 * through the outer graph's own projections (§9): the session is bound to the outermost graph only.
 *
 * ```ts
 * const chat = withSessions(graph, { store: new SqliteSessionStore("sessions.db"), projection: { fields: ["history"] } });
 * await chat.invoke({ history: ["hi"] }, { sessionId: "user-42" });
 * const turn2 = await chat.invoke({ history: ["more"] }, { sessionId: "user-42" });
 * turn2.loadedSessionState; // { history: [...turn 1's history] }
 * ```
 */
import { randomUUID } from "node:crypto";
import {
  currentNodeContext,
  type CompiledGraph,
  type InvocationResult,
  type InvokeOptions,
  type StateRecord,
  type StateSchema,
} from "../graph/index.ts";
import { sessionStorage, type MidInvokeSaveOptions, type SessionBinding, type SessionSaveReport } from "./context.ts";
import {
  SessionError,
  SessionLoadFailedError,
  SessionSaveFailedError,
  SessionWriteConflictError,
  SuspensionPersistenceFailedError,
  type SessionSavePoint,
} from "./errors.ts";
import {
  SessionMigrationRegistry,
  toSessionMigrationRegistry,
  type SessionMigration,
  type SessionMigrationStep,
} from "./migrations.ts";
import { mergeThroughReducers, ResolvedSessionProjection, type SessionProjection, type SessionStateOf } from "./projection.ts";
import { checkSessionId, type SessionRecord, type SessionSaveResult } from "./record.ts";
import type { SessionSaveOptions, SessionStore } from "./session-store.ts";

/** Options of {@link withSessions} (the §6 "builder registration"). */
export interface SessionOptions<S extends StateRecord, P extends SessionProjection<S> = SessionProjection<S>> {
  /** The §5 store. Omitted / `null`: `sessionId` still propagates (§3) but nothing is loaded or saved. */
  readonly store?: SessionStore | null;
  /** §4: `"full"` (§4.1) or `{ fields, map }` (§4.2). Required — see `projection.ts`. */
  readonly projection: P;
  /** §6.3: `false` disables every automatic save (at END and at suspend). Default `true`. */
  readonly autoSave?: boolean;
  /** suspension §8.6: save the session when the invocation suspends (when `autoSave`). Default `true`. */
  readonly saveOnSuspend?: boolean;
  /** §7 session migrations (a registry or a list). Checked for ambiguity here. */
  readonly migrations?: SessionMigrationRegistry | Iterable<SessionMigration>;
  /** The current session schema version (§7). Default: the graph state schema's `schemaVersion`, else `""`. */
  readonly schemaVersion?: string;
  /**
   * §8: `"last-write-wins"` (default, §8.1) or `"optimistic"` (§8.2): every save of an invocation
   * passes `expectedVersion` = the version it loaded (then the version it last wrote), so a
   * concurrent writer makes the save raise `session_write_conflict`. The engine never retries.
   */
  readonly concurrency?: "last-write-wins" | "optimistic";
}

/** `invoke()` options of a session-bound graph: the engine's, plus `sessionId` (§3). */
export interface SessionInvokeOptions extends InvokeOptions {
  /** The caller-supplied session identity. Omitted: the session machinery stays inert (§3). */
  readonly sessionId?: string;
}

/** What a session-bound invocation adds to the engine's outcome. */
export interface SessionInvocationInfo<SS> {
  /** The bound session id (`undefined` when none was supplied). */
  readonly sessionId: string | undefined;
  /** The session state loaded at entry (post-migration, restricted to the session fields), or `null` (no record / not loaded). */
  readonly loadedSessionState: Readonly<Partial<SS>> | null;
  /** The raw record `load()` returned (pre-migration), or `null`. */
  readonly loadedRecord: SessionRecord | null;
  /** §7 migrations applied at entry, in order. */
  readonly migrationsRun: readonly SessionMigrationStep[];
  /** What the automatic save wrote (`null` when none ran). */
  readonly savedSession: SessionSaveReport<SS> | null;
}

/** A completed or suspended outcome of a session-bound invocation (errors reject). */
export type SessionInvocationResult<S extends StateRecord, SS> = InvocationResult<S> & SessionInvocationInfo<SS>;

/** A loaded, migrated session (`SessionBoundGraph.load`). */
export interface LoadedSession<SS> {
  readonly record: SessionRecord;
  /** Post-migration, restricted to the session fields. */
  readonly state: Readonly<Partial<SS>>;
  readonly schemaVersion: string;
  readonly migrationsRun: readonly SessionMigrationStep[];
}

interface Loaded {
  readonly record: SessionRecord;
  readonly data: Record<string, unknown>;
  readonly migrationsRun: readonly SessionMigrationStep[];
}

const NO_STEPS: readonly SessionMigrationStep[] = Object.freeze([]);

function isMapping(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A compiled graph with sessions registered (see the module comment). */
export class SessionBoundGraph<S extends StateRecord = StateRecord, U = Partial<S>, SS = S> {
  readonly graph: CompiledGraph<S, U>;
  readonly store: SessionStore | null;
  readonly projection: ResolvedSessionProjection;
  readonly autoSave: boolean;
  readonly saveOnSuspend: boolean;
  readonly migrations: SessionMigrationRegistry;
  /** The current session schema version (§7), written on every save. */
  readonly schemaVersion: string;
  readonly concurrency: "last-write-wins" | "optimistic";

  constructor(graph: CompiledGraph<S, U>, options: SessionOptions<S, SessionProjection<S>>) {
    if (typeof options !== "object" || options === null) throw new TypeError("withSessions: options are required");
    const store = options.store ?? null;
    if (store !== null && (typeof store.load !== "function" || typeof store.save !== "function")) {
      throw new TypeError("withSessions: store must implement the SessionStore protocol (load / save / delete / list)");
    }
    if (options.projection === undefined) {
      throw new TypeError('withSessions: declare a projection — { fields: [...] } (§4.2) or "full" (§4.1)');
    }
    if (options.concurrency !== undefined && options.concurrency !== "last-write-wins" && options.concurrency !== "optimistic") {
      throw new RangeError('concurrency must be "last-write-wins" or "optimistic"');
    }
    const version = options.schemaVersion ?? graph.schema.schemaVersion ?? "";
    if (typeof version !== "string") throw new TypeError("schemaVersion must be a string");
    this.graph = graph;
    this.store = store;
    this.projection = new ResolvedSessionProjection(
      options.projection as SessionProjection<StateRecord>,
      graph.schema as unknown as StateSchema<StateRecord, unknown>,
    );
    this.autoSave = options.autoSave ?? true;
    this.saveOnSuspend = options.saveOnSuspend ?? true;
    this.migrations = toSessionMigrationRegistry(options.migrations);
    this.migrations.checkUnambiguous();
    this.schemaVersion = version;
    this.concurrency = options.concurrency ?? "last-write-wins";
    Object.freeze(this);
  }

  get #schema(): StateSchema<StateRecord, unknown> {
    return this.graph.schema as unknown as StateSchema<StateRecord, unknown>;
  }

  #requireStore(what: string): SessionStore {
    if (this.store === null) throw new TypeError(`${what}: no SessionStore is registered`);
    return this.store;
  }

  /** load → validate → migrate (§6.1, §7). */
  async #load(store: SessionStore, sessionId: string): Promise<Loaded | null> {
    let record: SessionRecord | null;
    try {
      record = await store.load(sessionId);
    } catch (cause) {
      throw new SessionLoadFailedError(sessionId, cause);
    }
    if (record === null || record === undefined) return null;
    if (!isMapping(record) || !isMapping(record.state)) {
      throw new SessionLoadFailedError(sessionId, new TypeError("SessionStore.load() returned something that is not a session record"));
    }
    const from = record.schemaVersion ?? "";
    if (typeof from !== "string") {
      throw new SessionLoadFailedError(sessionId, new TypeError("the loaded record's schemaVersion is not a string"));
    }
    if (from === this.schemaVersion) return { record, data: { ...record.state }, migrationsRun: NO_STEPS };
    const chain = this.migrations.resolve(from, this.schemaVersion, sessionId);
    let copy: Record<string, unknown>;
    try {
      copy = structuredClone(record.state) as Record<string, unknown>;
    } catch (cause) {
      throw new SessionLoadFailedError(sessionId, cause);
    }
    const steps: SessionMigrationStep[] = [];
    const data = await SessionMigrationRegistry.apply(chain, copy, { sessionId, onStep: (s) => steps.push(s), copy: false });
    return { record, data, migrationsRun: Object.freeze(steps) };
  }

  /** Write the §4 outbound projection of `state` (errors: conflict as is, else `session_save_failed`). */
  async #write(
    store: SessionStore,
    sessionId: string,
    state: Readonly<Record<string, unknown>>,
    point: SessionSavePoint,
    options: SessionSaveOptions | undefined,
  ): Promise<SessionSaveReport<SS>> {
    const data = Object.freeze(this.projection.outbound(state));
    let out: SessionSaveResult | void;
    try {
      out = await store.save(sessionId, { state: data, schemaVersion: this.schemaVersion }, options);
    } catch (cause) {
      if (cause instanceof SessionWriteConflictError) throw cause;
      throw new SessionSaveFailedError(sessionId, cause, point);
    }
    const version = isMapping(out) && typeof out.version === "number" ? out.version : undefined;
    return Object.freeze({
      sessionId,
      savePoint: point,
      state: data as Readonly<Partial<SS>>,
      schemaVersion: this.schemaVersion,
      version,
    });
  }

  /**
   * Run the graph (graph-engine §3) bound to `options.sessionId` (see the module comment).
   * Rejects with the engine's §4 errors, or a sessions §10 / suspension §9 error.
   */
  async invoke(
    initial: Readonly<Partial<S>> = {} as Readonly<Partial<S>>,
    options: SessionInvokeOptions = {},
  ): Promise<SessionInvocationResult<S, SS>> {
    const { sessionId, ...engineOptions } = options;
    if (sessionId === undefined) {
      // §3: unbound — never touch the store; run outside any enclosing session context.
      const result = await sessionStorage.exit(() => this.graph.invoke(initial, engineOptions));
      return this.#result(result, undefined, null, null);
    }
    checkSessionId(sessionId);
    const invocationId = engineOptions.invocationId ?? randomUUID();
    const store = this.store;
    const optimistic = this.concurrency === "optimistic";
    let expectedVersion: number | undefined;

    // Saves of one invocation are serialized (in call order), so concurrent mid-invoke saves cannot
    // interleave and the §8.2 expected version always follows this invocation's own last write.
    let queue: Promise<unknown> = Promise.resolve();
    const save = (state: Readonly<Record<string, unknown>>, point: SessionSavePoint): Promise<SessionSaveReport<SS> | null> => {
      if (store === null) return Promise.resolve(null);
      const p = queue.then(async () => {
        const report = await this.#write(store, sessionId, state, point, optimistic ? { expectedVersion } : undefined);
        if (optimistic) expectedVersion = report.version;
        return report;
      });
      queue = p.catch(() => undefined);
      return p;
    };

    const binding: SessionBinding = {
      sessionId,
      invocationId,
      owner: this,
      saveFromNode: (o) => this.#saveFromNode(o, save),
    };

    return sessionStorage.run(binding, async () => {
      let loaded: Loaded | null = null;
      let start: Readonly<Partial<S>> = initial;
      if (store !== null) {
        loaded = await this.#load(store, sessionId);
        // §8.2: expect the version loaded (0 = no record); a store reporting no version cannot be checked.
        expectedVersion = loaded === null ? 0 : typeof loaded.record.version === "number" ? loaded.record.version : undefined;
        if (loaded) {
          const base = this.projection.inbound(loaded.data);
          start = mergeThroughReducers(this.#schema, base, initial as Readonly<Record<string, unknown>>) as Readonly<Partial<S>>;
        }
      }
      const result = await this.graph.invoke(start, { ...engineOptions, invocationId });
      let saved: SessionSaveReport<SS> | null = null;
      if (store !== null && this.autoSave) {
        if (result.outcome === "completed") {
          try {
            saved = await save(result.state, "completed");
          } catch (e) {
            const partial = this.#result(result, sessionId, loaded, null);
            if (e instanceof SessionSaveFailedError || e instanceof SessionWriteConflictError) e.result = partial;
            throw e;
          }
        } else if (this.saveOnSuspend) {
          try {
            saved = await save(result.state, "suspended");
          } catch (e) {
            if (e instanceof SessionError) throw new SuspensionPersistenceFailedError(e, { suspended: result, part: "session", sessionId });
            throw e;
          }
        }
      }
      return this.#result(result, sessionId, loaded, saved);
    });
  }

  #result(
    result: InvocationResult<S>,
    sessionId: string | undefined,
    loaded: Loaded | null,
    saved: SessionSaveReport<SS> | null,
  ): SessionInvocationResult<S, SS> {
    const info: SessionInvocationInfo<SS> = {
      sessionId,
      loadedSessionState: loaded ? (Object.freeze(this.projection.restrict(loaded.data)) as Readonly<Partial<SS>>) : null,
      loadedRecord: loaded?.record ?? null,
      migrationsRun: loaded?.migrationsRun ?? NO_STEPS,
      savedSession: saved,
    };
    return Object.freeze({ ...result, ...info });
  }

  async #saveFromNode(
    options: MidInvokeSaveOptions,
    save: (state: Readonly<Record<string, unknown>>, point: SessionSavePoint) => Promise<SessionSaveReport<SS> | null>,
  ): Promise<SessionSaveReport<SS> | null> {
    const ctx = currentNodeContext();
    if (ctx && ctx.namespace.length > 1) {
      throw new TypeError(
        `saveSession() called from "${ctx.namespace.join("/")}": session state belongs to the outermost graph (sessions §9); ` +
          "save from an outermost-graph node",
      );
    }
    let state: Readonly<Record<string, unknown>>;
    if (options.state !== undefined) {
      if (!isMapping(options.state)) throw new TypeError("saveSession({ state }) must be a state mapping");
      state = options.state;
    } else {
      if (!ctx) throw new TypeError("saveSession() outside a node body needs an explicit { state }");
      state = ctx.state;
      if (options.update !== undefined) {
        if (!isMapping(options.update)) throw new TypeError("saveSession({ update }) must be a partial-update mapping");
        state = mergeThroughReducers(this.#schema, state, options.update, ctx.nodeName);
      }
    }
    return save(state, "explicit");
  }

  /**
   * §6.2 typed mid-invoke save from a node body of this graph's session-bound invocation (the typed
   * twin of {@link saveSession}). Resolves `null` when the invocation is not session-bound or no store
   * is registered.
   */
  saveCurrent(options: MidInvokeSaveOptions<Readonly<Partial<S>>, U> = {}): Promise<SessionSaveReport<SS> | null> {
    const b = sessionStorage.getStore();
    const ctx = currentNodeContext();
    if (!b || b.owner !== this || (ctx !== undefined && ctx.invocationId !== b.invocationId)) return Promise.resolve(null);
    return b.saveFromNode(options as MidInvokeSaveOptions) as Promise<SessionSaveReport<SS> | null>;
  }

  /**
   * Explicit save outside an invocation: write the §4 projection of `state` (a full or partial
   * invoke state) under `sessionId`. Rejects with `session_save_failed` / `session_write_conflict`.
   */
  async save(sessionId: string, state: Readonly<Partial<S>>, options?: SessionSaveOptions): Promise<SessionSaveReport<SS>> {
    const store = this.#requireStore("save");
    checkSessionId(sessionId);
    if (!isMapping(state)) throw new TypeError("save(sessionId, state): state must be a mapping");
    return this.#write(store, sessionId, state as Readonly<Record<string, unknown>>, "explicit", options);
  }

  /**
   * Load `sessionId` as an invocation would (§6.1, §7): the migrated session state, or `null`.
   * Rejects with `session_load_failed` / `session_state_migration_*`.
   */
  async load(sessionId: string): Promise<LoadedSession<SS> | null> {
    const store = this.#requireStore("load");
    checkSessionId(sessionId);
    const loaded = await this.#load(store, sessionId);
    if (!loaded) return null;
    return Object.freeze({
      record: loaded.record,
      state: Object.freeze(this.projection.restrict(loaded.data)) as Readonly<Partial<SS>>,
      schemaVersion: this.schemaVersion,
      migrationsRun: loaded.migrationsRun,
    });
  }

  /** §5.3 delete the session (idempotent). */
  async delete(sessionId: string): Promise<void> {
    const store = this.#requireStore("delete");
    checkSessionId(sessionId);
    await store.delete(sessionId);
  }
}

/**
 * Register sessions on a compiled graph (sessions §3–§9; see the module comment). `projection`
 * determines the `SessionState` type: `{ fields: ["history"] }` → `{ history: … }`; `"full"` → the
 * whole state.
 */
export function withSessions<S extends StateRecord, U, const P extends SessionProjection<S>>(
  graph: CompiledGraph<S, U>,
  options: SessionOptions<S, P>,
): SessionBoundGraph<S, U, SessionStateOf<S, P>> {
  return new SessionBoundGraph<S, U, SessionStateOf<S, P>>(graph, options);
}
