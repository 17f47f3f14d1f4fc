/**
 * `openarmature/testing` (ADR-0052 D4, D5): the scripted provider — registered as `scripted` in the
 * normal provider registry and served through the real OpenAI-compatible mapping in process — its
 * script model, a builder, helpers and graph test helpers. The mocha plugin is
 * `openarmature/testing/mocha`.
 */
export { Script, SCRIPT_MODES, ERROR_KINDS, STREAM_CHUNK_TYPES, PROMPT_REGEX_INPUT_LIMIT, matches, checkEntry } from "./script.ts";
export type {
  ScriptMode,
  ScriptErrorKind,
  StreamChunkType,
  WhenMatcher,
  TextResponse,
  ToolCallResponse,
  StructuredResponse,
  StreamChunkSpec,
  StreamResponse,
  ErrorResponse,
  ResponseEntry,
  ScriptData,
  ScriptSource,
  ScriptMatch,
  ScriptRequest,
} from "./script.ts";
export { ScriptedProvider, scriptedEntry, scriptedConfig, TEST_SCRIPT_ENV, TEST_RECORD_ENV, SCRIPTED_DEFAULT_MODEL } from "./scripted-provider.ts";
export type { RecordedCall, ScriptedProviderOptions } from "./scripted-provider.ts";
export { ScriptExhaustedError, ScriptInvalidError } from "./errors.ts";
export { ScriptBuilder, scriptBuilder } from "./builder.ts";
export type { EntryOptions } from "./builder.ts";
export { scriptedProvider, providerFromResponses, providerFromText, providerFromYaml, providerFromJson, scripted, calls, attachScript, modelClient, scriptedClient } from "./helpers.ts";
export type { ModelClient } from "./helpers.ts";
export { GraphRun, runGraph, runScriptedGraph } from "./graph.ts";
export type { InvocableGraph } from "./graph.ts";
