/**
 * `retry_middleware` (llm-provider fixture 024): the call runs as the body of a one-node graph
 * wrapped in the real pipeline-utilities §6.1 retry middleware, so the node-level retry policy
 * (its default classifier) decides whether a provider failure re-runs the call. The raised error
 * is unwrapped from its graph-engine `node_exception` carrier so `raises` reads the provider's.
 */
import type { FixtureLocation } from "../../src/conformance/errors.ts";
import { END, GraphBuilder, defineState, field } from "../../src/graph/index.ts";
import type { CompleteOptions, Message, Provider, Response } from "../../src/llm/index.ts";
import { defaultClassifier, retry } from "../../src/pipeline/middleware/index.ts";
import { backoffOf, type RetrySpec } from "./call-spec.ts";

const State = defineState({ done: field.bool().default(false) });

export async function completeUnderRetryMiddleware(
  provider: Provider,
  messages: ReadonlyArray<Message>,
  options: CompleteOptions,
  spec: RetrySpec,
  where: FixtureLocation,
): Promise<Response> {
  let response: Response | undefined;
  const backoff = backoffOf(spec.backoff ?? 0, where);
  const graph = new GraphBuilder(State)
    .addNode(
      "call_llm",
      async () => {
        response = await provider.complete(messages, options);
        return { done: true };
      },
      { middleware: [retry({ ...(spec.max_attempts !== undefined ? { maxAttempts: spec.max_attempts } : {}), classifier: defaultClassifier, ...(backoff ? { backoff } : {}) })] },
    )
    .addEdge("call_llm", END)
    .setEntry("call_llm")
    .compile();
  try {
    await graph.invoke({}, { ...(options.signal !== undefined ? { signal: options.signal } : {}) });
  } catch (e) {
    throw (e as { category?: string; cause?: unknown }).category === "node_exception" ? (e as { cause: unknown }).cause : e;
  }
  return response!;
}
