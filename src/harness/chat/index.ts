/**
 * OpenArmature chat harness (harness-chat spec): `ChatMessage` and its validation (§3), the
 * `messages` history convention (§4), {@link ChatHarness} — `send()` with its `ChatTurnOutcome`
 * and per-session serialization (§5–§7), the pending-message protocol and the subscribed-listener
 * resume (§8) — a message sent while a turn waits for a signal is refused (`chat_turn_pending`),
 * and `pending(sessionId)` lists the waiting turns — and the error → reply mapping (§10). Built on
 * `openarmature/harness`.
 */
export {
  ChatHarness,
  type ChatHarnessOptions,
  type ChatTurnOutcome,
  type ChatTurnCompleted,
  type ChatTurnErrored,
  type ChatTurnSuspended,
  type ChatListener,
} from "./chat-harness.ts";
export {
  validateChatMessage,
  chatMessageIssues,
  ChatMessageShapeInvalidError,
  type ChatMessage,
  type ChatRole,
  type SystemMessage,
  type UserMessage,
  type AssistantMessage,
  type ToolMessage,
  type ToolCall,
  type ContentBlock,
  type TextBlock,
  type ImageBlock,
  type ImageSource,
  type ThinkingBlock,
  type RedactedThinkingBlock,
} from "./message.ts";
export { messagesField, historyOf, MESSAGES_FIELD } from "./history.ts";
export { ChatTurnPendingError, type PendingTurn } from "./pending.ts";
export { providerChatGraph, ProviderChatState, streamReplyTo, checkpointableTurn, checkpointSignal, INTERRUPTED_KIND, assistantReply, type ProviderChatOptions, type ReplySink } from "./provider-graph.ts";
export { DEFAULT_ERROR_REPLIES, errorReply, type ErrorReplies } from "./replies.ts";
