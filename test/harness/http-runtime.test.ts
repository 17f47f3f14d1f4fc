/**
 * The HTTP runtime built from a chat graph (127.0.0.1, real SQLite files, the real scripted
 * provider): sessions and paused turns in SQLite by default and across a restart, any
 * SessionStore by choice, reply deltas as server-sent events, the history route, the page, and
 * graceful shutdown — turns in flight finish and are saved, or, past `close({ timeoutMs })`, are
 * aborted with nothing of them saved.
 */
import { expect } from "chai";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { defineState, END, GraphBuilder } from "../../src/graph/index.ts";
import { InMemoryCheckpointer } from "../../src/checkpoint/index.ts";
import { InMemorySessionStore } from "../../src/sessions/index.ts";
import { SqliteSessionStore } from "../../src/sessions/sqlite.ts";
import { INTERRUPTED_KIND, messagesField, providerChatGraph, type ChatMessage } from "../../src/harness/chat/index.ts";
import type { Provider } from "../../src/llm/index.ts";
import { startHarnessServer, type HarnessServer } from "../../src/harness/http/server.ts";
import { ScriptedProvider } from "../../src/testing/scripted-provider.ts";
import { tempDir } from "../support/temp-dir.ts";

const dir = tempDir("oa-http-runtime-");
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/** Resolves when a slow turn's node has started (the server holds the turn in flight). */
let started: () => void = () => {};
const turnStarted = () => new Promise<void>((resolve) => (started = resolve));

/** A chat graph whose reply waits `ms` (abortably) first. */
function slowGraph(ms: number) {
  const State = defineState({ messages: messagesField() });
  return new GraphBuilder(State)
    .addNode("reply", async (s, ctx) => {
      started();
      await delay(ms, undefined, { signal: ctx.signal });
      return { messages: [{ role: "assistant", content: `slow reply ${s.messages.length}` } satisfies ChatMessage] };
    })
    .addEdge("reply", END)
    .setEntry("reply")
    .compile();
}
const echo = () =>
  new ScriptedProvider({
    script: {
      mode: "when_only",
      responses: ["hi", "again", "one", "two"].map((w) => ({ type: "stream" as const, chunks: [{ type: "text" as const, content: "re: " }, { type: "text" as const, content: w }], when: { prompt_contains: w } })),
    },
  });
const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

