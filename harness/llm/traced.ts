/**
 * A traced bare call (conformance-adapter §5.11 `llm_spans`): the harness runs an llm-provider
 * `complete()` inside a one-node invocation with the real OTel observer and an in-memory exporter
 * attached (§6.3), so the call's provider spans exist to assert on.
 */
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { END, GraphBuilder, stateSchema } from "../../src/graph/index.ts";
import type { Response } from "../../src/llm/index.ts";
import { OTelObserver, type OTelObserverOptions } from "../../src/observability/index.ts";

const S = stateSchema({ fields: {} });

/**
 * `flags`: the case's `otel_observer` settings (conformance-adapter §5.5: §5.5.4 flags and the
 * §5.5.5 payload cap), which the observer MUST honor here as in a graph case.
 */
export async function tracedCall(run: () => Promise<Response>, flags: Partial<OTelObserverOptions> = {}): Promise<{ response?: Response; error?: unknown; spans: readonly unknown[] }> {
  const exporter = new InMemorySpanExporter();
  const observer = new OTelObserver({ ...flags, spanProcessors: [new SimpleSpanProcessor(exporter)] });
  let response: Response | undefined;
  let error: unknown;
  const g = new GraphBuilder(S)
    .addNode("call", async () => {
      try {
        response = await run();
      } catch (e) {
        error = e;
      }
      return {};
    })
    .addEdge("call", END)
    .setEntry("call")
    .compile({ name: "llm_call" });
  await g.invoke({}, { hooks: observer });
  await observer.forceFlush();
  return { ...(response !== undefined ? { response } : {}), ...(error !== undefined ? { error } : {}), spans: exporter.getFinishedSpans() };
}
