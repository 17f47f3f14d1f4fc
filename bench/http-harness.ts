/**
 * Turn latency of the HTTP harness under the chat load (`bench/lib/chat-load.ts`: 50 concurrent
 * sessions × 20 turns, one turn at a time per session, on 127.0.0.1) — p50 / p99 per turn, as
 * ratios to a floor: a bare `node:http` server that parses the JSON body and answers a JSON reply
 * (no harness, no graph, no session, no model). The runs, one after the other in one process:
 *
 * | row | server |
 * |---|---|
 * | floor | `node:http` JSON echo |
 * | ours (memory) | `startHarnessServer({ graph, sessions: InMemorySessionStore, checkpointer: InMemoryCheckpointer })` |
 * | ours (SQLite, the default) | `startHarnessServer({ graph, database })` (WAL, synchronous=FULL) |
 *
 * The graph is `providerChatGraph` over the scripted provider (in-process, no network). The client
 * (`fetch`) shares the process and its cost is in every row. Every run is checked: 1,000 answered
 * turns with their own replies.
 *
 *   node --import tsx bench/http-harness.ts [--quick] [--rounds N]   → bench/results.http-harness.json
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir, loadavg, cpus } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { InMemoryCheckpointer } from "../src/checkpoint/index.ts";
import { providerChatGraph } from "../src/harness/chat/index.ts";
import { startHarnessServer } from "../src/harness/http/server.ts";
import { InMemorySessionStore } from "../src/sessions/index.ts";
import { ScriptedProvider } from "../src/testing/scripted-provider.ts";
import { loadScript, runChatLoad, tag, type TurnRecord } from "./lib/chat-load.ts";

const quick = process.argv.includes("--quick");
const roundsArg = process.argv.indexOf("--rounds");
const ROUNDS = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : quick ? 1 : 3;
const SESSIONS = 50;
const TURNS = quick ? 5 : 20;

interface Target {
  url: string;
  close(): Promise<void>;
}

async function floor(): Promise<Target> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const m = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { content: string };
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ outcome: "completed", replies: [{ role: "assistant", content: `reply ${m.content.slice(5)}` }] }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(() => r())) };
}

async function ours(storage: "memory" | "sqlite", dir: string): Promise<Target> {
  const graph = providerChatGraph(new ScriptedProvider({ script: { mode: "when_only", responses: loadScript(SESSIONS, TURNS) } }));
  const srv =
    storage === "memory"
      ? await startHarnessServer({ graph, sessions: new InMemorySessionStore(), checkpointer: new InMemoryCheckpointer() })
      : await startHarnessServer({ graph, database: join(dir, `chat-${Date.now()}.db`) });
  return { url: srv.url, close: () => srv.close() };
}

function check(name: string, records: TurnRecord[]): void {
  if (records.length !== SESSIONS * TURNS) throw new Error(`${name}: ${records.length} turns answered, expected ${SESSIONS * TURNS}`);
  for (const r of records) {
    const content = r.body.replies?.[0]?.content;
    if (r.status !== 200 || content !== `reply ${tag(r.session, r.turn)}`) throw new Error(`${name}: turn ${tag(r.session, r.turn)} answered ${r.status} ${JSON.stringify(r.body)}`);
  }
}

const pct = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function measure(name: string, start: () => Promise<Target>): Promise<{ name: string; p50: number; p99: number; turnsPerSecond: number }> {
  const all: number[] = [];
  let wall = 0;
  // Warm-up: one short round, not timed.
  {
    const t = await start();
    await runChatLoad(t.url, 5, 1, (s) => `warm-${s}`).catch(() => undefined);
    await t.close();
  }
  for (let r = 0; r < ROUNDS; r++) {
    const t = await start();
    const began = performance.now();
    const records = await runChatLoad(t.url, SESSIONS, TURNS);
    wall += performance.now() - began;
    await t.close();
    check(name, records);
    all.push(...records.map((x) => x.ms));
  }
  all.sort((a, b) => a - b);
  return { name, p50: pct(all, 50), p99: pct(all, 99), turnsPerSecond: (ROUNDS * SESSIONS * TURNS) / (wall / 1000) };
}

const dir = mkdtempSync(join(tmpdir(), "oa-http-bench-"));
try {
  const rows = [await measure("floor", floor), await measure("ours (memory)", () => ours("memory", dir)), await measure("ours (SQLite, default)", () => ours("sqlite", dir))];
  const base = rows[0]!;
  console.log(`HTTP harness turn latency: ${SESSIONS} sessions × ${TURNS} turns × ${ROUNDS} round(s); load ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`);
  console.log("| server | p50 ms | p99 ms | p50 / floor | p99 / floor | turns/s |");
  console.log("|---|---|---|---|---|---|");
  for (const r of rows) console.log(`| ${r.name} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${(r.p50 / base.p50).toFixed(1)} | ${(r.p99 / base.p99).toFixed(1)} | ${r.turnsPerSecond.toFixed(0)} |`);
  if (!process.argv.includes("--no-write")) {
    const out = fileURLToPath(new URL(quick ? "./results.http-harness.quick.json" : "./results.http-harness.json", import.meta.url));
    writeFileSync(out, `${JSON.stringify({ measuredAt: new Date().toISOString(), sessions: SESSIONS, turns: TURNS, rounds: ROUNDS, load1: loadavg()[0], cores: cpus().length, rows: rows.map((r) => ({ ...r, p50OverFloor: r.p50 / base.p50, p99OverFloor: r.p99 / base.p99 })) }, null, 2)}\n`);
    console.log(`wrote ${out}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
