import { expect } from "chai";
import { providers, type Message } from "../../src/llm/index.ts";
import { fakeFetch, rejection, type Reply } from "./fake-fetch.ts";
import { geminiCategory } from "../../src/llm/gemini/errors.ts";

const weather = { name: "get_weather", description: "Weather.", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } };

function gemini(replies: Reply[]) {
  const f = fakeFetch(replies);
  return { provider: providers.create("gemini", { model: "gemini-test", apiKey: "gk-secret", fetch: f.fetch }), requests: f.requests };
}
const candidate = (parts: unknown[], finishReason = "STOP") => ({ candidates: [{ content: { role: "model", parts }, finishReason }], usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 2, totalTokenCount: 6 } });

describe("llm: Gemini mapping", () => {
  it("puts the model in the URL, the key in x-goog-api-key, tools under functionDeclarations, sampling under generationConfig", async () => {
    const { provider, requests } = gemini([{ status: 200, json: candidate([{ functionCall: { name: "get_weather", id: "c2", args: { city: "Rome" } }, thoughtSignature: "sig" }]) }]);
    const messages: Message[] = [
      { role: "system", content: "Be brief." },
      { role: "user", content: "Weather?" },
      { role: "assistant", content: null, tool_calls: [{ id: "c1", name: "get_weather", arguments: { city: "Oslo" } }] },
      { role: "tool", tool_call_id: "c1", content: "cold" },
    ];
    const r = await provider.complete(messages, { tools: [weather], toolChoice: { type: "tool", name: "get_weather" }, config: { max_tokens: 32, stop_sequences: ["X"] } });
    expect(r.finish_reason).to.equal("tool_calls");
    expect(r.message.tool_calls).to.deep.equal([{ id: "c2", name: "get_weather", arguments: { city: "Rome" }, signature: "sig" }]);
    const req = requests[0]!;
    expect(req.url).to.equal("https://generativelanguage.googleapis.com/v1beta/models/gemini-test:generateContent");
    expect(req.headers["x-goog-api-key"]).to.equal("gk-secret");
    const body = JSON.parse(req.body!);
    expect(body).to.not.have.property("model");
    expect(body.systemInstruction).to.deep.equal({ parts: [{ text: "Be brief." }] });
    expect(body.tools[0].functionDeclarations[0].parameters).to.deep.equal(weather.parameters);
    expect(body.toolConfig).to.deep.equal({ functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["get_weather"] } });
    expect(body.generationConfig).to.deep.equal({ maxOutputTokens: 32, stopSequences: ["X"] });
    expect(body.contents.slice(1)).to.deep.equal([
      { role: "model", parts: [{ functionCall: { name: "get_weather", id: "c1", args: { city: "Oslo" } } }] },
      { role: "user", parts: [{ functionResponse: { name: "get_weather", id: "c1", response: { result: "cold" } } }] },
    ]);
  });

  it("sends responseJsonSchema for structured output and parses the text", async () => {
    const schema = { type: "object", properties: { v: { type: "integer" } }, required: ["v"] };
    const { provider, requests } = gemini([{ status: 200, json: candidate([{ text: '{"v":3}' }]) }]);
    const r = await provider.complete([{ role: "user", content: "go" }], { responseSchema: schema });
    expect(r.parsed).to.deep.equal({ v: 3 });
    expect(JSON.parse(requests[0]!.body!).generationConfig).to.deep.equal({ responseMimeType: "application/json", responseJsonSchema: schema });
  });

  it("maps errors and refuses streaming pre-send", async () => {
    const { provider, requests } = gemini([{ status: 429, json: { error: { code: 429, message: "quota", status: "RESOURCE_EXHAUSTED" } } }]);
    expect((await rejection(provider.complete([{ role: "user", content: "hi" }], { stream: true }))).category).to.equal("provider_invalid_request");
    expect(requests).to.have.length(0);
    const e = await rejection(provider.complete([{ role: "user", content: "hi" }]));
    expect([e.category, e.message]).to.deep.equal(["provider_rate_limit", "quota"]);
  });

  it("strips reasoning another provider produced (§3.1.7): signed thinking, redacted thinking", async () => {
    const { provider, requests } = gemini([{ status: 200, json: candidate([{ text: "ok" }]) }]);
    await provider.complete([
      { role: "user", content: "?" },
      { role: "assistant", content: [{ type: "thinking", text: "claude", signature: "a-sig" }, { type: "redacted_thinking", data: "blob" }, { type: "thinking", text: "summary" }, { type: "text", text: "t", signature: "g-sig" }] },
      { role: "user", content: "again" },
    ]);
    expect(JSON.parse(requests[0]!.body!).contents[1].parts).to.deep.equal([{ text: "summary", thought: true }, { text: "t", thoughtSignature: "g-sig" }]);
  });

  it("a 403 is a content-part rejection only when it names the file the model could not read (§8.3.3)", () => {
    const words = (message: string) => `403 ${message} permission_denied`.toLowerCase();
    expect(geminiCategory(403, words("You do not have permission to access the File https://example.com/a.jpg or it may not exist."))).to.equal("provider_unsupported_content_block");
    expect(geminiCategory(403, words("The caller does not have permission"))).to.equal("provider_authentication");
    expect(geminiCategory(403, words("Method doesn't allow unregistered callers (callers without established identity)."))).to.equal("provider_authentication");
  });
});

describe("llm: Gemini streaming (opt-in)", () => {
  it("streamGenerateContent chunks assemble into the Response the non-streamed call returns", async () => {
    const f = fakeFetch([
      {
        sse: [
          { candidates: [{ content: { role: "model", parts: [{ text: "Think", thought: true }] } }] },
          { candidates: [{ content: { role: "model", parts: [{ text: "ing.", thought: true }, { text: "Hel" }] } }] },
          { candidates: [{ content: { role: "model", parts: [{ text: "lo" }] }, finishReason: "STOP" }], usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 2, totalTokenCount: 6 } },
        ],
      },
    ]);
    const p = providers.create("gemini", { model: "gemini-test", fetch: f.fetch, capabilities: { streaming: true } });
    const seen: string[] = [];
    const r = await p.complete([{ role: "user", content: "hi" }], { stream: true, onEvent: (e) => seen.push(e.type) });
    expect(f.requests[0]!.url).to.equal("https://generativelanguage.googleapis.com/v1beta/models/gemini-test:streamGenerateContent?alt=sse");
    expect(seen).to.deep.equal(["start", "reasoning_delta", "reasoning_delta", "text_delta", "text_delta", "done"]);
    const atomic = await gemini([{ status: 200, json: candidate([{ text: "Thinking.", thought: true }, { text: "Hello" }]) }]).provider.complete([{ role: "user", content: "hi" }]);
    expect([r.message, r.finish_reason, r.usage]).to.deep.equal([atomic.message, atomic.finish_reason, atomic.usage]);
  });
});
