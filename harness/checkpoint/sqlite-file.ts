/**
 * The SQLite backend of a conformance case: the library's `SqliteCheckpointer` on a fresh database
 * file in its own temp directory (WAL, `synchronous = FULL` — the durable configuration), so the
 * fixture exercises real SQL storage and record serialization, not an in-process copy. A case may
 * hold two (its checkpoint store and its paused-record store); files are removed once
 * {@link KEPT_OPEN} newer ones are open (a later case's), or at process exit at the latest.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteCheckpointer } from "../../src/checkpoint/index.ts";

const open = new Set<SqliteFile>();

/** How many of the most recently opened files stay open (a case's stores are among them). */
const KEPT_OPEN = 3;
let exitHook = false;

export class SqliteFile {
  /** How many database files were opened in this process (tests check the SQLite backend ran). */
  static opened = 0;
  readonly dir: string;
  readonly checkpointer: SqliteCheckpointer;
  #closed = false;

  private constructor() {
    this.dir = mkdtempSync(join(tmpdir(), "oa-conformance-cp-"));
    this.checkpointer = new SqliteCheckpointer(join(this.dir, "checkpoints.db"));
  }

  /** A fresh database file (closing files of earlier cases first). */
  static open(): SqliteFile {
    for (const f of [...open].slice(0, Math.max(0, open.size - KEPT_OPEN))) f.close();
    if (!exitHook) {
      exitHook = true;
      process.once("exit", () => {
        for (const f of [...open]) f.close();
      });
    }
    const f = new SqliteFile();
    SqliteFile.opened++;
    open.add(f);
    return f;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    open.delete(this);
    try {
      this.checkpointer.close();
    } finally {
      rmSync(this.dir, { recursive: true, force: true });
    }
  }
}
