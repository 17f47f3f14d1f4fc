/**
 * What the Langfuse observations contain (observability §8.4.3–§8.4.7, §8.7, §5.5.4, §5.5.5),
 * from real providers (an injected fetch is the only fake) inside a graph: the failure fields
 * from the typed event, the payload the Langfuse side's own flag lets through, and the Langfuse
 * observer's own byte cap on the values it writes directly.
 */
import { expect } from "chai";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { defineState, END, field, GraphBuilder, type InvocationHooks } from "../../src/graph/index.ts";
import { providers } from "../../src/llm/index.ts";
import { OTelObserver } from "../../src/observability/index.ts";
import { LangfuseObserver, type LangfuseObserverOptions } from "../../src/observability/langfuse.ts";
import { truncationMarker } from "../../src/observability/truncation.ts";
import { createPrompt, renderPrompt, withPrompt } from "../../src/prompts/index.ts";
import { embeddingProviders, rerankProviders } from "../../src/retrieval/index.ts";
import { decodeLangfuseSpans, type RecordedObservation } from "../../harness/observability/langfuse.ts";
import { fakeFetch, type Reply } from "../llm/fake-fetch.ts";

const BASE = "https://p.example.test";
const S = defineState({ out: field.any().default(null) });
const oai = (vectors: number[][]) => ({ object: "list", model: "emb-echo", id: "emb-id", data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding })), usage: { prompt_tokens: 3, total_tokens: 3 } });
const cohere = { id: "rr-id", results: [{ index: 1, relevance_score: 0.9 }, { index: 0, relevance_score: 0.2 }], meta: { billed_units: { search_units: 1 } } };

interface Run {
  /** The provider-call observation under the one node. */
  readonly call: RecordedObservation;
  /** The provider-call observation as the Langfuse client received it (its `langfuse.observation.*` attributes). */
  readonly lfSpan: ReadableSpan | undefined;
  /** The OTel observer's provider-call span. */
  readonly span: ReadableSpan | undefined;
}

/** Run `body` as the only node, with a Langfuse observer and an OTel observer each configured on its own. */
async function run(body: () => Promise<unknown>, langfuse: Partial<LangfuseObserverOptions> = {}, otel: ConstructorParameters<typeof OTelObserver>[0] = {}): Promise<Run> {
  const lfExporter = new InMemorySpanExporter();
  const otelExporter = new InMemorySpanExporter();
  const errors: unknown[] = [];
  const lf = new LangfuseObserver({ client: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(lfExporter)] }), onError: (e) => errors.push(e), onDiagnostic: () => {}, ...langfuse });
  const ot = new OTelObserver({ spanProcessors: [new SimpleSpanProcessor(otelExporter)], onError: (e) => errors.push(e), ...otel });
  const both: InvocationHooks = {
    onInvocationStart: (i) => (lf.onInvocationStart(i), ot.onInvocationStart(i)),
    onInvocationEnd: (i, e) => (lf.onInvocationEnd(i, e), ot.onInvocationEnd(i, e)),
    onNodeEvent: (e) => (lf.onNodeEvent(e), ot.onNodeEvent(e)),
    onChildRunStart: (r) => (lf.onChildRunStart(r), ot.onChildRunStart(r)),
    onChildRunEnd: (r, e) => (lf.onChildRunEnd(r, e), ot.onChildRunEnd(r, e)),
    onMetadataAugmented: (a) => (lf.onMetadataAugmented(a), ot.onMetadataAugmented(a)),
    onTypedEvent: (e: never) => (lf.onTypedEvent(e), ot.onTypedEvent(e)),
  } as InvocationHooks;
  const g = new GraphBuilder(S).addNode("call", async () => ({ out: await body() })).addEdge("call", END).setEntry("call").compile({ name: "g" });
  await g.invoke({}, { hooks: both }).catch(() => undefined);
  await g.drain({ timeoutMs: 2000 });
  expect(errors).to.deep.equal([]);
  const [t] = decodeLangfuseSpans(lfExporter.getFinishedSpans());
  const call = t!.observations[0]!.children[0]!;
  const span = otelExporter.getFinishedSpans().find((s) => s.name === call.name);
  const lfSpan = lfExporter.getFinishedSpans().find((s) => s.name === call.name);
  return { call, span, lfSpan };
}

