import { expect } from "chai";
import { defineState, END, field, GraphBuilder } from "../../src/graph/index.ts";
import { InMemorySessionStore, withSessions } from "../../src/sessions/index.ts";
import { suspend } from "../../src/suspension/index.ts";
import { TurnHarness } from "../../src/harness/index.ts";
import { ChatHarness, messagesField } from "../../src/harness/chat/index.ts";
import { startHarnessServer, type HarnessServer } from "../../src/harness/http/server.ts";

const Chat = defineState({ messages: messagesField(), approved: field.bool().default(false) });
const Counter = defineState({ count: field.int().default(0) });

function chatGraph(delayMs = 0, onStart: () => void = () => {}) {
  return new GraphBuilder(Chat)
    .addNode("route", async (s) => {
      onStart();
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      const last = s.messages[s.messages.length - 1] as { content: unknown };
      return last.content === "approve?" ? { messages: [{ role: "assistant", content: "Waiting for approval." }] } : { messages: [{ role: "assistant", content: `echo ${String(last.content)}` }] };
    })
    .addNode("gate", async (s) => {
      const last = s.messages[s.messages.length - 2] as { content: unknown } | undefined;
      if (last?.content === "approve?" && !s.approved) suspend({ signalId: "ok-1" });
      return {};
    })
    .addEdge("route", "gate")
    .addEdge("gate", END)
    .setEntry("route")
    .compile({ name: "chat" });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;
const json = async (r: Response | Promise<Response>): Promise<Json> => (await (await r).json()) as Json;

describe("harness: HTTP runtime (node:http, 127.0.0.1)", () => {
  let srv: HarnessServer;
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${srv.url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });

  beforeEach(async () => {
    const counter = new GraphBuilder(Counter).addNode("inc", async (s) => ({ count: s.count + 1 })).addEdge("inc", END).setEntry("inc").compile();
    const store = new InMemorySessionStore();
    srv = await startHarnessServer({
      harness: new TurnHarness({ mode: "sessioned", graph: withSessions(counter, { store, projection: "full" }) }),
      chat: new ChatHarness({ graph: withSessions(chatGraph(), { store: new InMemorySessionStore(), projection: "full" }) }),
    });
  });
  afterEach(() => srv.close());

  it("POST /turns runs a turn: 200 with the completion response, the session continued by id", async () => {
    const r1 = await post("/turns", { session_id: "s1", intent: "new_session" });
    expect(r1.status).to.equal(200);
    const r2 = await json(post("/turns", { session_id: "s1" }));
    expect(r2).to.deep.include({ outcome: "completed", path: "3.2", session_id: "s1" });
    expect(r2.outbound).to.deep.equal({ kind: "completion_response", payload: { count: 2 } });
  });

  it("client mistakes are 4xx with request_invalid, never 500", async () => {
    expect((await post("/turns", "{not json")).status).to.equal(400);
    expect((await post("/turns", { intent: "sideways" })).status).to.equal(400);
    expect((await fetch(`${srv.url}/turns`, { method: "POST", headers: { "content-type": "text/plain" }, body: "x" })).status).to.equal(415);
    expect((await fetch(`${srv.url}/turns`)).status).to.equal(405);
    expect((await fetch(`${srv.url}/nope`)).status).to.equal(404);
    expect((await post("/signals", {})).status).to.equal(400);
    const big = await post("/turns", { payload: { x: "y".repeat(2 * 1024 * 1024) } });
    expect(big.status).to.equal(413);
    const body = await json(post("/turns", "[1]"));
    expect(body.error.category).to.equal("request_invalid");
  });

  it("a malformed percent-encoding in the path is 400 request_invalid, not 500", async () => {
    for (const path of ["/chat/%E0%A4%A/messages", "/chat/%/messages", "/chat/%ZZ/events", "/turns%"]) {
      const r = await fetch(`${srv.url}${path}`);
      expect(r.status, path).to.equal(400);
      expect((await json(r)).error.category).to.equal("request_invalid");
    }
  });

  it("content types compare case-insensitively (a charset other than UTF-8 is 415)", async () => {
    const upper = await post("/chat/ct/messages", { role: "user", content: "hi" }, { "content-type": "Application/JSON; charset=UTF-8" });
    expect(upper.status).to.equal(200);
    expect((await json(upper)).replies).to.deep.equal([{ role: "assistant", content: "echo hi" }]);
    expect((await post("/turns", {}, { "content-type": 'APPLICATION/json;Charset="utf-8"' })).status).to.equal(200);
    const latin = await post("/turns", {}, { "content-type": "application/json; charset=iso-8859-1" });
    expect(latin.status).to.equal(415);
    expect((await json(latin)).error.category).to.equal("request_invalid");
  });

  it("chat: a malformed message is 422 chat_message_shape_invalid; a good one 200 with replies; SSE on request", async () => {
    const bad = await post("/chat/c1/messages", { role: "tool", content: "x" });
    expect(bad.status).to.equal(422);
    expect((await json(bad)).error_category).to.equal("chat_message_shape_invalid");
    const ok = await json(post("/chat/c1/messages", { role: "user", content: "hi" }));
    expect(ok.replies).to.deep.equal([{ role: "assistant", content: "echo hi" }]);
    const sse = await post("/chat/c1/messages", { role: "user", content: "again" }, { accept: "text/event-stream" });
    expect(sse.headers.get("content-type")).to.equal("text/event-stream");
    const text = await sse.text();
    expect(text).to.match(/^event: completed\ndata: /);
    expect(JSON.parse(text.split("data: ")[1]!).replies).to.deep.equal([{ role: "assistant", content: "echo again" }]);
  });

  it("chat: a suspended turn is 202; POST /chat/signals resumes it and the session's event stream receives the reply", async () => {
    const events = await fetch(`${srv.url}/chat/c2/events`);
    const reader = events.body!.getReader();
    const first = await post("/chat/c2/messages", { role: "user", content: "approve?" });
    expect(first.status).to.equal(202);
    const s = await json(first);
    expect(s.pending_messages).to.deep.equal([{ role: "assistant", content: "Waiting for approval." }]);
    const resumed = await post("/chat/signals", { signal_id: "ok-1", payload: { approved: true } });
    expect(resumed.status).to.equal(200);
    let seen = "";
    while (!seen.includes("event: completed")) seen += new TextDecoder().decode((await reader.read()).value);
    expect(seen).to.include(`"invocation_id":"${s.invocation_id}"`);
    await reader.cancel();
  });

  it("close() lets a turn in flight finish before the server stops", async () => {
    await srv.close();
    const store = new InMemorySessionStore();
    let started!: () => void;
    const inFlight = new Promise<void>((r) => (started = r));
    srv = await startHarnessServer({ chat: new ChatHarness({ graph: withSessions(chatGraph(150, () => started()), { store, projection: "full" }) }) });
    const pending = post("/chat/c3/messages", { role: "user", content: "slow" });
    await inFlight; // the turn is running (a fixed sleep could let close() win the race on a loaded machine)
    await srv.close();
    const r = await pending;
    expect(r.status).to.equal(200);
    expect((await store.load("c3"))?.state["messages"]).to.have.length(2);
  });
});
