/**
 * `openarmature/prompts`: prompt management (prompt-management spec) — `Prompt` (text and chat
 * variants), `PromptResult`, the `PromptBackend` protocol with in-memory, filesystem and caching
 * backends, `PromptManager` (fetch / render / get with §9 fallback), `LabelResolver`,
 * `PromptGroup`, and the §11 errors. See `README.md`.
 */
export type { Prompt, TextPrompt, ChatPrompt, ChatSegment, ContentSegment, PlaceholderSegment, ContentBlockTemplate, PromptIdentity, PromptInit } from "./prompt.ts";
export { createPrompt, templateHash, isChatPrompt, isPlaceholderSegment } from "./prompt.ts";
export type { PromptResult } from "./result.ts";
export type { PromptMessage, ContentBlock, TextBlock, ImageBlock, ImageSource } from "./messages.ts";
export { toLlmMessages } from "./llm-messages.ts";
export type { SamplingConfig, TokenBudget } from "./sampling.ts";
export { samplingConfigFrom, tokenBudgetFrom, SAMPLING_FIELDS } from "./sampling.ts";
export type { PromptBackend, FetchOptions } from "./backend.ts";
export { checkCacheTtl, DEFAULT_LABEL } from "./backend.ts";
export { InMemoryPromptBackend } from "./in-memory.ts";
export { CachingPromptBackend, type CachingOptions } from "./caching.ts";
export { FilesystemPromptBackend, type FilesystemPromptBackendOptions } from "./filesystem.ts";
export { StaticLabelResolver, type LabelResolver } from "./label-resolver.ts";
export { PromptManager, type PromptManagerOptions, type ManagerFetchOptions, type ManagerGetOptions, type FallbackEvent } from "./manager.ts";
export { renderPrompt, PLACEHOLDER_NAME, type RenderOptions, type Placeholders } from "./render.ts";
export { renderTemplate, templateVariables, TemplateFailure, RenderBudget, DEFAULT_TEMPLATE_LIMITS, type TemplateOptions, type TemplateLimits, type TemplateLimitName } from "./template.ts";
export { PromptGroup } from "./group.ts";
export { contentHash, canonicalJson } from "./hash.ts";
export {
  PromptError,
  PromptNotFound,
  PromptStoreUnavailable,
  PromptRenderError,
  PromptGroupInvalid,
  PromptConfigInvalid,
  PROMPT_ERROR_CATEGORIES,
  isPromptError,
  type PromptErrorCategory,
} from "./errors.ts";
export { LangfusePromptBackend, type LangfusePromptBackendOptions, type LangfusePromptClient, type LangfusePromptRecord } from "./langfuse.ts";
export {
  withPrompt,
  withPromptGroup,
  activePrompt,
  activePromptGroup,
  activeTokenBudget,
  type ActivePrompt,
  type ActivePromptGroup,
  type ActiveTokenBudget,
} from "./context.ts";
