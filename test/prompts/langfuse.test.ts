/**
 * LangfusePromptBackend with the real @langfuse/client 5 SDK against a local HTTP server speaking
 * the Langfuse public API (the network edge is the only fake): text and chat mapping, config →
 * sampling / token_budget, the SDK prompt as observability_entities.langfuse_prompt, fresh reads,
 * and 404 / 5xx / refused connections categorized.
 */
import { expect } from "chai";
import { createHook } from "node:async_hooks";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { LangfuseClient } from "@langfuse/client";
import { configureGlobalLogger, LogLevel, resetGlobalLogger } from "@langfuse/core";
import { InMemoryPromptBackend, LangfusePromptBackend, PromptManager } from "../../src/prompts/index.ts";
import { rejection } from "./helpers.ts";

/**
 * Runs `work` and tracks the timers it arms: `pending()` counts those neither fired nor cleared yet.
 * Tracking starts after one await, past mocha's own per-test timer (armed when the test function
 * returns its promise).
 */
async function timersArmedBy<T>(work: () => Promise<T>): Promise<{ result: T; pending: () => number; stop: () => void }> {
  const live = new Set<number>();
  let tracking = false;
  const hook = createHook({
    init: (id, type) => void (tracking && type === "Timeout" && live.add(id)),
    destroy: (id) => void live.delete(id),
  }).enable();
  await null;
  tracking = true;
  try {
    return { result: await work(), pending: () => live.size, stop: () => void hook.disable() };
  } catch (e) {
    hook.disable();
    throw e;
  } finally {
    tracking = false;
  }
}

interface Served {
  status: number;
  body: unknown;
}