describe("harness: HTTP runtime from a chat graph (SQLite by default, streaming, shutdown)", function () {
  this.timeout(30_000);
  let srv: HarnessServer | undefined;
  afterEach(async () => {
    await srv?.close();
    srv = undefined;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps sessions in SQLite by default: the conversation survives a restart on the same file", async () => {
    const database = join(dir, "restart.db");
    srv = await startHarnessServer({ graph: providerChatGraph(echo()), database });
    expect(((await (await post(`${srv.url}/chat/a/messages`, { role: "user", content: "hi" })).json()) as Json).replies).to.deep.equal([{ role: "assistant", content: "re: hi" }]);
    await srv.close();
    expect(existsSync(database)).to.equal(true);
    srv = await startHarnessServer({ graph: providerChatGraph(echo()), database });
    await post(`${srv.url}/chat/a/messages`, { role: "user", content: "again" });
    const history = (await (await fetch(`${srv.url}/chat/a/messages`)).json()) as Json;
    expect(history.messages.map((m: ChatMessage) => m.content)).to.deep.equal(["hi", "re: hi", "again", "re: again"]);
    expect(((await (await fetch(`${srv.url}/chat/nobody/messages`)).json()) as Json).messages).to.deep.equal([]);
  });

  it("a turn paused when the server stops is resumed after a restart on the same SQLite file (by invocation id)", async () => {
    const database = join(dir, "paused.db");
    const graph = () => providerChatGraph(echo(), { approveWhen: (t) => t.startsWith("one") });
    srv = await startHarnessServer({ graph: graph(), database });
    const paused = (await (await post(`${srv.url}/chat/p/messages`, { role: "user", content: "one item" })).json()) as Json;
    expect(paused.outcome).to.equal("suspended");
    await srv.close();
    srv = await startHarnessServer({ graph: graph(), database });
    // The new process has no live subscription: a signal id alone does not correlate ...
    const bySignalId = await post(`${srv.url}/chat/signals`, { signal_id: paused.signal_descriptor.signalId, payload: { decision: "approve" } });
    expect(((await bySignalId.json()) as Json).error_category).to.equal("harness_signal_correlation_failed");
    // ... the invocation id finds the paused record and resumes it, once.
    const resumed = (await (await post(`${srv.url}/chat/signals`, { invocation_id: paused.invocation_id, payload: { decision: "approve" } })).json()) as Json;
    expect(resumed).to.deep.include({ outcome: "completed", session_id: "p", invocation_id: paused.invocation_id });
    expect(resumed.replies).to.deep.equal([{ role: "assistant", content: "re: one" }]);
    const again = (await (await post(`${srv.url}/chat/signals`, { invocation_id: paused.invocation_id, payload: { decision: "approve" } })).json()) as Json;
    expect(again.error_category).to.equal("harness_signal_correlation_failed");
    const history = (await (await fetch(`${srv.url}/chat/p/messages`)).json()) as Json;
    expect(history.messages.map((m: ChatMessage) => m.content)).to.deep.equal(["one item", 'Approve "one item"? (approve / reject)', "re: one"]);
  });

  it("takes any SessionStore instead (no SQLite file is opened)", async () => {
    const database = join(dir, "unused.db");
    const store = new InMemorySessionStore();
    srv = await startHarnessServer({ graph: providerChatGraph(echo()), sessions: store, checkpointer: new InMemoryCheckpointer(), database });
    await post(`${srv.url}/chat/b/messages`, { role: "user", content: "one" });
    expect((await store.load("b"))?.state["messages"]).to.have.length(2);
    expect(existsSync(database)).to.equal(false);
  });

  it("streams the reply as delta events, then the outcome event with the same body", async () => {
    srv = await startHarnessServer({ graph: providerChatGraph(echo()), database: join(dir, "sse.db") });
    const res = await post(`${srv.url}/chat/c/messages`, { role: "user", content: "two" }, { accept: "text/event-stream" });
    expect(res.headers.get("content-type")).to.equal("text/event-stream");
    const events = (await res.text()).trim().split("\n\n").map((b) => ({ event: b.split("\n")[0]!.slice(7), data: JSON.parse(b.split("\n")[1]!.slice(6)) as Json }));
    expect(events.map((e) => e.event)).to.deep.equal(["delta", "delta", "completed"]);
    expect(events.slice(0, 2).map((e) => e.data.text)).to.deep.equal(["re: ", "two"]);
    expect(events[2]!.data.replies).to.deep.equal([{ role: "assistant", content: "re: two" }]);
  });

  it("serves the web page at / and refuses other methods there", async () => {
    srv = await startHarnessServer({ graph: providerChatGraph(echo()), database: join(dir, "page.db") });
    const page = await fetch(`${srv.url}/`);
    expect(page.headers.get("content-type")).to.equal("text/html; charset=utf-8");
    expect(await page.text()).to.include('<form id="send">');
    expect((await fetch(`${srv.url}/`, { method: "POST" })).status).to.equal(405);
    await srv.close();
    srv = await startHarnessServer({ graph: providerChatGraph(echo()), database: join(dir, "page.db"), page: false });
    expect((await fetch(`${srv.url}/`)).status).to.equal(404);
  });

  it("close() lets a turn in flight finish: its reply is sent and its session saved in SQLite", async () => {
    const database = join(dir, "finish.db");
    srv = await startHarnessServer({ graph: slowGraph(300), database });
    const inFlight = turnStarted();
    const pending = post(`${srv.url}/chat/d/messages`, { role: "user", content: "slow" });
    await inFlight;
    const closed = srv.close();
    srv = undefined;
    const r = await pending;
    await closed;
    expect(r.status).to.equal(200);
    expect(((await r.json()) as Json).replies).to.deep.equal([{ role: "assistant", content: "slow reply 1" }]);
    const store = new SqliteSessionStore(database);
    expect((await store.load("d"))?.state["messages"]).to.have.length(2);
    store.close();
  });

  it("close({ timeoutMs }) aborts a turn that does not checkpoint (a plain graph) after the grace: 503 turn_interrupted, the session as before the turn", async () => {
    const database = join(dir, "abort.db");
    srv = await startHarnessServer({ graph: slowGraph(50), database });
    expect((await post(`${srv.url}/chat/e/messages`, { role: "user", content: "first" })).status).to.equal(200);
    await srv.close();
    srv = await startHarnessServer({ graph: slowGraph(20_000), database });
    const inFlight = turnStarted();
    const pending = post(`${srv.url}/chat/e/messages`, { role: "user", content: "never answered" });
    await inFlight;
    const started = Date.now();
    await srv.close({ timeoutMs: 200, checkpointGraceMs: 200 });
    srv = undefined;
    expect(Date.now() - started).to.be.below(10_000); // it did not wait for the 20 s turn
    const r = await pending;
    expect(r.status).to.equal(503);
    expect(r.headers.get("retry-after")).to.equal("1");
    expect(((await r.json()) as Json).error.category).to.equal("turn_interrupted");
    const store = new SqliteSessionStore(database);
    expect(((await store.load("e"))?.state["messages"] as ChatMessage[]).map((m) => m.content)).to.deep.equal(["first", "slow reply 1"]);
    store.close();
  });

  it("close({ timeoutMs }) checkpoints a providerChatGraph turn still waiting for its model: 202 interrupted, resumed after a restart", async () => {
    const database = join(dir, "checkpoint.db");
    /** The model of the first server: its call starts, then waits (abortably) 20 s. */
    const stalled = (inner: Provider): Provider => ({
      name: inner.name,
      api: inner.api,
      model: inner.model,
      ready: () => inner.ready(),
      async complete(messages, options) {
        started();
        await delay(20_000, undefined, { signal: options?.signal });
        return inner.complete(messages, options);
      },
      stream: (messages, options) => inner.stream(messages, options),
    });
    srv = await startHarnessServer({ graph: providerChatGraph(stalled(echo())), database });
    const inFlight = turnStarted();
    const pending = post(`${srv.url}/chat/k/messages`, { role: "user", content: "one more" });
    await inFlight;
    const began = Date.now();
    await srv.close({ timeoutMs: 100 });
    srv = undefined;
    expect(Date.now() - began).to.be.below(10_000);
    const r = await pending;
    expect(r.status).to.equal(202);
    const paused = (await r.json()) as Json;
    expect(paused).to.deep.include({ outcome: "suspended", session_id: "k", pending_messages: [] });
    expect(paused.signal_descriptor.metadata).to.deep.equal({ kind: INTERRUPTED_KIND });

    srv = await startHarnessServer({ graph: providerChatGraph(echo()), database });
    // Saved with the pause (suspension §8.6): the user's message is in the session already.
    expect(((await (await fetch(`${srv.url}/chat/k/messages`)).json()) as Json).messages.map((m: ChatMessage) => m.content)).to.deep.equal(["one more"]);
    const resumed = (await (await post(`${srv.url}/chat/signals`, { invocation_id: paused.invocation_id })).json()) as Json;
    expect(resumed).to.deep.include({ outcome: "completed", invocation_id: paused.invocation_id });
    expect(resumed.replies).to.deep.equal([{ role: "assistant", content: "re: one" }]);
    expect(((await (await fetch(`${srv.url}/chat/k/messages`)).json()) as Json).messages.map((m: ChatMessage) => m.content)).to.deep.equal(["one more", "re: one"]);
  });

  it("a new request during shutdown is 503 server_closing", async () => {
    srv = await startHarnessServer({ graph: slowGraph(300), database: join(dir, "closing.db") });
    const inFlight = turnStarted();
    const pending = post(`${srv.url}/chat/f/messages`, { role: "user", content: "slow" });
    await inFlight;
    const closed = srv.close();
    const late = await post(`${srv.url}/chat/g/messages`, { role: "user", content: "late" }).catch((e: unknown) => e);
    srv = undefined;
    // The listener may already be closed (connection refused) or answer 503: never a turn.
    if (late instanceof Response) {
      expect(late.status).to.equal(503);
      expect(((await late.json()) as Json).error.category).to.equal("server_closing");
    } else expect(late).to.be.instanceOf(Error);
    expect((await pending).status).to.equal(200);
    await closed;
  });
});
