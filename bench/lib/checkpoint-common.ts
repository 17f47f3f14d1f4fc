/**
 * Helpers shared by the checkpoint workloads (`checkpoint-chain.ts`: the 50-node chain of
 * `checkpoint-none` / `-memory` / `-sqlite`; `checkpoint-loop.ts`: the long loop of
 * `checkpoint-loop-memory` / `-sqlite`):
 *
 * - SQLite setup: one `mkdtemp` directory per implementation under `os.tmpdir()` ({@link tempDb}),
 *   connections opened WAL + `synchronous = FULL` ({@link openDb}) and checked before timing
 *   ({@link checkDurability}), the filesystem under `os.tmpdir()` for the notes
 *   ({@link tmpdirFilesystem}).
 * - Save counting at the checkpointer interface: ours' `save()` calls ({@link CountingInMemory},
 *   {@link CountingSqlite}); LangGraph's `put()` calls of node checkpoints, `metadata.step >= 1`
 *   ({@link CountingMemorySaver}, {@link CountingSqliteSaver}).
 * - The floor's stores: a `Map` ({@link floorMemoryStore}) and a prepared `better-sqlite3` upsert of
 *   `JSON.stringify(state)` ({@link floorSqliteStore}).
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { MemorySaver } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { InMemoryCheckpointer, SqliteCheckpointer, type CheckpointRecord } from "../../src/checkpoint/index.ts";
import { VerificationError } from "./verify.ts";

/** `PRAGMA synchronous` of every SQLite database here (ours' default). */
export const CP_SQLITE_SYNCHRONOUS = "full";

// ------------------------------------------------------------------------------------- SQLite

/**
 * The filesystem holding `os.tmpdir()` (Linux: the longest matching mount in `/proc/mounts`), e.g.
 * `"ext4 on /dev/vda"` — fsync on tmpfs is nearly free, so it matters for the SQLite numbers.
 */
export function tmpdirFilesystem(): string {
  try {
    const dir = realpathSync(os.tmpdir());
    let best: { mount: string; text: string } | undefined;
    for (const line of readFileSync("/proc/mounts", "utf8").split("\n")) {
      const [device, mount, type] = line.split(" ");
      if (!device || !mount || !type) continue;
      const inside = dir === mount || dir.startsWith(mount.endsWith("/") ? mount : `${mount}/`);
      if (inside && (!best || mount.length > best.mount.length)) best = { mount, text: `${type} on ${device}` };
    }
    return best ? `${dir}: ${best.text}` : `${dir}: unknown filesystem`;
  } catch {
    return `${os.tmpdir()}: unknown filesystem`;
  }
}

export interface TempDb {
  readonly dir: string;
  readonly file: string;
  remove(): void;
}