describe("prompts: LangfusePromptBackend (offline, at the wire)", function () {
  this.timeout(20_000);
  let server: Server;
  let baseUrl = "";
  const requests: { url: string; auth: string | undefined }[] = [];
  let route: (req: IncomingMessage) => Served = () => ({ status: 404, body: { message: "not found" } });

  before(async () => {
    configureGlobalLogger({ level: LogLevel.NONE }); // the SDK logs every failed fetch; the assertions cover them
    server = createServer((req, res) => {
      requests.push({ url: req.url ?? "", auth: req.headers.authorization });
      const { status, body } = route(req);
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    resetGlobalLogger();
    await new Promise<void>((r) => server.close(() => r()));
  });
  beforeEach(() => (requests.length = 0));

  const client = (): LangfuseClient => new LangfuseClient({ publicKey: "pk-lf-test", secretKey: "sk-lf-test", baseUrl });
  const text = {
    name: "classify",
    version: 7,
    type: "text",
    prompt: "Classify: {{topic}}",
    config: { temperature: 0.1, max_tokens: 32, model: "gpt-4o", token_budget: { input_max_tokens: 500, stray: 1 } },
    labels: ["production"],
    tags: ["support"],
    commitMessage: null,
  };

  it("maps a TEXT prompt: version, sampling (model under extras), token_budget, the SDK prompt as langfuse_prompt", async () => {
    route = () => ({ status: 200, body: text });
    const backend = new LangfusePromptBackend({ client: client(), maxRetries: 0 });
    const p = await backend.fetch("classify", "production");
    expect(requests[0]?.url).to.equal("/api/public/v2/prompts/classify?label=production");
    expect(requests[0]?.auth).to.match(/^Basic /);
    expect(p.template).to.equal("Classify: {{topic}}");
    expect(p.version).to.equal("7");
    expect(p.label).to.equal("production");
    expect(p.sampling).to.deep.equal({ temperature: 0.1, max_tokens: 32, extras: { model: "gpt-4o" } });
    expect(p.token_budget).to.deep.equal({ input_max_tokens: 500 });
    expect((p.observability_entities?.["langfuse_prompt"] as { version?: number }).version).to.equal(7);
    expect(p.metadata).to.deep.equal({ langfuse_labels: ["production"], langfuse_tags: ["support"] });
    const r = new PromptManager({ backends: [backend] }).render(p, { topic: "weather" });
    expect(r.messages).to.deep.equal([{ role: "user", content: "Classify: weather" }]);
  });

  it("maps a CHAT prompt with a placeholder, and reads fresh on every fetch", async () => {
    route = () => ({
      status: 200,
      body: {
        name: "chat",
        version: 2,
        type: "chat",
        prompt: [
          { type: "chatmessage", role: "system", content: "You help with {{topic}}." },
          { type: "placeholder", name: "history" },
          { type: "chatmessage", role: "user", content: "{{question}}" },
        ],
        config: {},
        labels: ["staging"],
        tags: [],
      },
    });
    const backend = new LangfusePromptBackend({ client: client(), maxRetries: 0 });
    const p = await backend.fetch("chat", "staging", { cacheTtlSeconds: 60 });
    await backend.fetch("chat", "staging");
    expect(requests).to.have.length(2);
    expect(p.chat_template).to.deep.equal([{ role: "system", content: "You help with {{topic}}." }, { placeholder: "history" }, { role: "user", content: "{{question}}" }]);
    expect(p.sampling).to.equal(undefined);
    const r = new PromptManager({ backends: [backend] }).render(p, { topic: "billing", question: "refund?" }, { history: [{ role: "assistant", content: "hello" }] });
    expect(r.messages.map((m) => m.role)).to.deep.equal(["system", "assistant", "user"]);
  });

  it("404 is prompt_not_found; 500 is prompt_store_unavailable and the manager falls back", async () => {
    route = () => ({ status: 404, body: { message: "Prompt not found" } });
    const nf = await rejection(new LangfusePromptBackend({ client: client(), maxRetries: 0 }).fetch("gone", "production"));
    expect(nf.category).to.equal("prompt_not_found");
    expect(nf.message).to.contain("'gone'");
    route = () => ({ status: 500, body: { message: "boom" } });
    const down = await rejection(new LangfusePromptBackend({ client: client(), maxRetries: 0 }).fetch("classify", "production"));
    expect(down.category).to.equal("prompt_store_unavailable");
    expect(down.message).to.contain("HTTP 500");
    const local = new InMemoryPromptBackend([{ name: "classify", label: "production", version: "local", template: "Classify: {{ topic }}" }]);
    const fallbacks: string[] = [];
    const m = new PromptManager({ backends: [new LangfusePromptBackend({ client: client(), maxRetries: 0 }), local], onFallback: (e) => fallbacks.push(e.servedBy) });
    expect((await m.fetch("classify")).version).to.equal("local");
    expect(fallbacks).to.deep.equal(["in-memory"]);
  });

  it("a refused connection is prompt_store_unavailable; malformed sampling config is prompt_config_invalid", async () => {
    // @langfuse/core clears its per-request timeout timer only when fetch resolves: after a network
    // error the timer stays armed (60 s by default) and holds the process open. A short
    // fetchTimeoutMs bounds it; the poll below checks the timer is gone soon after the failure.
    const refused = new LangfusePromptBackend({
      client: new LangfuseClient({ publicKey: "pk", secretKey: "sk", baseUrl: "http://127.0.0.1:1" }),
      maxRetries: 0,
      fetchTimeoutMs: 500,
    });
    const timers = await timersArmedBy(() => rejection(refused.fetch("classify", "production")));
    try {
      expect(timers.result.category).to.equal("prompt_store_unavailable");
      const deadline = Date.now() + 3_000;
      while (timers.pending() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(timers.pending(), "a timer armed by the failed request still holds the process open").to.equal(0);
    } finally {
      timers.stop();
    }
    route = () => ({ status: 200, body: { ...text, config: { temperature: "hot" } } });
    const bad = await rejection(new LangfusePromptBackend({ client: client(), maxRetries: 0 }).fetch("classify", "production"));
    expect(bad.category).to.equal("prompt_config_invalid");
    expect(bad.message).to.contain("temperature");
  });
});
