/**
 * A turn whose client leaves: the model call is aborted (no tokens paid for an answer nobody
 * reads) unless the turn is configured to finish in the background. The model is the real
 * OpenAI-compatible `HttpProvider` over `providerChatGraph`; only its `fetch` is injected — a
 * stream of 40 chunks, one every 40 ms, that records whether its request signal was aborted and
 * errors its body on abort, as undici's fetch does.
 */
import { expect } from "chai";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { providers } from "../../src/llm/index.ts";
import { providerChatGraph, type ChatMessage } from "../../src/harness/chat/index.ts";
import { startHarnessServer, type HarnessServer, type HarnessServerOptions } from "../../src/harness/http/server.ts";
import { tempDir } from "../support/temp-dir.ts";

const dir = tempDir("oa-http-disconnect-");
const CHUNKS = 40;

/** The upstream model: a slow SSE stream; what it served and whether its caller aborted it. */
function slowUpstream() {
  const seen = { requests: 0, served: 0, finished: false, aborted: false };
  const fetch = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    seen.requests++;
    const signal = init?.signal ?? undefined;
    const enc = new TextEncoder();
    let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
    signal?.addEventListener("abort", () => {
      seen.aborted = true;
      try {
        controller?.error(signal.reason);
      } catch {
        // already closed
      }
    });
    const chunk = (delta: Record<string, unknown>, finish: string | null) =>
      enc.encode(`data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
      },
      async pull(c) {
        if (signal?.aborted) return;
        if (seen.served === CHUNKS) {
          c.enqueue(chunk({}, "stop"));
          c.enqueue(enc.encode("data: [DONE]\n\n"));
          seen.finished = true;
          return c.close();
        }
        await delay(40);
        if (signal?.aborted) return;
        seen.served++;
        c.enqueue(chunk({ content: `w${seen.served} ` }, null));
      },
    });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  };
  return { seen, model: providers.create("openai", { model: "m", apiKey: "sk-test", fetch }) };
}

/** Send a message with `Accept: text/event-stream`, read the first delta, then drop the connection. */
async function sendAndLeave(srv: HarnessServer, session: string, query = ""): Promise<void> {
  const ac = new AbortController();
  const res = await fetch(`${srv.url}/chat/${session}/messages${query}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify({ role: "user", content: "tell me a long story" }),
    signal: ac.signal,
  });
  const first = await res.body!.getReader().read();
  expect(new TextDecoder().decode(first.value)).to.match(/^event: delta\n/);
  ac.abort();
}
const until = async (cond: () => boolean, ms: number) => {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await delay(20);
};
const history = async (srv: HarnessServer, session: string) => ((await (await fetch(`${srv.url}/chat/${session}/messages`)).json()) as { messages: ChatMessage[] }).messages;

describe("harness: HTTP runtime, a client that disconnects mid-turn", function () {
  this.timeout(30_000);
  let srv: HarnessServer | undefined;
  const start = async (model: ReturnType<typeof slowUpstream>["model"], name: string, o: Partial<HarnessServerOptions> = {}) =>
    (srv = await startHarnessServer({ graph: providerChatGraph(model), database: join(dir, `${name}.db`), ...o }));
  afterEach(async () => {
    await srv?.close({ timeoutMs: 2000 });
    srv = undefined;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("the SSE client leaves after the first delta: the upstream call is aborted, nothing of the turn is saved", async () => {
    const up = slowUpstream();
    await start(up.model, "abort");
    await sendAndLeave(srv!, "a");
    await until(() => up.seen.aborted, 3000);
    expect(up.seen.aborted, "the upstream request's signal should be aborted").to.equal(true);
    await delay(200);
    expect(up.seen.finished).to.equal(false);
    expect(up.seen.served).to.be.below(CHUNKS / 2);
    expect(await history(srv!, "a")).to.deep.equal([]); // the turn was aborted: the session is as before it
  });

  it("a plain (non-streamed) request whose client leaves is aborted the same way", async () => {
    const up = slowUpstream();
    await start(up.model, "plain");
    const ac = new AbortController();
    const pending = fetch(`${srv!.url}/chat/p/messages`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ role: "user", content: "hi" }), signal: ac.signal }).catch(
      (e: unknown) => e,
    );
    await until(() => up.seen.served > 0, 3000);
    ac.abort();
    await pending;
    await until(() => up.seen.aborted, 3000);
    expect(up.seen.aborted).to.equal(true);
    expect(up.seen.finished).to.equal(false);
  });

  it("finishTurnsOnDisconnect: true lets the turn run to its end and saves it", async () => {
    const up = slowUpstream();
    await start(up.model, "finish", { finishTurnsOnDisconnect: true });
    await sendAndLeave(srv!, "f");
    await until(() => up.seen.finished, 10_000);
    expect(up.seen.aborted).to.equal(false);
    expect(up.seen.served).to.equal(CHUNKS);
    await until(() => false, 200);
    const messages = await history(srv!, "f");
    expect(messages.map((m) => m.role)).to.deep.equal(["user", "assistant"]);
    expect(String(messages[1]!.content)).to.match(/^w1 w2 .* w40 $/);
  });

  it("?on_disconnect=finish / abort overrides the option per request; another value is 400", async () => {
    const up = slowUpstream();
    await start(up.model, "query");
    await sendAndLeave(srv!, "q", "?on_disconnect=finish");
    await until(() => up.seen.finished, 10_000);
    expect(up.seen).to.deep.include({ finished: true, aborted: false });
    await srv!.close();

    const up2 = slowUpstream();
    await start(up2.model, "query2", { finishTurnsOnDisconnect: true });
    await sendAndLeave(srv!, "q", "?on_disconnect=abort");
    await until(() => up2.seen.aborted, 3000);
    expect(up2.seen).to.deep.include({ finished: false, aborted: true });

    const bad = await fetch(`${srv!.url}/chat/q/messages?on_disconnect=later`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ role: "user", content: "x" }) });
    expect(bad.status).to.equal(400);
    expect(((await bad.json()) as { error: { category: string } }).error.category).to.equal("request_invalid");
  });
});
