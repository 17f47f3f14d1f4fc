import { expect } from "chai";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { SqliteCheckpointer } from "../../src/checkpoint/sqlite.ts";
import { defineState, END, field, GraphBuilder } from "../../src/graph/index.ts";
import { PausedRecordSignalCoordinator } from "../../src/harness/index.ts";
import { InMemorySessionStore, withSessions, type SessionStore } from "../../src/sessions/index.ts";
import { SqliteSessionStore } from "../../src/sessions/sqlite.ts";
import { suspend } from "../../src/suspension/index.ts";
import { ChatHarness, chatMessageIssues, messagesField, providerChatGraph, type ChatMessage, type ChatTurnOutcome } from "../../src/harness/chat/index.ts";
import { ScriptedProvider } from "../../src/testing/scripted-provider.ts";
import { tempDir } from "../support/temp-dir.ts";

const State = defineState({ messages: messagesField(), approved: field.bool().default(false) });

function echo(delayMs = 0) {
  return new GraphBuilder(State)
    .addNode("reply", async (s) => {
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      const last = s.messages[s.messages.length - 1] as ChatMessage;
      return { messages: [{ role: "assistant", content: `echo: ${String(last.content)}` }] };
    })
    .addEdge("reply", END)
    .setEntry("reply")
    .compile({ name: "echo" });
}

function approval() {
  return new GraphBuilder(State)
    .addNode("compose", async () => ({ messages: [{ role: "assistant", content: "Approve?" }] }))
    .addNode("gate", async () => suspend({ signalId: "approve-1" }))
    .addNode("after", async (s) => ({ messages: [{ role: "assistant", content: s.approved ? "Done." : "Cancelled." }] }))
    .addEdge("compose", "gate")
    .addEdge("gate", "after")
    .addEdge("after", END)
    .setEntry("compose")
    .compile({ name: "approval" });
}

/** Like providerChatGraph: a user message starting with "delete" waits for {decision}; anything else is echoed. */
const GatedState = defineState({ messages: messagesField(), awaiting: field.bool().default(false), decision: field.string().default("") });
function gated() {
  const lastUser = (ms: readonly ChatMessage[]) => String([...ms].reverse().find((m) => m.role === "user")?.content ?? "");
  return new GraphBuilder(GatedState)
    .addNode("gate", async (s) => (lastUser(s.messages).startsWith("delete") ? { awaiting: true, messages: [{ role: "assistant", content: `Approve "${lastUser(s.messages)}"?` }] } : {}))
    .addNode("hold", async (s) => {
      if (s.awaiting && s.decision === "") suspend({ signalId: `approval-${lastUser(s.messages)}`, metadata: { kind: "approval" } });
      return {};
    })
    .addNode("reply", async (s) => {
      const text = !s.awaiting ? `echo: ${lastUser(s.messages)}` : s.decision === "approve" ? `Done: ${lastUser(s.messages)}` : "Declined.";
      return { awaiting: false, decision: "", messages: [{ role: "assistant", content: text }] };
    })
    .addEdge("gate", "hold")
    .addEdge("hold", "reply")
    .addEdge("reply", END)
    .setEntry("gate")
    .compile({ name: "gated" });
}
const user = (content: string): ChatMessage => ({ role: "user", content });

function chatOver(graph: ReturnType<typeof echo> | ReturnType<typeof gated>, store: SessionStore = new InMemorySessionStore()) {
  return new ChatHarness({ graph: withSessions(graph as ReturnType<typeof echo>, { store, projection: "full" }) });
}

function as<K extends ChatTurnOutcome["outcome"]>(o: ChatTurnOutcome, k: K): Extract<ChatTurnOutcome, { outcome: K }> {
  expect(o.outcome, JSON.stringify(o)).to.equal(k);
  return o as Extract<ChatTurnOutcome, { outcome: K }>;
}

