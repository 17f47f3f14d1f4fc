/**
 * Which structured-output path a call takes on each mapping (llm-provider §8.1.5 / §8.1.5.1,
 * §8.2.5 / §8.2.5.1, §8.3.5 / §8.3.5.1), what it puts on the wire, and the capability pre-check
 * for image input (§7 `provider_unsupported_content_block`) on every mapping.
 */
import { expect } from "chai";
import { anthropicMessagesMapping, geminiMapping, HttpProvider, openAiChatMapping, providers, StructuredOutputInvalid, type Message, type PreparedCall, type ProviderCapabilities } from "../../src/llm/index.ts";
import { augmentForSchema, schemaDirective, systemText } from "../../src/llm/structured-output.ts";
import { chatBody, fakeFetch, type Reply, rejection } from "./fake-fetch.ts";

const schema = { type: "object", properties: { value: { type: "integer" } }, required: ["value"], additionalProperties: false };
const looseSchema = { type: "object", properties: { value: { type: "integer" }, note: { type: "string" } }, required: ["value"] };
const ask: Message[] = [{ role: "user", content: "Generate." }];
const weather = { name: "get_weather", description: "Weather.", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } };

function make(name: "openai" | "anthropic" | "gemini", replies: Reply[], capabilities: ProviderCapabilities = {}) {
  const f = fakeFetch(replies);
  const provider = providers.create(name, { model: `${name}-model`, apiKey: "k-secret", fetch: f.fetch, capabilities }) as HttpProvider;
  return { provider, requests: f.requests, body: (i = 0) => JSON.parse(f.requests[i]!.body!) as Record<string, unknown> };
}
const anthropicText = (text: string) => ({ type: "message", id: "m", model: "anthropic-model", role: "assistant", content: [{ type: "text", text }], stop_reason: "end_turn", usage: { input_tokens: 5, output_tokens: 2 } });
const geminiText = (text: string) => ({ candidates: [{ content: { role: "model", parts: [{ text }] }, finishReason: "STOP" }], usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 2, totalTokenCount: 6 } });

describe("llm: OpenAI structured output — native strict flag (§8.1.5)", () => {
  it("sends strict: true for a strict-eligible schema and strict: false otherwise, validating either way", async () => {
    const { provider, body } = make("openai", [
      { status: 200, json: chatBody('{"value":42}') },
      { status: 200, json: chatBody('{"value":7}') },
    ]);
    expect((await provider.complete(ask, { responseSchema: schema })).parsed).to.deep.equal({ value: 42 });
    expect((await provider.complete(ask, { responseSchema: looseSchema })).parsed).to.deep.equal({ value: 7 });
    const [strict, loose] = [body(0)["response_format"], body(1)["response_format"]] as Array<{ json_schema: Record<string, unknown> }>;
    expect(strict.json_schema["strict"]).to.equal(true);
    expect(strict.json_schema["schema"]).to.deep.equal(schema);
    expect(loose.json_schema["strict"]).to.equal(false);
    expect(loose.json_schema["schema"]).to.deep.equal(looseSchema);
  });

  it("sends strict: false for a schema using a keyword outside the strict subset", async () => {
    const withMinLength = { type: "object", properties: { s: { type: "string", minLength: 2 } }, required: ["s"], additionalProperties: false };
    const { provider, body } = make("openai", [{ status: 200, json: chatBody('{"s":"ab"}') }]);
    await provider.complete(ask, { responseSchema: withMinLength });
    expect((body()["response_format"] as { json_schema: { strict: boolean } }).json_schema.strict).to.equal(false);
  });
});

