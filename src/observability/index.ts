/**
 * `openarmature/observability` (observability §3–§7): the OpenTelemetry observer, invocation
 * metadata, log correlation and the payload truncation contract. Needs the optional peer
 * dependencies `@opentelemetry/api` and `@opentelemetry/sdk-trace-base` (and `api-logs` for
 * log correlation).
 */
export { OTelObserver, TURN_SPAN_NAME } from "./otel-observer.ts";
export type { OTelObserverOptions } from "./otel-observer.ts";
export {
  Attr,
  IMPLEMENTATION_NAME,
  IMPLEMENTATION_VERSION,
  SPEC_VERSION,
  INVOCATION_SPAN_NAME,
  crossCuttingAttributes,
  flattenSuspensionMetadata,
} from "./attributes.ts";
export { truncatePayload, truncationMarker, DEFAULT_PAYLOAD_BYTE_CAP } from "./truncation.ts";
export { setInvocationMetadata, getInvocationMetadata, validateMetadata } from "../graph/index.ts";
export type { AttributeValue, InvocationMetadata } from "../graph/index.ts";
export { CorrelatedLogger, correlationAttributes, SEVERITY } from "./log-correlation.ts";
export { EventCounter, TypedEventCounter, InvocationAccumulator, NodeEventAccumulator } from "./queryable.ts";
export type { QueryableObserver, TypedCountSnapshot, InvocationAccumulatorOptions, AccumulatedNodeEvent, NodeEventBucket } from "./queryable.ts";
export { ProviderMetrics, MetricName, MetricDimension } from "./metrics.ts";
export type { CallDimensions } from "./metrics.ts";
export { EMBEDDING_SPAN_NAME, RERANK_SPAN_NAME, embeddingSpanAttributes, rerankSpanAttributes } from "./retrieval-spans.ts";
export type { ProviderSpanFlags } from "./retrieval-spans.ts";