describe("harness-chat: ChatHarness", () => {
  it("§5–§7 replies are only this turn's new messages; §6 first turn is 3.1, then 3.2", async () => {
    const chat = chatOver(echo());
    const t1 = as(await chat.send("c", { role: "user", content: "hi" }), "completed");
    expect(t1.path).to.equal("3.1");
    expect(t1.replies).to.deep.equal([{ role: "assistant", content: "echo: hi" }]);
    const t2 = as(await chat.send("c", { role: "user", content: "again" }), "completed");
    expect(t2.path).to.equal("3.2");
    expect(t2.replies).to.deep.equal([{ role: "assistant", content: "echo: again" }]);
    expect(t2.finalState["messages"]).to.have.length(4);
  });

  it("§7 a reply identical to an earlier message is still new (extraction by index)", async () => {
    const g = new GraphBuilder(State).addNode("same", async () => ({ messages: [{ role: "assistant", content: "same" }] })).addEdge("same", END).setEntry("same").compile();
    const chat = chatOver(g);
    await chat.send("c", { role: "user", content: "a" });
    const t = as(await chat.send("c", { role: "user", content: "a" }), "completed");
    expect(t.replies).to.deep.equal([{ role: "assistant", content: "same" }]);
  });

  it("§5.3 concurrent sends on one session serialize (no lost or interleaved history)", async () => {
    const chat = chatOver(echo(15));
    const outs = await Promise.all(["1", "2", "3", "4"].map((n) => chat.send("c", { role: "user", content: n })));
    const last = as(outs[3]!, "completed");
    expect((last.finalState["messages"] as ChatMessage[]).map((m) => m.content)).to.deep.equal(["1", "echo: 1", "2", "echo: 2", "3", "echo: 3", "4", "echo: 4"]);
  });

  it("§3.1 a malformed message is chat_message_shape_invalid, user-correctable, and nothing is loaded", async () => {
    const store = new InMemorySessionStore();
    const chat = chatOver(echo(), store);
    const o = as(await chat.send("c", { role: "tool", content: "x" } as unknown as ChatMessage), "errored");
    expect(o).to.deep.include({ errorBucket: "user_correctable", errorCategory: "chat_message_shape_invalid", invoked: false });
    expect(o.reply.role).to.equal("system");
    expect(o.reply.content).to.match(/tool_call_id/).and.match(/adjust your message/);
    expect(store.stats().load).to.equal(0);
  });

  it("§3.1 validation covers roles, content blocks and tool calls", () => {
    expect(chatMessageIssues({ role: "user", content: [{ type: "text", text: "a" }, { type: "image", source: { type: "url", url: "u" } }] })).to.deep.equal([]);
    expect(chatMessageIssues({ role: "assistant", content: "", tool_calls: [{ id: "t1", name: "f", arguments: {} }] })).to.deep.equal([]);
    expect(chatMessageIssues({ role: "robot", content: "x" })[0]).to.match(/role/);
    expect(chatMessageIssues({ role: "assistant", content: [{ type: "image", source: { type: "url", url: "u" } }] })[0]).to.match(/not allowed/);
    expect(chatMessageIssues({ role: "user", content: [{ type: "image", source: { type: "inline", base64_data: "AA" } }] })[0]).to.match(/media_type/);
    expect(chatMessageIssues({ role: "user", content: [] })[0]).to.match(/content/);
    expect(chatMessageIssues({ role: "user", content: "x", tool_calls: [] })[0]).to.match(/tool_calls/);
    expect(chatMessageIssues({ role: "user", content: "x", tool_call_ids: "t" })[0]).to.match(/tool_call_ids: not a ChatMessage field/);
  });

  it("§5.1 an empty session id is refused before any load", async () => {
    const o = as(await chatOver(echo()).send("", { role: "user", content: "x" }), "errored");
    expect(o.errorCategory).to.equal("harness_session_id_unresolved");
    expect(o.errorBucket).to.equal("session_terminating");
  });

  it("§8 pending messages on suspend; the resumed turn goes to the session's listener exactly once", async () => {
    const chat = chatOver(approval());
    const seen: ChatTurnOutcome[] = [];
    const other: ChatTurnOutcome[] = [];
    chat.subscribe("c", (o) => void seen.push(o));
    chat.subscribe("d", (o) => void other.push(o));
    const s = as(await chat.send("c", { role: "user", content: "go" }), "suspended");
    expect(s.pendingMessages).to.deep.equal([{ role: "assistant", content: "Approve?" }]);
    expect(s.signalDescriptor.signalId).to.equal("approve-1");
    expect(seen).to.deep.equal([]);
    const r = as(await chat.signal({ signalId: "approve-1" }, { approved: true }), "completed");
    expect(r.replies).to.deep.equal([{ role: "assistant", content: "Done." }]);
    expect(seen).to.have.length(1);
    expect(seen[0]).to.equal(r);
    expect(other).to.deep.equal([]);
    // the next send does not replay the resumed reply
    const next = await chat.send("c", { role: "user", content: "thanks" });
    expect(next.outcome).to.equal("suspended");
    expect(seen).to.have.length(1);
  });

  it("§10 errors map to system replies by bucket", async () => {
    class E extends Error {
      constructor(readonly category: string, m: string) {
        super(m);
      }
    }
    const raising = (category: string, m: string) =>
      new GraphBuilder(State).addNode("n", async () => {
        throw new E(category, m);
      }).addEdge("n", END).setEntry("n").compile();
    const t = as(await chatOver(raising("provider_unavailable", "x")).send("c", { role: "user", content: "x" }), "errored");
    expect(t.reply).to.deep.equal({ role: "system", content: "I had trouble responding. Try again in a moment." });
    const u = as(await chatOver(raising("provider_invalid_request", "context too long")).send("c", { role: "user", content: "x" }), "errored");
    expect(u.reply.content).to.include("context too long");
  });

  describe("a message sent while a turn of the session waits for a signal (issue 26 item 6)", () => {
    const historyOf = async (chat: ChatHarness, sessionId: string) => (((await chat.sessions.load(sessionId))?.state["messages"] ?? []) as ChatMessage[]).map((m) => m.content);

    it("is refused with chat_turn_pending (user-correctable), not parked as a second approval; nothing of the session is lost", async () => {
      const chat = chatOver(gated());
      const paused = as(await chat.send("c", user("delete the report")), "suspended");
      const refused = as(await chat.send("c", user("hello")), "errored");
      expect(refused).to.deep.include({ errorCategory: "chat_turn_pending", errorBucket: "user_correctable", invoked: false, path: null });
      expect(refused.reply.content).to.include(paused.invocationId).and.include("approval-delete the report").and.match(/adjust your message/);
      expect(await historyOf(chat, "c")).to.deep.equal(["delete the report", 'Approve "delete the report"?']);
      expect(await chat.pending("c")).to.deep.equal([{ sessionId: "c", invocationId: paused.invocationId, signalDescriptor: paused.signalDescriptor }]);
      expect(await chat.pending("other")).to.deep.equal([]);

      as(await chat.signal({ invocationId: paused.invocationId }, { decision: "approve" }), "completed");
      expect(await chat.pending("c")).to.deep.equal([]);
      const after = as(await chat.send("c", user("hello")), "completed");
      expect(after.replies).to.deep.equal([{ role: "assistant", content: "echo: hello" }]);
      expect(await historyOf(chat, "c")).to.deep.equal(["delete the report", 'Approve "delete the report"?', "Done: delete the report", "hello", "echo: hello"]);
    });

    it("a send queued behind the one that pauses is refused too (§5.3: it starts after that turn's outcome)", async () => {
      const chat = chatOver(gated());
      const [first, second] = await Promise.all([chat.send("c", user("delete it")), chat.send("c", user("and this"))]);
      const paused = as(first!, "suspended");
      expect(as(second!, "errored").errorCategory).to.equal("chat_turn_pending");
      // Another session is not held up by it.
      as(await chat.send("d", user("hi")), "completed");
      as(await chat.signal({ invocationId: paused.invocationId }, { decision: "reject" }), "completed");
      expect(await historyOf(chat, "c")).to.deep.equal(["delete it", 'Approve "delete it"?', "Declined."]);
    });

    it("a turn resumed around the chat layer (harness.handle) no longer holds the session", async () => {
      const chat = chatOver(gated());
      const paused = as(await chat.send("c", user("delete x")), "suspended");
      expect((await chat.harness.handle({ signal: { invocationId: paused.invocationId }, signalPayload: { decision: "approve" } })).outcome).to.equal("completed");
      expect(await chat.pending("c")).to.deep.equal([]);
      as(await chat.send("c", user("next")), "completed");
    });

    it("a new harness over the same SQLite files (a restart) still sees the paused turn: refuses, lists it, resumes it", async () => {
      const dir = tempDir("oa-chat-pending-");
      try {
        const database = join(dir, "chat.db");
        const open = () => {
          const store = new SqliteSessionStore(database);
          const checkpointer = new SqliteCheckpointer(database, { table: "paused" });
          const chat: ChatHarness = new ChatHarness({
            graph: withSessions(gated(), { store, projection: "full" }),
            checkpointer,
            coordinator: new PausedRecordSignalCoordinator((id) => chat.harness.suspendable.load(id)),
          });
          return { chat, close: () => (store.close(), checkpointer.close()) };
        };
        const a = open();
        const paused = as(await a.chat.send("s", user("delete all")), "suspended");
        as(await a.chat.send("t", user("delete none")), "suspended");
        a.close();
        const b = open();
        try {
          expect((await b.chat.pending("s")).map((p) => p.invocationId)).to.deep.equal([paused.invocationId]);
          expect(as(await b.chat.send("s", user("hello")), "errored").errorCategory).to.equal("chat_turn_pending");
          as(await b.chat.signal({ invocationId: paused.invocationId }, { decision: "approve" }), "completed");
          as(await b.chat.send("s", user("hello")), "completed");
          expect(await historyOf(b.chat, "s")).to.deep.equal(["delete all", 'Approve "delete all"?', "Done: delete all", "hello", "echo: hello"]);
          expect(await b.chat.pending("t")).to.have.length(1);
        } finally {
          b.close();
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it("providerChatGraph: a new message after a cancelled approval is answered, not parked behind the stale approval flag", async () => {
      const provider = new ScriptedProvider({ script: { mode: "when_only", responses: [{ type: "text", content: "Hi!", when: { prompt_contains: "hello" } }] } });
      const chat = new ChatHarness({ graph: withSessions(providerChatGraph(provider, { approveWhen: (t) => t.startsWith("delete") }), { store: new InMemorySessionStore(), projection: "full" }) });
      const paused = as(await chat.send("c", user("delete it")), "suspended");
      expect(await chat.harness.suspendable.cancel(paused.invocationId)).to.equal(true);
      expect(await chat.pending("c")).to.deep.equal([]);
      // The session saved at suspend still says awaiting_approval: a new turn starts without it.
      const t = as(await chat.send("c", user("hello")), "completed");
      expect(t.replies).to.deep.equal([{ role: "assistant", content: "Hi!" }]);
    });
  });
});

