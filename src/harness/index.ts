/**
 * OpenArmature harness (harness spec): the turn layer a deployment runtime (HTTP server, queue
 * worker, CLI, chat loop) puts above `invoke()` — dispatch-path classification (§3), the turn
 * lifecycle and outcome handling (§4, §5), the signal coordinator (§6), error buckets (§7) and the
 * sessioned / stateless modes (§2, §8). The chat harness is `openarmature/harness/chat`.
 *
 * Not to be confused with the conformance harness primitives in the repository's top-level
 * `harness/` folder, which run spec fixtures. See `README.md`.
 */
export { TurnHarness, type HarnessOptions, type TurnInvokeOptions, type InvokeCall, type TurnResult, type CompletedTurn, type ErroredTurn, type SuspendedTurn } from "./turn-harness.ts";
export { classifyTransmission, type Transmission, type DispatchPath, type DispatchIntent, type HarnessMode } from "./transmission.ts";
export { InMemorySignalCoordinator, PausedRecordSignalCoordinator, type PausedRecordView, type SignalCoordinator, type SignalSubscription, type ArrivingSignal } from "./signal-coordinator.ts";
export type { OutboundResponse, CompletionResponse, ErrorResponse, SuspendedAcknowledgment } from "./outbound.ts";
export {
  HarnessError,
  HarnessSessionIdUnresolvedError,
  HarnessSignalSubscriptionFailedError,
  HarnessSignalCorrelationFailedError,
  HarnessPathClassificationAmbiguousError,
  HARNESS_ERROR_CATEGORIES,
  DEFAULT_ERROR_BUCKETS,
  categorizeTurnError,
  type HarnessErrorCategory,
  type ErrorBucket,
  type TurnError,
  type TurnErrorClassifier,
} from "./errors.ts";
export { isTurnSpans, type TurnSpans, type TurnSpanStart, type TurnSpanEnd } from "./turn-span.ts";
export { startHarnessServer, turnJson, chatJson, DEFAULT_CHAT_DATABASE, type HarnessServer, type HarnessServerOptions, type CloseOptions } from "./http/server.ts";
export { HarnessServerError, type HarnessServerErrorCategory, type RequestErrorCategory } from "./http/errors.ts";
export type { ServerLimitOptions } from "./http/limits.ts";
export type { HostCheckOptions } from "./http/host-check.ts";