describe("llm: prompt-augmentation fallback, static arm (§8.1.5.1)", () => {
  const directive = schemaDirective(schema);

  it("OpenAI without native response_format and no system message: no response_format, the directive appended as a trailing system message, the caller's list untouched", async () => {
    const { provider, body } = make("openai", [{ status: 200, json: chatBody('{"value":42}') }], { nativeStructuredOutput: false });
    const messages: Message[] = structuredClone(ask);
    const r = await provider.complete(messages, { responseSchema: schema });
    expect(r.parsed).to.deep.equal({ value: 42 });
    expect(messages).to.deep.equal(ask);
    const sent = body();
    expect(sent).to.not.have.property("response_format");
    // Appended (§8.1.5.1 step 1), not prepended: a leading system message here is the old, wrong placement.
    expect(sent["messages"]).to.deep.equal([
      { role: "user", content: "Generate." },
      { role: "system", content: directive },
    ]);
    expect(directive).to.contain("JSON").and.contain('"required":["value"]');
  });

  it("OpenAI fallback appends the directive to the end of an existing system message instead of adding a second one", async () => {
    const { provider, body } = make("openai", [{ status: 200, json: chatBody('{"value":1}') }], { nativeStructuredOutput: false });
    await provider.complete([{ role: "system", content: "Be terse." }, ...ask], { responseSchema: schema });
    expect(body()["messages"]).to.deep.equal([
      { role: "system", content: `Be terse.\n\n${directive}` },
      { role: "user", content: "Generate." },
    ]);
  });

  it("OpenAI fallback under reask: every attempt's directive follows the whole working transcript", async () => {
    const { provider, body } = make("openai", [
      { status: 200, json: chatBody('{"value":"x"}') },
      { status: 200, json: chatBody('{"value":2}') },
    ], { nativeStructuredOutput: false });
    const r = await provider.complete(ask, { responseSchema: schema, retry: { maxAttempts: 2, backoff: () => 0, reask: (e) => `fix: ${e.output_content}` } });
    expect(r.parsed).to.deep.equal({ value: 2 });
    expect(body(1)["messages"]).to.deep.equal([
      { role: "user", content: "Generate." },
      { role: "assistant", content: '{"value":"x"}' },
      { role: "user", content: 'fix: {"value":"x"}' },
      { role: "system", content: directive },
    ]);
  });

  it("OpenAI fallback: a non-conforming reply raises structured_output_invalid; an extras response_format rides untouched", async () => {
    const { provider, body } = make("openai", [{ status: 200, json: chatBody('{"value":"x"}') }], { nativeStructuredOutput: false });
    const extrasFormat = { type: "json_object" };
    const e = await rejection(provider.complete(ask, { responseSchema: schema, config: { extras: { response_format: extrasFormat } } }));
    expect(e).to.be.instanceOf(StructuredOutputInvalid);
    expect(e.category).to.equal("structured_output_invalid");
    expect(body()["response_format"]).to.deep.equal(extrasFormat);
  });

  it("Anthropic with caller tools takes prompt augmentation (the schema in system, the caller's tools as sent)", async () => {
    const { provider, body } = make("anthropic", [{ status: 200, json: anthropicText('{"value":3}') }], { nativeStructuredOutput: false });
    const r = await provider.complete([{ role: "system", content: "Sys." }, ...ask], { responseSchema: schema, tools: [weather], config: { max_tokens: 32 } });
    expect(r.parsed).to.deep.equal({ value: 3 });
    const sent = body();
    expect(sent).to.not.have.property("output_config");
    expect(sent).to.not.have.property("tool_choice");
    expect((sent["tools"] as Array<{ name: string }>).map((t) => t.name)).to.deep.equal(["get_weather"]);
    expect(sent["system"]).to.equal(`Sys.\n\n${directive}`);
    expect(sent["messages"]).to.deep.equal([{ role: "user", content: "Generate." }]);
  });

  it("Anthropic prompt augmentation without a caller system message: the directive is the whole system field", async () => {
    const { provider, body } = make("anthropic", [{ status: 200, json: anthropicText('{"value":3}') }], { nativeStructuredOutput: false });
    await provider.complete(ask, { responseSchema: schema, tools: [weather], config: { max_tokens: 32 } });
    expect(body()["system"]).to.equal(directive);
    expect(body()["messages"]).to.deep.equal([{ role: "user", content: "Generate." }]);
  });

  it("Anthropic without caller tools coerces through the forced synthetic tool (the preferred fallback)", async () => {
    const { provider, body } = make("anthropic", [{ status: 200, json: { ...anthropicText(""), content: [{ type: "tool_use", id: "t", name: "structured_output", input: { value: 5 } }], stop_reason: "tool_use" } }], { nativeStructuredOutput: false });
    const r = await provider.complete(ask, { responseSchema: schema, config: { max_tokens: 32 } });
    expect(r.parsed).to.deep.equal({ value: 5 });
    const sent = body();
    expect(sent).to.not.have.property("system");
    expect(sent["tool_choice"]).to.deep.equal({ type: "tool", name: "structured_output" });
    expect((sent["tools"] as Array<{ input_schema: unknown }>)[0]!.input_schema).to.deep.equal(schema);
  });

  it("Gemini without native support: the directive in systemInstruction, no responseMimeType / responseJsonSchema", async () => {
    const { provider, body } = make("gemini", [{ status: 200, json: geminiText('{"value":9}') }], { nativeStructuredOutput: false });
    const r = await provider.complete(ask, { responseSchema: schema, config: { max_tokens: 16 } });
    expect(r.parsed).to.deep.equal({ value: 9 });
    const sent = body();
    expect(sent["generationConfig"]).to.deep.equal({ maxOutputTokens: 16 });
    expect(sent["systemInstruction"]).to.deep.equal({ parts: [{ text: directive }] });
    expect(sent["contents"]).to.deep.equal([{ role: "user", parts: [{ text: "Generate." }] }]);
  });

  it("Gemini fallback appends the directive to the end of the caller's system instruction", async () => {
    const { provider, body } = make("gemini", [{ status: 200, json: geminiText('{"value":9}') }], { nativeStructuredOutput: false });
    await provider.complete([{ role: "system", content: "Be terse." }, ...ask], { responseSchema: schema });
    expect(body()["systemInstruction"]).to.deep.equal({ parts: [{ text: `Be terse.\n\n${directive}` }] });
  });

  // §5 admits one system message, first, so several never reach a mapping through complete(); a
  // mapping handed them directly still puts the directive after all of the system text.
  it("with several system messages (a mapping called directly) the directive follows all of them", () => {
    const call: PreparedCall = {
      model: "m",
      messages: [{ role: "system", content: "A." }, { role: "system", content: "B." }, ...ask],
      responseSchema: schema,
      structuredOutput: "fallback",
      config: { max_tokens: 8 },
      tools: [weather],
      stream: false,
    };
    const endpoint = { baseUrl: "https://example.test/v1" };
    const wire = (m: typeof openAiChatMapping) => JSON.parse(m.buildRequest(call, endpoint).body!) as Record<string, unknown>;
    expect(wire(openAiChatMapping)["messages"]).to.deep.equal([{ role: "system", content: "A." }, { role: "system", content: `B.\n\n${directive}` }, { role: "user", content: "Generate." }]);
    expect(wire(anthropicMessagesMapping)["system"]).to.equal(`A.\n\nB.\n\n${directive}`);
    expect(wire(geminiMapping)["systemInstruction"]).to.deep.equal({ parts: [{ text: `A.\n\nB.\n\n${directive}` }] });
    expect(augmentForSchema(call.messages, schema).map((m) => m.role)).to.deep.equal(["system", "system", "user"]);
    expect(systemText(call.messages)).to.equal("A.\n\nB.");
    expect(systemText(ask)).to.equal(undefined);
    expect(call.messages).to.have.length(3);
  });

  it("with the capability present every mapping takes its native path", async () => {
    const o = make("openai", [{ status: 200, json: chatBody('{"value":1}') }]);
    await o.provider.complete(ask, { responseSchema: schema });
    expect(o.body()["messages"]).to.deep.equal([{ role: "user", content: "Generate." }]);
    expect(o.body()).to.have.property("response_format");
    const a = make("anthropic", [{ status: 200, json: anthropicText('{"value":1}') }]);
    await a.provider.complete(ask, { responseSchema: schema, config: { max_tokens: 8 } });
    expect(a.body()["output_config"]).to.deep.equal({ format: { type: "json_schema", schema } });
    expect(a.body()).to.not.have.property("system");
    const g = make("gemini", [{ status: 200, json: geminiText('{"value":1}') }]);
    await g.provider.complete(ask, { responseSchema: schema });
    expect(g.body()["generationConfig"]).to.deep.equal({ responseMimeType: "application/json", responseJsonSchema: schema });
    expect(g.body()).to.not.have.property("systemInstruction");
  });

  it("the chosen path is inspectable before sending and overridable per call", async () => {
    const native = make("openai", [{ status: 200, json: chatBody('{"value":1}') }]);
    const degraded = make("openai", [{ status: 200, json: chatBody('{"value":1}') }], { nativeStructuredOutput: false });
    expect(native.provider.prepare(ask, { responseSchema: schema }).structuredOutput).to.equal("native");
    expect(degraded.provider.prepare(ask, { responseSchema: schema }).structuredOutput).to.equal("fallback");
    expect(native.provider.prepare(ask, { responseSchema: schema, structuredOutput: "fallback" }).structuredOutput).to.equal("fallback");
    expect(native.provider.prepare(ask, {}).structuredOutput).to.equal(undefined);
    await native.provider.complete(ask, { responseSchema: schema, structuredOutput: "fallback" });
    expect(native.body()).to.not.have.property("response_format");
    await degraded.provider.complete(ask, { responseSchema: schema, structuredOutput: "native" });
    expect(degraded.body()).to.have.property("response_format");
    const e = await rejection(native.provider.complete(ask, { responseSchema: schema, structuredOutput: "prompt" as "native" }));
    expect([e.category, e.message.startsWith("structuredOutput")]).to.deep.equal(["provider_invalid_request", true]);
  });
});

