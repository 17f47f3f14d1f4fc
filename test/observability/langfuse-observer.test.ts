import { expect } from "chai";
import { createHash } from "node:crypto";
import { ROOT_CONTEXT, trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { getLangfuseTracerProvider } from "@langfuse/tracing";
import { LANGFUSE_TRACER_NAME } from "@langfuse/core";
import { SeverityNumber } from "@opentelemetry/api-logs";
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor } from "@opentelemetry/sdk-logs";
import { defineState, END, field, GraphBuilder } from "../../src/graph/index.ts";
import { OTelObserver } from "../../src/observability/index.ts";
import {
  LANGFUSE_DIAGNOSTICS,
  LangfuseObserver,
  LangfuseProviderIsolationError,
  isGlobalTracerProvider,
  LLM_SPAN,
  langfuseTraceId,
  renderInvocation,
  withInvocationLabel,
  type LangfuseDiagnostic,
  type LangfuseObserverOptions,
} from "../../src/observability/langfuse.ts";
import { renderToolSpan, TOOL_SPAN_NAME, toolSpanAttributes } from "../../src/observability/tool-spans.ts";
import type { ToolCallEvent, ToolCallFailedEvent } from "../../src/llm/tool-events.ts";
import { decodeLangfuseSpans, isLangfuseObservationSpan, isPayloadBearing } from "../../harness/observability/langfuse.ts";

const S = defineState({ v: field.int().default(0), secret: field.string().default("") });
const CREDS = { publicKey: "pk-lf-test", secretKey: "sk-lf-SECRET-never-exported", baseUrl: "http://langfuse.invalid" };

function graph(fail = false) {
  return new GraphBuilder(S)
    .addNode("a", () => ({ v: 1, secret: "the user's private text" }))
    .addNode("b", () => {
      if (fail) throw new Error("boom");
      return { v: 2 };
    })
    .addEdge("a", "b")
    .addEdge("b", END)
    .setEntry("a")
    .compile({ name: "g" });
}

/** A Langfuse observer in mode (b) whose isolated provider records into an in-memory exporter. */
function recording(options: Partial<LangfuseObserverOptions> = {}) {
  const exporter = new InMemorySpanExporter();
  const errors: unknown[] = [];
  const diagnostics: LangfuseDiagnostic[] = [];
  const observer = new LangfuseObserver({
    credentials: CREDS,
    spanProcessor: new SimpleSpanProcessor(exporter),
    onError: (e) => errors.push(e),
    onDiagnostic: (d) => diagnostics.push(d),
    ...options,
  });
  return { exporter, observer, errors, diagnostics, traces: () => decodeLangfuseSpans(exporter.getFinishedSpans()) };
}

