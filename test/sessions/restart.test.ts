import { expect } from "chai";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { SqliteSessionStore } from "../../src/sessions/index.ts";
import { tempDir } from "./helpers.ts";

const run = promisify(execFile);
const worker = fileURLToPath(new URL("./fixtures/restart-worker.ts", import.meta.url));

interface TurnReport {
  pid: number;
  loaded: Record<string, unknown> | null;
  state: Record<string, unknown>;
  sessions: string[];
  stats: { load: number; save: number };
}

async function turn(db: string, sessionId: string, message: string): Promise<TurnReport> {
  const { stdout } = await run(process.execPath, ["--import", "tsx", worker, db, sessionId, message], { timeout: 20000, env: { ...process.env, OA_SESSIONS_RESTART_WORKER: "1" } });
  return JSON.parse(stdout) as TurnReport;
}

describe("sessions §5.5 SqliteSessionStore: a session survives a process restart", () => {
  const tmp = tempDir("oa-sessions-restart-");
  after(() => tmp.cleanup());

  it("a session saved by one process is loaded (and continued) by another from the same file", async () => {
    const db = join(tmp.dir, "sessions.db");
    const first = await turn(db, "user-42", "hello");
    expect(first.loaded).to.equal(null);
    expect(first.state).to.deep.include({ history: ["hello", "echo:hello"], turn: 1 });
    expect(first.stats).to.deep.include({ load: 1, save: 1 });

    // another session written meanwhile from this process
    const writer = new SqliteSessionStore(db);
    await writer.save("user-7", { state: { history: ["hi"], turn: 1 }, schemaVersion: "v1" });
    writer.close();

    const second = await turn(db, "user-42", "again");
    expect(second.pid).to.not.equal(first.pid);
    expect(second.loaded).to.deep.equal({ history: ["hello", "echo:hello"], turn: 1 }); // no scratch
    expect(second.state).to.deep.include({ history: ["hello", "echo:hello", "again", "echo:again"], turn: 2 });
    expect(second.sessions).to.deep.equal(["user-42", "user-7"]);

    // and this (third) process reads the same records
    const store = new SqliteSessionStore(db);
    try {
      const rec = (await store.load("user-42"))!;
      expect(rec.state).to.deep.equal({ history: ["hello", "echo:hello", "again", "echo:again"], turn: 2 });
      expect(rec.schemaVersion).to.equal("v1");
      expect(rec.version).to.equal(2);
    } finally {
      store.close();
    }
  });
});
