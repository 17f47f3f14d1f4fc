/**
 * `openarmature/llm`: the llm-provider capability — messages, tools, the Provider interface,
 * responses, errors, call-level retry, wire mappings and the provider registry.
 */
export type {
  Message,
  SystemMessage,
  UserMessage,
  AssistantMessage,
  ToolMessage,
  ContentBlock,
  TextBlock,
  ImageBlock,
  ImageSource,
  ImageDetail,
  ThinkingBlock,
  RedactedThinkingBlock,
  ToolCall,
  JsonObject,
} from "./messages.ts";
export { validateMessages, textOf, GUARANTEED_IMAGE_MEDIA_TYPES } from "./messages.ts";
export type { Tool, ToolChoice, JsonSchema } from "./tools.ts";
export { validateTools, validateToolChoice, validateResponseSchema } from "./tools.ts";
export type { RuntimeConfig, DeclaredConfigField } from "./config.ts";
export { DECLARED_CONFIG_FIELDS, mergeConfig, validateConfig } from "./config.ts";
export type { Response, Usage, FinishReason } from "./response.ts";
export { NO_USAGE } from "./response.ts";
export { LlmProviderError, StructuredOutputInvalid, LLM_ERROR_CATEGORIES, isLlmProviderError } from "./errors.ts";
export type { LlmErrorCategory, LlmProviderErrorOptions } from "./errors.ts";
export type { Provider, CompleteOptions, ReadyOptions, StreamEvent } from "./provider.ts";
export type { CallRetry, RetryReason } from "./retry.ts";
export { HttpProvider } from "./http-provider.ts";
export type { FetchFn, HttpProviderOptions, ProviderCapabilities } from "./http-provider.ts";
export type { WireMapping, WireRequest, Endpoint, PreparedCall, StreamAssembler } from "./mapping.ts";
export { openAiChatMapping } from "./openai/mapping.ts";
export { anthropicMessagesMapping, ANTHROPIC_VERSION } from "./anthropic/mapping.ts";
export { geminiMapping } from "./gemini/mapping.ts";
export { ProviderRegistry, providers, httpEntry } from "./registry.ts";
export type { ProviderConfig, ProviderEntry } from "./registry.ts";
export { canonicalJson, deepEqual } from "./canonical-json.ts";
export { schemaViolation } from "./structured-output.ts";
export { isStrictCompatible, strictModeViolation } from "./strict-schema.ts";
export { cassetteFetch, loadCassette, saveCassette, delayInterceptor, mergeChunksInterceptor, CassetteMismatch, REDACTED } from "./cassette.ts";
export type { Cassette, CassetteChunk, CassetteInteraction, CassetteMode, CassetteOptions, CassetteInterceptor } from "./cassette.ts";
export { eventMessage, eventToolCall } from "./events.ts";
export { runToolCall } from "./tool-call.ts";
export type { ToolExecution } from "./tool-call.ts";
export type {
  LlmCompletionEvent,
  LlmFailedEvent,
  LlmTokenEvent,
  LlmCallIdentity,
  LlmRequestSide,
  LlmResponseSide,
  LlmWireAttempt,
  LlmAttemptFailure,
  EventMessage,
  EventToolCall,
  EventActivePrompt,
  EventTokenBudget,
} from "./events.ts";
export type { ToolCallEvent, ToolCallFailedEvent, ToolCallIdentity } from "./tool-events.ts";
export { runAgentLoop, agentNode, AgentLoopError } from "./agent.ts";
export type { AgentLoopOptions, AgentLoopResult, AgentLoopErrorCategory, AgentState } from "./agent.ts";
export { defineTool } from "./tool-execution.ts";
export type { AgentTool, ToolContext } from "./tool-execution.ts";
