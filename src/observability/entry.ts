/**
 * The `openarmature/observability` package entry (its `default` condition; the types are
 * index.ts's): checks the optional peer dependencies first, so a user without the OpenTelemetry
 * SDK gets one error naming every missing peer and the install command, then re-exports index.ts.
 * The list below is index.ts's runtime exports (test/peer-dependencies.test.ts keeps it complete).
 */
import { OBSERVABILITY_PEERS, requirePeers } from "../peer-dependencies.ts";

requirePeers("openarmature/observability", OBSERVABILITY_PEERS, (s) => import.meta.resolve(s));

export const {
  Attr,
  CorrelatedLogger,
  DEFAULT_PAYLOAD_BYTE_CAP,
  EMBEDDING_SPAN_NAME,
  EventCounter,
  IMPLEMENTATION_NAME,
  IMPLEMENTATION_VERSION,
  INVOCATION_SPAN_NAME,
  InvocationAccumulator,
  MetricDimension,
  MetricName,
  NodeEventAccumulator,
  OTelObserver,
  ProviderMetrics,
  RERANK_SPAN_NAME,
  SEVERITY,
  SPEC_VERSION,
  TURN_SPAN_NAME,
  TypedEventCounter,
  correlationAttributes,
  crossCuttingAttributes,
  embeddingSpanAttributes,
  flattenSuspensionMetadata,
  getInvocationMetadata,
  rerankSpanAttributes,
  setInvocationMetadata,
  truncatePayload,
  truncationMarker,
  validateMetadata,
} = await import("./index.ts");