/** A fresh temp directory under `os.tmpdir()` for `impl`'s database file. */
export function tempDb(impl: string): TempDb {
  const dir = mkdtempSync(path.join(os.tmpdir(), `openarmature-bench-${impl}-`));
  return { dir, file: path.join(dir, "checkpoints.db"), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Open a connection with the settings every implementation uses. */
export function openDb(file: string): Database.Database {
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma(`synchronous = ${CP_SQLITE_SYNCHRONOUS.toUpperCase()}`);
  return db;
}

/** Fail before timing unless `db` is WAL + the configured `synchronous` level. */
export function checkDurability(impl: string, db: Database.Database, scenario = "checkpoint-sqlite"): void {
  const journal = String(db.pragma("journal_mode", { simple: true }));
  const sync = Number(db.pragma("synchronous", { simple: true }));
  const want = CP_SQLITE_SYNCHRONOUS === "full" ? 2 : 1;
  if (journal !== "wal" || sync !== want) {
    throw new VerificationError(`${scenario}: ${impl}'s database is journal_mode=${journal}, synchronous=${sync}; expected wal, ${want}`);
  }
}

// ---------------------------------------------------------------------------------------- ours

/** Counts `save()` calls; no extra `await` (the base promise is returned as is). */
export class CountingInMemory extends InMemoryCheckpointer {
  saves = 0;
  override save(invocationId: string, record: CheckpointRecord): Promise<void> {
    this.saves++;
    return super.save(invocationId, record);
  }
}

export class CountingSqlite extends SqliteCheckpointer {
  saves = 0;
  override save(invocationId: string, record: CheckpointRecord): Promise<void> {
    this.saves++;
    return super.save(invocationId, record);
  }
}

// ----------------------------------------------------------------------------------- LangGraph

type PutArgs = Parameters<MemorySaver["put"]>;

/** Counts `put()` calls of node checkpoints (`metadata.step >= 1`). */
export class CountingMemorySaver extends MemorySaver {
  nodeSaves = 0;
  override put(config: PutArgs[0], checkpoint: PutArgs[1], metadata: PutArgs[2]): ReturnType<MemorySaver["put"]> {
    if ((metadata.step ?? -1) >= 1) this.nodeSaves++;
    return super.put(config, checkpoint, metadata);
  }
}

export class CountingSqliteSaver extends SqliteSaver {
  nodeSaves = 0;
  /** Create its tables now (untimed; LangGraph otherwise does it on first use). */
  prepare(): void {
    this.setup();
  }
  override put(config: PutArgs[0], checkpoint: PutArgs[1], metadata: PutArgs[2]): ReturnType<SqliteSaver["put"]> {
    if ((metadata.step ?? -1) >= 1) this.nodeSaves++;
    return super.put(config, checkpoint, metadata);
  }
}

// --------------------------------------------------------------------------------------- floor

/** The floor's checkpoint store: the latest `{ state, completedNodes }` per invocation id. */
export interface FloorStore<S> {
  save(id: string, state: S, completedNodes: number): Promise<void>;
  load(id: string): Promise<{ state: S; completedNodes: number } | undefined>;
  /** End of a unit: the in-memory store empties itself; the SQLite file keeps its rows. */
  endUnit(): void;
  close(): void;
}

/** LangGraph's counting saver for `backend`, with its SQLite connection checked (WAL + FULL) before timing. */
export function langgraphSaver(
  backend: "memory" | "sqlite",
  scenario = "checkpoint-sqlite",
): { readonly saver: CountingMemorySaver | CountingSqliteSaver; dispose(): void } {
  const db = backend === "sqlite" ? tempDb("langgraph") : undefined;
  const conn = db ? openDb(db.file) : undefined;
  const saver = conn === undefined ? new CountingMemorySaver() : new CountingSqliteSaver(conn);
  if (conn) {
    try {
      (saver as CountingSqliteSaver).prepare(); // sets WAL again; `synchronous` stays FULL
      checkDurability("LangGraph", conn, scenario);
    } catch (e) {
      conn.close();
      db!.remove();
      throw e;
    }
  }
  return {
    saver,
    dispose: () => {
      conn?.close();
      db?.remove();
    },
  };
}

/** A `Map` set per save (the state stored by reference). */
export function floorMemoryStore<S>(): FloorStore<S> {
  const records = new Map<string, { state: S; completedNodes: number }>();
  return {
    save: async (id, state, completedNodes) => void records.set(id, { state, completedNodes }),
    load: async (id) => records.get(id),
    endUnit: () => records.clear(),
    close: () => undefined,
  };
}

/** A prepared upsert of `JSON.stringify(state)` per save (WAL + FULL, checked). */
export function floorSqliteStore<S>(file: string, scenario = "checkpoint-sqlite"): FloorStore<S> {
  const db = openDb(file);
  try {
    checkDurability("floor", db, scenario);
  } catch (e) {
    db.close();
    throw e;
  }
  db.exec("CREATE TABLE IF NOT EXISTS checkpoints (id TEXT PRIMARY KEY NOT NULL, completed INTEGER NOT NULL, record TEXT NOT NULL)");
  const upsert = db.prepare(
    "INSERT INTO checkpoints (id, completed, record) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET completed = excluded.completed, record = excluded.record",
  );
  const select = db.prepare("SELECT completed, record FROM checkpoints WHERE id = ?");
  return {
    save: async (id, state, completedNodes) => void upsert.run(id, completedNodes, JSON.stringify(state)),
    load: async (id) => {
      const row = select.get(id) as { completed: number; record: string } | undefined;
      return row && { state: JSON.parse(row.record) as S, completedNodes: row.completed };
    },
    endUnit: () => undefined,
    close: () => db.close(),
  };
}