const embedder = (replies: Reply[]) => embeddingProviders.create("openai", { model: "emb", apiKey: "k", baseUrl: BASE, fetch: fakeFetch(replies).fetch });
const reranker = (replies: Reply[]) => rerankProviders.create("cohere", { model: "rr", apiKey: "k", baseUrl: BASE, fetch: fakeFetch(replies).fetch });
const llm = (replies: Reply[]) => providers.create("openai", { model: "m", apiKey: "k", baseUrl: BASE, fetch: fakeFetch(replies).fetch });
const isUtf8 = (s: string): boolean => Buffer.from(s, "utf8").toString("utf8") === s;

const OK_COMPLETION = { status: 200, json: { id: "c1", object: "chat.completion", model: "m", choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } } };

describe("observability: what the Langfuse observations contain (§8.4.3–§8.4.7, §8.7)", () => {
  it("§8.4.4: a Generation whose prompt exposes a Langfuse Prompt reference is linked to that entity (name, version); without one, no link", async () => {
    // Before: the active-prompt snapshot dropped observability_entities, so no Generation was ever linked.
    const lfPrompt = { name: "classify-remote", version: 7, isFallback: false, type: "text", prompt: "c" };
    const linked = renderPrompt(createPrompt({ name: "classify", label: "production", version: "7", template: "c", observability_entities: { langfuse_prompt: lfPrompt } }));
    const plain = renderPrompt(createPrompt({ name: "classify", label: "production", version: "7", template: "c" }));
    const call = (r: typeof linked) => () => withPrompt(r, () => llm([OK_COMPLETION]).complete([{ role: "user", content: "hi" }]));

    const a = await run(call(linked));
    expect(a.call.type).to.equal("generation");
    expect(a.call.metadata["prompt"]).to.include({ name: "classify", version: "7", label: "production" });
    expect([a.lfSpan?.attributes["langfuse.observation.prompt.name"], a.lfSpan?.attributes["langfuse.observation.prompt.version"]]).to.deep.equal(["classify-remote", 7]);

    const b = await run(call(plain));
    expect(b.call.metadata["prompt"]).to.include({ name: "classify" });
    expect(Object.keys(b.lfSpan?.attributes ?? {}).filter((k) => k.startsWith("langfuse.observation.prompt."))).to.deep.equal([]);

    // a fallback prompt (the SDK served its fallback) links to nothing.
    const fallback = renderPrompt(createPrompt({ name: "classify", label: "production", version: "7", template: "c", observability_entities: { langfuse_prompt: { ...lfPrompt, isFallback: true } } }));
    const c = await run(call(fallback));
    expect(c.lfSpan?.attributes["langfuse.observation.prompt.name"]).to.equal(undefined);
  });

  it("a failed embedding / rerank observation: error_type and error_message from the typed event (the vendor's type, its message verbatim)", async () => {
    // Before: error_type was the exception class (LlmProviderError) read off the span.
    const failure = { status: 503, json: { error: { type: "ServiceUnavailableError", message: "the endpoint returned 503" } } };
    for (const body of [() => embedder([failure]).embed(["a", "b"]), () => reranker([failure]).rerank("q", ["d0", "d1"])]) {
      const { call } = await run(body);
      expect([call.level, call.statusMessage, call.metadata["error_type"], call.metadata["error_message"], call.output]).to.deep.equal(["ERROR", "provider_unavailable", "ServiceUnavailableError", "the endpoint returned 503", null]);
    }
  });

  it("a failed Generation carries error_type / error_message too (§8.4.2 error mapping, the LLM counterpart of §8.4.5)", async () => {
    // Before: a failed Generation had level / statusMessage only.
    const { call } = await run(() => llm([{ status: 429, json: { error: { type: "RateLimitError", message: "slow down" } } }]).complete([{ role: "user", content: "hi" }]));
    expect([call.type, call.level, call.statusMessage, call.metadata["error_type"], call.metadata["error_message"]]).to.deep.equal(["generation", "ERROR", "provider_rate_limit", "RateLimitError", "slow down"]);
  });

  it("error_message is cut by the Langfuse observer's own payloadByteCap (§5.5.5 applied directly, §8.7), whatever the OTel observer's cap", async () => {
    // Before: the message was written uncut. A multi-byte filler makes the code-point boundary matter.
    const message = "é".repeat(600); // 1,200 bytes
    const failure = { status: 503, json: { error: { type: "ServiceUnavailableError", message } } };
    const { call, span } = await run(() => embedder([failure]).embed(["a"]), { payloadByteCap: 300 }, { payloadByteCap: 65_536 });
    const cut = call.metadata["error_message"] as string;
    const marker = truncationMarker(Buffer.byteLength(message, "utf8"));
    expect(cut.endsWith(marker)).to.equal(true);
    expect(Buffer.byteLength(cut, "utf8")).to.be.at.most(300);
    expect(isUtf8(cut) && message.startsWith(cut.slice(0, -marker.length))).to.equal(true);
    expect(call.metadata["error_type"]).to.equal("ServiceUnavailableError");
    // The OTel side records its exception event as raised (its cap governs payload attributes only).
    expect(span!.events.find((e) => e.name === "exception")!.attributes!["exception.message"]).to.equal(message);
    // The other way round: a small OTel cap does not cut the Langfuse side's message.
    const wide = await run(() => embedder([failure]).embed(["a"]), {}, { payloadByteCap: 300 });
    expect(wide.call.metadata["error_message"]).to.equal(message);
  });

  it("an Embedding observation: input strings and output vectors only with the Langfuse flag off; vectors past the cap become the raw cut string", async () => {
    // Before: output stayed unset (vectors are not span attributes, §5.5.8).
    const ok = { status: 200, json: oai([[1, 2], [3, 4]]) } as const;
    const on = await run(() => embedder([ok]).embed(["a", "b"]), { disableProviderPayload: false });
    expect([on.call.input, on.call.output]).to.deep.equal([["a", "b"], [[1, 2], [3, 4]]]);
    expect(on.span!.attributes).to.not.have.any.keys("openarmature.embedding.input.strings");
    const off = await run(() => embedder([ok]).embed(["a", "b"]));
    expect([off.call.input, off.call.output]).to.deep.equal([null, null]);
    const big = Array.from({ length: 80 }, (_, i) => [i + 0.123456789, i + 0.987654321]);
    const capped = await run(() => embedder([{ status: 200, json: oai(big) }]).embed(big.map(() => "s")), { disableProviderPayload: false, payloadByteCap: 512 });
    const out = capped.call.output as string;
    expect(typeof out).to.equal("string");
    expect(out.endsWith(truncationMarker(Buffer.byteLength(JSON.stringify(big), "utf8")))).to.equal(true);
    expect(Buffer.byteLength(out, "utf8")).to.be.at.most(512);
  });

  it("a Retriever observation's input is {query, documents}, its output the scored results (§8.4.7)", async () => {
    // Before: input was the query alone.
    const { call } = await run(() => reranker([{ status: 200, json: cohere }]).rerank("123", ["d0", "d1"]), { disableProviderPayload: false });
    expect(call.input).to.deep.equal({ query: "123", documents: ["d0", "d1"] });
    expect(call.output).to.deep.equal([{ index: 1, relevance_score: 0.9 }, { index: 0, relevance_score: 0.2 }]);
  });

  it("a Langfuse cap below the §5.5.5 minimum (256 bytes) is refused at construction, naming the Langfuse observer", () => {
    // Before: the private OTel observer's RangeError named OTelObserver, an object the caller never built.
    const tp = new BasicTracerProvider();
    expect(() => new LangfuseObserver({ client: tp, payloadByteCap: 255, onDiagnostic: () => {} })).to.throw(RangeError, /^LangfuseObserver: payloadByteCap must be an integer >= 256/);
    expect(() => new LangfuseObserver({ client: tp, payloadByteCap: 256, onDiagnostic: () => {} })).to.not.throw();
  });

  it("the Langfuse side's disable_provider_payload is independent of the OTel side's, both ways (§8.9)", async () => {
    const ok = { status: 200, json: oai([[1, 2]]) } as const;
    const otelOnly = await run(() => embedder([ok]).embed(["a"]), {}, { disableProviderPayload: false });
    expect(otelOnly.span!.attributes["openarmature.embedding.input.strings"]).to.equal('["a"]');
    expect([otelOnly.call.input, otelOnly.call.output]).to.deep.equal([null, null]);
    const langfuseOnly = await run(() => embedder([ok]).embed(["a"]), { disableProviderPayload: false }, {});
    expect(langfuseOnly.span!.attributes).to.not.have.any.keys("openarmature.embedding.input.strings");
    expect([langfuseOnly.call.input, langfuseOnly.call.output]).to.deep.equal([["a"], [[1, 2]]]);
  });
});