describe("llm: image input the model lacks (§7 provider_unsupported_content_block)", () => {
  const withImage: Message[] = [{ role: "user", content: [{ type: "image", source: { type: "url", url: "https://example.com/x.png" } }, { type: "text", text: "describe" }] }];

  for (const name of ["openai", "anthropic", "gemini"] as const) {
    it(`${name}: refused pre-send when constructed with imageInput: false; text-only calls still go out`, async () => {
      const reply = name === "openai" ? chatBody("ok") : name === "anthropic" ? anthropicText("ok") : geminiText("ok");
      const { provider, requests } = make(name, [{ status: 200, json: reply }], { imageInput: false });
      const e = await rejection(provider.complete(withImage, { config: { max_tokens: 8 } }));
      expect(e.category).to.equal("provider_unsupported_content_block");
      expect(e.message).to.contain(`${name}-model`).and.contain("image");
      expect(requests).to.have.length(0);
      await provider.complete([{ role: "user", content: [{ type: "text", text: "hi" }] }], { config: { max_tokens: 8 } });
      expect(requests).to.have.length(1);
    });
  }

  it("every mapping maps the provider's own image rejection to the same category (post-receive arm)", async () => {
    const rejections = {
      openai: { error: { message: "This model does not support image inputs.", type: "invalid_request_error", code: "image_content_not_supported" } },
      anthropic: { type: "error", error: { type: "invalid_request_error", message: "This model does not support image input." } },
      gemini: { error: { code: 400, message: "Unsupported image part for this model.", status: "INVALID_ARGUMENT" } },
    };
    for (const [name, json] of Object.entries(rejections) as Array<[keyof typeof rejections, unknown]>) {
      const { provider } = make(name, [{ status: 400, json }]);
      const e = await rejection(provider.complete(withImage, { config: { max_tokens: 8 } }));
      expect([name, e.category, e.status]).to.deep.equal([name, "provider_unsupported_content_block", 400]);
    }
  });
});
