/**
 * Tier 1, the unit checklist: one meta-test over the native providers the registry itself lists
 * (not a hand-kept count). Registering a native provider without its checklist entry, or with fewer
 * than three cassettes, fails here.
 */
import { expect } from "chai";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { providers, type Message } from "../../src/llm/index.ts";
import { fakeFetch, chatBody } from "./fake-fetch.ts";

interface Checklist {
  /** The default endpoint of a chat call with model `m`. */
  readonly endpoint: (model: string) => string;
  /** The header carrying the API key, and its value for key `k`. */
  readonly auth: readonly [string, (key: string) => string];
  /** The tool definitions' JSON Schemas at the provider's own JSON path. */
  readonly toolSchemas: (body: Record<string, unknown>) => unknown;
  /** A minimal successful body, to let the call complete. */
  readonly okBody: unknown;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- reading wire JSON by path
type J = Record<string, any>;
const CHECKLIST: Readonly<Record<string, Checklist>> = {
  openai: {
    endpoint: () => "https://api.openai.com/v1/chat/completions",
    auth: ["authorization", (k) => `Bearer ${k}`],
    toolSchemas: (b) => (b as J)["tools"].map((t: J) => t["function"]["parameters"]),
    okBody: chatBody("ok"),
  },
  anthropic: {
    endpoint: () => "https://api.anthropic.com/v1/messages",
    auth: ["x-api-key", (k) => k],
    toolSchemas: (b) => (b as J)["tools"].map((t: J) => t["input_schema"]),
    okBody: { type: "message", role: "assistant", content: [{ type: "text", text: "ok" }], stop_reason: "end_turn", usage: { input_tokens: 1, output_tokens: 1 } },
  },
  gemini: {
    endpoint: (m) => `https://generativelanguage.googleapis.com/v1beta/models/${m}:generateContent`,
    auth: ["x-goog-api-key", (k) => k],
    toolSchemas: (b) => (b as J)["tools"][0]["functionDeclarations"].map((f: J) => f["parameters"]),
    okBody: { candidates: [{ content: { role: "model", parts: [{ text: "ok" }] }, finishReason: "STOP" }] },
  },
};

const CASSETTES = readdirSync(fileURLToPath(new URL("./cassettes/", import.meta.url))).filter((f) => f.endsWith(".json"));
const tool = { name: "lookup", description: "Look up.", parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] } };
const messages: Message[] = [{ role: "user", content: "hi" }];

describe("llm: unit checklist over every native provider in the registry", () => {
  const natives = providers.entries().filter((e) => e.kind === "native");
  it("lists the three native providers", () => expect(natives.map((e) => e.name).sort()).to.deep.equal(["anthropic", "gemini", "openai"]));
  for (const entry of natives) {
    describe(entry.name, () => {
      it("has a checklist entry", () => expect(CHECKLIST, `add ${entry.name} to CHECKLIST`).to.have.property(entry.name));
      const c = CHECKLIST[entry.name];
      if (!c) return;
      it("identity, serializable request, API key, default endpoint and tool schemas at the provider's JSON path", async () => {
        const f = fakeFetch([{ status: 200, json: c.okBody }]);
        const p = entry.create({ model: "model-x", apiKey: "key-123", fetch: f.fetch });
        expect([p.name, p.api, p.model]).to.deep.equal([entry.name, entry.api, "model-x"]);
        await p.complete(messages, { tools: [tool], config: { max_tokens: 16 } });
        const req = f.requests[0]!;
        const body = JSON.parse(req.body!) as Record<string, unknown>;
        expect(JSON.stringify(body)).to.equal(req.body);
        expect(req.headers[c.auth[0]]).to.equal(c.auth[1]("key-123"));
        expect(req.url).to.equal(c.endpoint("model-x"));
        expect(req.headers["content-type"]).to.equal("application/json");
        expect(c.toolSchemas(body)).to.deep.equal([tool.parameters]);
      });
      it("has at least three cassettes", () => {
        const mine = CASSETTES.filter((f) => new RegExp(`(^|_)${entry.name}_`).test(f));
        expect(mine.length, `cassettes for ${entry.name}: ${mine.join(", ")}`).to.be.at.least(3);
      });
    });
  }
});

describe("llm: OpenAI-compatible preset obligations", () => {
  // The lighter preset obligation: the cassettes showing the server's wire format parses
  // (simple text, a tool call, an auth error), for every preset the registry lists.
  const presets = providers.entries().filter((e) => e.kind === "preset");
  it("lists the presets", () => expect(presets.map((e) => e.name).sort()).to.deep.equal(["llamacpp", "lmstudio", "ollama", "vllm"]));
  for (const entry of presets) {
    it(`${entry.name}: simple_text, tool_call_single and error_auth_401 cassettes`, () => {
      for (const scenario of ["simple_text", "tool_call_single", "error_auth_401"]) expect(CASSETTES, `${entry.name}_${scenario}.json`).to.include(`${entry.name}_${scenario}.json`);
    });
  }
});
