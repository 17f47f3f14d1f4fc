import { expect } from "chai";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PostgresSessionStore } from "../../src/postgres/index.ts";
import { freshTable, sharedPool } from "../../harness/postgres-server.ts";
import {
  InMemorySessionStore,
  SqliteSessionStore,
  type SessionListFilter,
  type SessionRecord,
  type SessionRecordInput,
  type SessionSaveOptions,
  type SessionSaveResult,
  type SessionStore,
  type SessionStoreStats,
  type SessionSummary,
} from "../../src/sessions/index.ts";
import { tempDir as exitCleanedTempDir } from "../support/temp-dir.ts";

/** A store under test that counts calls. */
export type CountingStore = SessionStore & { stats(): SessionStoreStats; resetStats(): void };

/** One bundled backend: how to make a fresh store, and how to release it. */
export interface StoreKind {
  readonly name: string;
  make(): CountingStore;
  cleanup(): void;
}

/** A temp directory under os.tmpdir(), removed by `cleanup()`. */
export function tempDir(prefix = "oa-sessions-"): { dir: string; cleanup(): void } {
  const dir = exitCleanedTempDir(prefix);
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The two bundled backends; every shared suite runs once per kind with the same expectations. */
export function storeKinds(): StoreKind[] {
  const sqliteStores: SqliteSessionStore[] = [];
  let tmp: { dir: string; cleanup(): void } | undefined;
  let n = 0;
  return [
    { name: "InMemorySessionStore", make: () => new InMemorySessionStore(), cleanup: () => {} },
    {
      name: "SqliteSessionStore",
      make: () => {
        tmp ??= tempDir();
        const s = new SqliteSessionStore(join(tmp.dir, `s${n++}.db`));
        sqliteStores.push(s);
        return s;
      },
      cleanup: () => {
        for (const s of sqliteStores.splice(0)) s.close();
        tmp?.cleanup();
        tmp = undefined;
      },
    },
    // A real server (harness/postgres-server.ts: OA_PG_URL; required under CI), a fresh table per store.
    { name: "PostgresSessionStore", make: () => new PostgresSessionStore(sharedPool(), { table: freshTable("ss") }), cleanup: () => {} },
  ];
}

/** Run `suite` once per bundled backend. */
export function forEachStore(title: string, suite: (kind: StoreKind) => void): void {
  for (const kind of storeKinds()) {
    describe(`${title} [${kind.name}]`, () => {
      after(() => kind.cleanup());
      suite(kind);
    });
  }
}

/** A store wrapper that can be told to fail its next operations. */
export class FaultyStore implements SessionStore {
  failLoad: unknown = undefined;
  failSave: unknown = undefined;
  /** Fail only saves after this many successful ones (default: every save). */
  failSaveAfter = 0;
  saves = 0;
  loadResult: unknown = undefined;
  constructor(readonly inner: SessionStore) {}
  async load(sessionId: string): Promise<SessionRecord | null> {
    if (this.failLoad !== undefined) throw this.failLoad;
    if (this.loadResult !== undefined) return this.loadResult as SessionRecord;
    return this.inner.load(sessionId);
  }
  async save(sessionId: string, record: SessionRecordInput, options?: SessionSaveOptions): Promise<SessionSaveResult | void> {
    if (this.failSave !== undefined && this.saves >= this.failSaveAfter) throw this.failSave;
    this.saves++;
    return this.inner.save(sessionId, record, options);
  }
  delete(sessionId: string): Promise<void> {
    return this.inner.delete(sessionId);
  }
  list(filter?: SessionListFilter): Promise<readonly SessionSummary[]> {
    return this.inner.list(filter);
  }
}

/** Await `p`, expecting a rejection; return the error. */
export async function rejection(p: Promise<unknown>): Promise<Error & { category?: string; cause?: unknown }> {
  try {
    await p;
  } catch (e) {
    expect(e).to.be.instanceOf(Error);
    return e as Error & { category?: string };
  }
  expect.fail("expected a rejection");
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
