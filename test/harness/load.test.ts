/**
 * Load (bounded, 127.0.0.1): 50 concurrent sessions × 20 turns through the HTTP harness built from a
 * chat graph with its defaults (sessions and paused turns in SQLite) and the scripted provider.
 * Every turn is answered exactly once and with its own reply, every session's history is complete
 * and in order, and the model saw each turn once. No timing is asserted: `bench/http-harness.ts`
 * measures the latency.
 */
import { expect } from "chai";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { providerChatGraph, type ChatMessage } from "../../src/harness/chat/index.ts";
import { startHarnessServer, type HarnessServer } from "../../src/harness/http/server.ts";
import { SqliteSessionStore } from "../../src/sessions/sqlite.ts";
import { ScriptedProvider } from "../../src/testing/scripted-provider.ts";
import { loadScript, runChatLoad, tag } from "../../bench/lib/chat-load.ts";
import { tempDir } from "../support/temp-dir.ts";

const SESSIONS = 50;
const TURNS = 20;
const dir = tempDir("oa-load-");

describe("harness: load — 50 concurrent sessions × 20 turns over HTTP (SQLite sessions, scripted provider)", function () {
  this.timeout(240_000);
  let srv: HarnessServer;
  let provider: ScriptedProvider;
  const database = join(dir, "load.db");
  before(async () => {
    provider = new ScriptedProvider({ script: { mode: "when_only", responses: loadScript(SESSIONS, TURNS) } });
    srv = await startHarnessServer({ graph: providerChatGraph(provider), database });
  });
  after(async () => {
    await srv?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers every turn exactly once, with its own reply, and keeps every history complete and in order", async () => {
    const records = await runChatLoad(srv.url, SESSIONS, TURNS);
    expect(records).to.have.length(SESSIONS * TURNS);
    const failed = records.filter((r) => r.status !== 200 || r.body.outcome !== "completed");
    expect(failed.slice(0, 3), `${failed.length} turns not completed`).to.deep.equal([]);
    for (const r of records) expect(r.body.replies).to.deep.equal([{ role: "assistant", content: `reply ${tag(r.session, r.turn)}` }]);

    // The model saw each turn exactly once (none lost, none run twice).
    const prompts = provider.calls.map((c) => c.reason);
    expect(prompts).to.have.length(SESSIONS * TURNS);
    expect(new Set(prompts).size).to.equal(SESSIONS * TURNS);

    // Every history, read back from the SQLite file: 20 user/assistant pairs in turn order.
    const store = new SqliteSessionStore(database);
    try {
      for (let s = 0; s < SESSIONS; s++) {
        const messages = (await store.load(`load-${s}`))?.state["messages"] as ChatMessage[];
        const expected = Array.from({ length: TURNS }, (_, t) => [
          { role: "user", content: `turn ${tag(s, t)}` },
          { role: "assistant", content: `reply ${tag(s, t)}` },
        ]).flat();
        expect(messages, `session load-${s}`).to.deep.equal(expected);
      }
    } finally {
      store.close();
    }
  });
});