describe("observability: the Langfuse observer (§8) and provider isolation (§6)", () => {
  // Global OTel state is set by some cases here: restored after every one.
  afterEach(() => {
    trace.disable();
  });

  it("the default configuration sends nothing — no payload, no API key — to the global provider", async () => {
    const global = new InMemorySpanExporter();
    const globalProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(global)] });
    trace.setGlobalTracerProvider(globalProvider);
    const langfuseWire = new InMemorySpanExporter();
    // Mode (b) as a user writes it: credentials, the real @langfuse/otel processor (its exporter injected).
    const observer = new LangfuseObserver({ credentials: CREDS, exporter: langfuseWire });
    const otel = new OTelObserver({ spanProcessors: [new SimpleSpanProcessor(new InMemorySpanExporter())] });
    const g = new GraphBuilder(S)
      .addNode("a", () => ({ v: 1, secret: "the user's private text" }))
      .addEdge("a", END)
      .setEntry("a")
      .compile({ name: "g", hooks: otel });
    await g.invoke({}, { hooks: observer });
    await observer.forceFlush();
    expect(observer.isolated).to.equal(true);
    expect(global.getFinishedSpans()).to.deep.equal([]);
    const sent = langfuseWire.getFinishedSpans();
    expect(sent.filter(isLangfuseObservationSpan)).to.have.length(1);
    expect(sent.filter(isPayloadBearing)).to.deep.equal([]);
    const everything = JSON.stringify(sent.map((s) => s.attributes));
    expect(everything).to.not.contain(CREDS.secretKey);
    expect(everything).to.not.contain("private text");
    // Neither the OTel global slot nor @langfuse/tracing's process-wide slot was written.
    expect(isGlobalTracerProvider(globalProvider)).to.equal(true);
    expect(isGlobalTracerProvider(observer.tracerProvider!)).to.equal(false);
    expect(getLangfuseTracerProvider()).to.not.equal(observer.tracerProvider);
    await observer.shutdown();
  });

  it("renders the invocation as a Trace without a root observation: id, name, stub input / output, metadata", async () => {
    const { observer, traces, errors } = recording();
    const r = await graph().invoke({}, { hooks: observer, correlationId: "corr-1", metadata: { tenantId: "acme", userId: "u-1" } });
    expect(errors).to.deep.equal([]);
    const [t, ...rest] = traces();
    expect(rest).to.deep.equal([]);
    expect(t!.id).to.equal(r.invocationId.replaceAll("-", ""));
    expect(t!.name).to.equal("a");
    expect(t!.userId).to.equal("u-1");
    expect(t!.sessionId).to.equal(undefined);
    expect(t!.input).to.deep.equal({ entry_node: "a", correlation_id: "corr-1" });
    expect(t!.output).to.deep.equal({ final_node: "b", status: "completed" });
    expect(t!.metadata).to.include({ correlation_id: "corr-1", entry_node: "a", tenantId: "acme", userId: "u-1", implementation_name: "openarmature-typescript" });
    expect(t!.observations.map((o) => [o.type, o.name, o.metadata["step"], o.metadata["correlation_id"], o.metadata["tenantId"]])).to.deep.equal([
      ["span", "a", 0, "corr-1", "acme"],
      ["span", "b", 1, "corr-1", "acme"],
    ]);
  });

  it("a non-UUID invocation id maps to the first 16 bytes of its SHA-256, the raw id kept in metadata", async () => {
    expect(langfuseTraceId("run-42")).to.equal(createHash("sha256").update("run-42").digest("hex").slice(0, 32));
    expect(langfuseTraceId("3F2504E0-4F89-41D3-9A0C-0305E82C3301")).to.equal("3f2504e04f8941d39a0c0305e82c3301");
    const { observer, traces } = recording();
    await graph().invoke({}, { hooks: observer, invocationId: "run-42" });
    expect(traces()[0]!.id).to.equal(langfuseTraceId("run-42"));
    expect(traces()[0]!.metadata["invocation_id"]).to.equal("run-42");
  });

  it("a failure: the node observation at ERROR with the category, the stub output 'failed'", async () => {
    const { observer, traces } = recording();
    await graph(true).invoke({}, { hooks: observer }).catch(() => undefined);
    const t = traces()[0]!;
    expect(t.output).to.deep.equal({ final_node: "b", status: "failed" });
    const b = t.observations.find((o) => o.name === "b")!;
    expect([b.level, b.statusMessage]).to.deep.equal(["ERROR", "node_exception"]);
  });

  it("trace input / output: the state with disableStatePayload false (capped), a hook's value first, the label as name", async () => {
    const on = recording({ disableStatePayload: false });
    await withInvocationLabel("checkout", () => graph().invoke({}, { hooks: on.observer }));
    const t = on.traces()[0]!;
    expect(t.name).to.equal("checkout");
    expect(t.input).to.deep.equal({ v: 0, secret: "" });
    expect(t.output).to.deep.equal({ v: 2, secret: "the user's private text" });
    const capped = recording({ disableStatePayload: false, payloadByteCap: 256 });
    const long = new GraphBuilder(S).addNode("a", () => ({ secret: "x".repeat(400) })).addEdge("a", END).setEntry("a").compile({ name: "long" });
    await long.invoke({}, { hooks: capped.observer });
    expect(capped.traces()[0]!.output).to.match(/…\[truncated, \d+ bytes total\]$/);
    const hooked = recording({ traceOutputFromState: (s) => ({ v: (s as { v: number }).v }), traceInputFromState: () => null });
    await graph().invoke({}, { hooks: hooked.observer });
    expect(hooked.traces()[0]!.output).to.deep.equal({ v: 2 });
    expect(hooked.traces()[0]!.input).to.have.keys("entry_node", "correlation_id");
  });

  it("mode (a): a supplied client is used as is, with a warning only when it is the global provider", async () => {
    const exporter = new InMemorySpanExporter();
    const own = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const quiet: LangfuseDiagnostic[] = [];
    const a = new LangfuseObserver({ client: { tracerProvider: own }, onDiagnostic: (d) => quiet.push(d) });
    await graph().invoke({}, { hooks: a });
    expect(quiet).to.deep.equal([]);
    expect(decodeLangfuseSpans(exporter.getFinishedSpans())).to.have.length(1);
    trace.setGlobalTracerProvider(own);
    const warned: LangfuseDiagnostic[] = [];
    new LangfuseObserver({ client: own, onDiagnostic: (d) => warned.push(d) });
    expect(warned.map((d) => [d.level, d.eventName])).to.deep.equal([["WARNING", "openarmature.langfuse.shared_provider"]]);
  });

  it("mode (b): a client handed back on a shared provider is refused when payload would flow, accepted with a warning on opt-out", () => {
    const shared = new BasicTracerProvider();
    const factory = () => ({ tracerProvider: shared });
    const base = { credentials: CREDS, spanProcessor: new SimpleSpanProcessor(new InMemorySpanExporter()), clientFactory: factory, onDiagnostic: () => {} };
    let caught: unknown;
    try {
      new LangfuseObserver({ ...base, disableProviderPayload: false });
    } catch (e) {
      caught = e;
    }
    expect(caught).to.be.instanceOf(LangfuseProviderIsolationError);
    expect((caught as LangfuseProviderIsolationError).category).to.equal("langfuse_provider_isolation_unavailable");
    expect(String((caught as Error).message)).to.not.contain(CREDS.secretKey);
    const warned: LangfuseDiagnostic[] = [];
    const ok = new LangfuseObserver({ ...base, disableStatePayload: false, acceptSharedProvider: true, onDiagnostic: (d) => warned.push(d) });
    expect([ok.isolated, ok.payloadSuppressed, warned.map((d) => d.eventName)]).to.deep.equal([false, false, ["openarmature.langfuse.shared_provider_accepted"]]);
    // No harvested payload: nothing to refuse, still a warning.
    const metaOnly: LangfuseDiagnostic[] = [];
    const free = new LangfuseObserver({ ...base, onDiagnostic: (d) => metaOnly.push(d) });
    expect([free.payloadSuppressed, metaOnly.map((d) => d.eventName)]).to.deep.equal([true, ["openarmature.langfuse.isolation_unavailable"]]);
    // A trace hook is harvested payload too (proposal 0117).
    expect(() => new LangfuseObserver({ ...base, traceOutputFromState: () => "x" })).to.throw(LangfuseProviderIsolationError);
  });

  it("mode (b), a client whose bound provider cannot be read: the payload is suppressed with a WARNING, or sent on opt-out (§6 arms)", async () => {
    // An opaque client hands out only a tracer (as @langfuse/tracing's getLangfuseTracer() does).
    const sharedExporter = new InMemorySpanExporter();
    const shared = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(sharedExporter)] });
    const opaque = () => ({ tracer: shared.getTracer(LANGFUSE_TRACER_NAME) });
    const run = async (options: Partial<LangfuseObserverOptions>) => {
      sharedExporter.reset();
      const warned: LangfuseDiagnostic[] = [];
      const observer = new LangfuseObserver({ credentials: CREDS, spanProcessor: new SimpleSpanProcessor(new InMemorySpanExporter()), clientFactory: opaque, onDiagnostic: (d) => warned.push(d), ...options });
      await graph().invoke({}, { hooks: observer }).catch(() => undefined);
      const spans = sharedExporter.getFinishedSpans();
      return { observer, warned: warned.map((d) => d.eventName), spans, traces: decodeLangfuseSpans(spans) };
    };
    const suppressed = await run({ disableStatePayload: false, traceInputFromState: () => ({ from: "hook" }) });
    expect([suppressed.observer.tracerProvider, suppressed.observer.isolated, suppressed.observer.payloadSuppressed]).to.deep.equal([undefined, false, true]);
    expect(suppressed.warned).to.deep.equal(["openarmature.langfuse.payload_suppressed"]);
    expect(suppressed.spans.filter(isLangfuseObservationSpan)).to.have.length(2);
    expect(suppressed.spans.filter(isPayloadBearing)).to.deep.equal([]);
    expect([suppressed.traces[0]!.input, suppressed.traces[0]!.output]).to.deep.equal([
      { entry_node: "a", correlation_id: suppressed.traces[0]!.metadata["correlation_id"] },
      { final_node: "b", status: "completed" },
    ]);
    expect(JSON.stringify(suppressed.spans.map((s) => s.attributes))).to.not.contain("private text");
    const none = await run({});
    expect([none.observer.payloadSuppressed, none.warned]).to.deep.equal([true, ["openarmature.langfuse.isolation_unavailable"]]);
    const accepted = await run({ disableStatePayload: false, acceptSharedProvider: true });
    expect([accepted.observer.payloadSuppressed, accepted.warned]).to.deep.equal([false, ["openarmature.langfuse.shared_provider_accepted"]]);
    expect(accepted.spans.filter(isPayloadBearing)).to.have.length(2);
    expect(accepted.traces[0]!.output).to.deep.include({ secret: "the user's private text" });
    // Mode (a) with an opaque client: nothing to read, so no warning (a MAY that needs the provider).
    const quiet: LangfuseDiagnostic[] = [];
    trace.setGlobalTracerProvider(shared);
    new LangfuseObserver({ client: { tracer: trace.getTracer(LANGFUSE_TRACER_NAME) }, onDiagnostic: (d) => quiet.push(d) });
    expect(quiet).to.deep.equal([]);
  });

  it("diagnostics go to an OTel Logs logger as WARN records named by their §7 event name", async () => {
    const exporter = new InMemoryLogRecordExporter();
    const provider = new LoggerProvider({ processors: [new SimpleLogRecordProcessor({ exporter })] });
    const observer = new LangfuseObserver({
      credentials: CREDS,
      spanProcessor: new SimpleSpanProcessor(new InMemorySpanExporter()),
      clientFactory: () => ({ tracerProvider: new BasicTracerProvider() }),
      acceptSharedProvider: true,
      disableProviderPayload: false,
      logger: provider.getLogger("test"),
    });
    expect(observer.isolated).to.equal(false);
    await provider.forceFlush();
    const records = exporter.getFinishedLogRecords();
    expect(records.map((r) => [r.severityNumber, r.severityText, r.eventName])).to.deep.equal([[SeverityNumber.WARN, "WARNING", LANGFUSE_DIAGNOSTICS.sharedProviderAccepted]]);
    expect(String(records[0]!.body)).to.contain("provider call payloads").and.not.contain(CREDS.secretKey);
  });

  it("the default configuration on a shared provider (singleton primed on the global one) sends only payload-free observations and no API key there", async () => {
    const global = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(global)] }));
    // The per-credential singleton already holds a client bound to the global provider.
    const primed = { tracerProvider: trace.getTracerProvider() };
    const warned: LangfuseDiagnostic[] = [];
    const observer = new LangfuseObserver({ credentials: CREDS, clientFactory: () => primed, onDiagnostic: (d) => warned.push(d) });
    await graph(true).invoke({}, { hooks: observer }).catch(() => undefined);
    const spans = global.getFinishedSpans();
    expect(spans.filter(isLangfuseObservationSpan)).to.have.length(2);
    expect(spans.filter(isPayloadBearing)).to.deep.equal([]);
    const everything = JSON.stringify(spans.map((s) => s.attributes));
    expect(everything).to.not.contain(CREDS.secretKey).and.not.contain("private text");
    expect(warned.map((d) => d.eventName)).to.deep.equal(["openarmature.langfuse.isolation_unavailable"]);
  });

  it("an LLM call renders one Generation: retries collapse to the terminal attempt, payload only when enabled (§8.4.3, §8.7)", () => {
    // The spans as the OTel observer emits them for a node whose complete() call retried once.
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer("t");
    const root = tracer.startSpan("openarmature.invocation", { attributes: { "openarmature.invocation_id": "run-1", "openarmature.graph.entry_node": "ask", "openarmature.correlation_id": "c" } }, undefined);
    const rootCtx = trace.setSpan(ROOT_CONTEXT, root);
    const node = tracer.startSpan("ask", { attributes: { "openarmature.node.name": "ask", "openarmature.correlation_id": "c" } }, rootCtx);
    const nodeCtx = trace.setSpan(ROOT_CONTEXT, node);
    const common = { "openarmature.llm.model": "m", "gen_ai.request.temperature": 0.2, "openarmature.llm.input.messages": '[{"content":"hi","role":"user"}]', "openarmature.prompt.name": "greet", "openarmature.prompt.version": "3" };
    const a0 = tracer.startSpan(LLM_SPAN, { attributes: { ...common, "openarmature.llm.attempt_index": 0, "openarmature.error.category": "provider_unavailable" } }, nodeCtx);
    a0.end();
    const a1 = tracer.startSpan(LLM_SPAN, { attributes: { ...common, "openarmature.llm.attempt_index": 1, "openarmature.llm.output.content": "hello", "openarmature.llm.finish_reason": "stop", "openarmature.llm.usage.prompt_tokens": 5, "openarmature.llm.usage.total_tokens": 6, "gen_ai.response.id": "r1" } }, nodeCtx);
    a1.end();
    node.end();
    root.end();
    const spans = { invocationId: "run-1", main: exporter.getFinishedSpans(), detached: new Map() };
    const render = (disableProviderPayload: boolean) => renderInvocation(spans, {}, { disableProviderPayload })[0]!.observations[0]!.children;
    const [gen, ...more] = render(false);
    expect(more).to.deep.equal([]);
    expect(gen).to.deep.include({ type: "generation", name: LLM_SPAN, level: "DEFAULT", model: "m", output: "hello", input: [{ content: "hi", role: "user" }] });
    expect(gen!.startTime).to.deep.equal(a0Start(spans.main));
    expect(gen!.usageDetails).to.deep.equal({ input: 5, total: 6 });
    expect(gen!.modelParameters).to.deep.equal({ temperature: 0.2 });
    expect(gen!.metadata).to.deep.include({ finish_reason: "stop", response_id: "r1", prompt: { name: "greet", version: "3" } });
    const [quiet] = render(true);
    expect([quiet!.input, quiet!.output, quiet!.usageDetails]).to.deep.equal([undefined, undefined, { input: 5, total: 6 }]);
    expect(renderInvocation(spans, {}, { disableLlmSpans: true })[0]!.observations[0]!.children).to.deep.equal([]);
  });

  it("an over-budget call: WARNING naming the bound, the flat exceeded flag; a hard failure keeps ERROR and the flag (§8.4.3)", () => {
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer("t");
    const gen = (extra: Record<string, string | number | boolean>) => {
      exporter.reset();
      const root = tracer.startSpan("openarmature.invocation", { attributes: { "openarmature.invocation_id": "run-2", "openarmature.graph.entry_node": "n" } });
      const llm = tracer.startSpan(LLM_SPAN, { attributes: { "openarmature.llm.usage.prompt_tokens": 20, "openarmature.prompt.token_budget.input_max_tokens": 10, "openarmature.llm.token_budget.exceeded": true, ...extra } }, trace.setSpan(ROOT_CONTEXT, root));
      llm.end();
      root.end();
      return renderInvocation({ invocationId: "run-2", main: exporter.getFinishedSpans(), detached: new Map() }, {})[0]!.observations[0]!;
    };
    const ok = gen({});
    expect([ok.level, ok.statusMessage, ok.metadata["token_budget_exceeded"], ok.metadata["token_budget"]]).to.deep.equal(["WARNING", "token budget exceeded: input 20 > 10", true, { input_max_tokens: 10 }]);
    const failed = gen({ "openarmature.error.category": "structured_output_invalid" });
    expect([failed.level, failed.statusMessage, failed.metadata["token_budget_exceeded"]]).to.deep.equal(["ERROR", "structured_output_invalid", true]);
  });

  it("embedding / rerank / tool spans render their dedicated types; a failure keeps error_type and error_message whatever the payload flag (§8.4.5–§8.4.7)", () => {
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer("t");
    const root = tracer.startSpan("openarmature.invocation", { attributes: { "openarmature.invocation_id": "run-3", "openarmature.graph.entry_node": "n" } });
    const ctx = trace.setSpan(ROOT_CONTEXT, root);
    const emb = tracer.startSpan("openarmature.embedding.complete", { attributes: { "gen_ai.request.model": "e", "gen_ai.response.model": "e-v2", "openarmature.embedding.input_count": 2, "openarmature.embedding.input.strings": '["a","b"]' } }, ctx);
    emb.end();
    const rr = tracer.startSpan("openarmature.rerank.complete", { attributes: { "gen_ai.request.model": "r", "openarmature.error.category": "provider_unavailable" } }, ctx);
    rr.recordException({ name: "ProviderUnavailableError", message: "upstream said no" });
    rr.end();
    root.end();
    const spans = { invocationId: "run-3", main: exporter.getFinishedSpans(), detached: new Map() };
    const render = (disableProviderPayload: boolean) => renderInvocation(spans, {}, { disableProviderPayload })[0]!.observations;
    const [e, r] = render(false);
    expect([e!.type, e!.model, e!.input, e!.usageDetails, e!.metadata["openarmature_input_count"]]).to.deep.equal(["embedding", "e-v2", ["a", "b"], {}, 2]);
    expect([r!.type, r!.level, r!.statusMessage, r!.metadata["error_type"], r!.metadata["error_message"], r!.output]).to.deep.equal(["retriever", "ERROR", "provider_unavailable", "ProviderUnavailableError", "upstream said no", undefined]);
    const [e2, r2] = render(true);
    expect([e2!.input, r2!.metadata["error_type"], r2!.metadata["error_message"]]).to.deep.equal([undefined, "ProviderUnavailableError", "upstream said no"]);
  });

  it("a tool span renders its call id and, with the payload on, its arguments / result from the §5.5.11 attribute names", () => {
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer("t");
    const root = tracer.startSpan("openarmature.invocation", { attributes: { "openarmature.invocation_id": "run-4", "openarmature.graph.entry_node": "n" } });
    const event = { kind: "tool_call", toolName: "get_weather", toolCallId: "call_1", arguments: { city: "Paris" }, result: { c: 20 } } as unknown as ToolCallEvent;
    tracer.startSpan(TOOL_SPAN_NAME, { attributes: toolSpanAttributes(event, { disableProviderPayload: false }) }, trace.setSpan(ROOT_CONTEXT, root)).end();
    root.end();
    const [t] = renderInvocation({ invocationId: "run-4", main: exporter.getFinishedSpans(), detached: new Map() }, {}, { disableProviderPayload: false })[0]!.observations;
    expect([t!.type, t!.metadata["openarmature_tool_name"], t!.metadata["openarmature_tool_call_id"], t!.input, t!.output]).to.deep.equal(["tool", "get_weather", "call_1", { city: "Paris" }, { c: 20 }]);
  });

  it("a failed tool span (ERROR status, no §7 category) renders an ERROR Tool observation with error_type / error_message (§8.4.6)", () => {
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer("t");
    const root = tracer.startSpan("openarmature.invocation", { attributes: { "openarmature.invocation_id": "run-5", "openarmature.graph.entry_node": "n" } });
    const err = Object.assign(new Error("tool timed out"), { name: "TimeoutError" });
    const event = { kind: "tool_call_failed", toolName: "get_weather", toolCallId: "call_2", arguments: {}, errorType: "TimeoutError", errorMessage: "tool timed out", error: err, startTime: Date.now(), timestamp: Date.now() } as unknown as ToolCallFailedEvent;
    renderToolSpan(tracer, event, trace.setSpan(ROOT_CONTEXT, root), {});
    root.end();
    const [t] = renderInvocation({ invocationId: "run-5", main: exporter.getFinishedSpans(), detached: new Map() }, {})[0]!.observations;
    expect([t!.type, t!.level, t!.statusMessage, t!.metadata["error_type"], t!.metadata["error_message"]]).to.deep.equal(["tool", "ERROR", "TimeoutError", "TimeoutError", "tool timed out"]);
  });
});

function a0Start(spans: readonly { name: string; attributes: Record<string, unknown>; startTime: unknown }[]): unknown {
  return spans.find((s) => s.name === LLM_SPAN && s.attributes["openarmature.llm.attempt_index"] === 0)!.startTime;
}
