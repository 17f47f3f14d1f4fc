/**
 * The §6.4 provider-faithful Langfuse fake (conformance-adapter §6.4, proposals 0116–0118): its
 * per-credential singleton, its bound-provider accessor, and the payload-bearing classification the
 * payload-scoped leak assertions read — each channel shown both ways.
 */
import { expect } from "chai";
import { trace, type Attributes } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { LangfuseOtelSpanAttributes as L } from "@langfuse/core";
import { FAKE_CREDENTIALS, isLangfuseObservationSpan, isPayloadBearing, LangfuseFakeRegistry } from "../../harness/observability/langfuse.ts";

/** One ended span carrying `attributes` (a Langfuse observation when it has the langfuse.observation.* namespace). */
function span(attributes: Attributes): ReadableSpan {
  const exporter = new InMemorySpanExporter();
  new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer("t").startSpan("o", { attributes }).end();
  return exporter.getFinishedSpans()[0]!;
}

const OBS = { [L.OBSERVATION_TYPE]: "span" };
const STUB_IN = JSON.stringify({ entry_node: "a", correlation_id: "c-1" });
const STUB_OUT = JSON.stringify({ final_node: "a", status: "completed" });

describe("conformance harness: the §6.4 Langfuse fake", () => {
  it("payload-bearing: provider input / output (generation, embedding, tool, rerank I/O), non-stub trace I/O, an error_message", () => {
    const bearing: Attributes[] = [
      { ...OBS, [L.OBSERVATION_INPUT]: '[{"role":"user","content":"hi"}]' },
      { ...OBS, [L.OBSERVATION_OUTPUT]: '"hello"' },
      { [L.OBSERVATION_TYPE]: "embedding", [L.OBSERVATION_INPUT]: '["a","b"]' },
      { [L.OBSERVATION_TYPE]: "tool", [L.OBSERVATION_OUTPUT]: '{"c":20}' },
      { [L.OBSERVATION_TYPE]: "retriever", [L.OBSERVATION_INPUT]: '{"query":"q"}' },
      { ...OBS, [L.TRACE_INPUT]: JSON.stringify({ secret: "private text" }) },
      { ...OBS, [L.TRACE_OUTPUT]: '"a hook value"' },
      { ...OBS, [L.OBSERVATION_LEVEL]: "ERROR", [`${L.OBSERVATION_METADATA}.error_type`]: "TimeoutError", [`${L.OBSERVATION_METADATA}.error_message`]: "tool timed out" },
    ];
    for (const a of bearing) expect(isPayloadBearing(span(a)), JSON.stringify(a)).to.equal(true);
  });

  it("payload-free: the §8.4.1 stubs, metadata only, a failure carrying only its category and error_type (proposal 0118)", () => {
    const free: Attributes[] = [
      { ...OBS, [L.TRACE_INPUT]: STUB_IN, [L.TRACE_OUTPUT]: STUB_OUT },
      { ...OBS, [`${L.OBSERVATION_METADATA}.node_name`]: "a", [L.TRACE_NAME]: "a" },
      { ...OBS, [L.OBSERVATION_LEVEL]: "ERROR", [L.OBSERVATION_STATUS_MESSAGE]: "provider_unavailable", [`${L.OBSERVATION_METADATA}.error_type`]: "ServiceUnavailableError" },
    ];
    for (const a of free) expect(isPayloadBearing(span(a)), JSON.stringify(a)).to.equal(false);
    // A stub-shaped trace output with another status is still the stub; an extra key is not.
    expect(isPayloadBearing(span({ ...OBS, [L.TRACE_OUTPUT]: JSON.stringify({ final_node: "a", status: "failed", extra: 1 }) }))).to.equal(true);
    expect(isLangfuseObservationSpan(span({ "openarmature.node.name": "a" }))).to.equal(false);
  });

  it("per-credential singleton: the first construction binds its provider; later ones return that client; the binding is readable", () => {
    const registry = new LangfuseFakeRegistry();
    const primed = registry.construct(FAKE_CREDENTIALS, trace.getTracerProvider());
    const isolated = new BasicTracerProvider();
    const later = registry.factory(FAKE_CREDENTIALS, isolated);
    expect(later).to.equal(primed);
    expect((later as { tracerProvider: unknown }).tracerProvider).to.equal(trace.getTracerProvider());
    // Another credential is a client of its own, on the provider it is given.
    const other = registry.factory({ ...FAKE_CREDENTIALS, publicKey: "pk-lf-other" }, isolated);
    expect([other === primed, (other as { tracerProvider: unknown }).tracerProvider === isolated]).to.deep.equal([false, true]);
  });
});
