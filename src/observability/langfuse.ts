/**
 * `openarmature/langfuse` (observability §8, §6): the Langfuse observer and the §8 mapping. Needs
 * the optional peer dependencies of `openarmature/observability` plus `@langfuse/core`,
 * `@langfuse/tracing` and `@langfuse/otel` (5.x, the OpenTelemetry 2.x line).
 */
export {
  LANGFUSE_DIAGNOSTICS,
  LangfuseObserver,
  LangfuseProviderIsolationError,
  isGlobalTracerProvider,
  withInvocationLabel,
} from "./langfuse-observer.ts";
export type {
  LangfuseClient,
  LangfuseClientFactory,
  LangfuseCredentials,
  LangfuseDiagnostic,
  LangfuseObserverOptions,
  OpaqueLangfuseClient,
} from "./langfuse-observer.ts";
export { LLM_SPAN, langfuseTraceId, renderInvocation } from "./langfuse-mapping.ts";
export type {
  InvocationSpans,
  LangfuseLevel,
  LangfuseObservation,
  LangfuseObservationType,
  LangfuseTrace,
  ProviderEventFacts,
  RenderOptions,
  TraceFields,
} from "./langfuse-mapping.ts";
