/**
 * The script model (ADR-0052 D4): `version`, `mode` and typed `responses`, built from a script,
 * a YAML / JSON path, a response list or a script mapping, strictly validated (every failure names
 * the entry), and {@link Script.next}: the D4 matching rules over a private cursor and a private
 * served-conditional set, neither of which is ever serialized.
 *
 * `when` matchers: every configured predicate must hold (AND). LionAGI's shipped matcher evaluates
 * only the first configured content predicate despite its documented "AND-composed" intent; this
 * project implements the intent (see README, "Testing your graphs").
 */
import { readFileSync, statSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { ScriptExhaustedError, ScriptInvalidError } from "./errors.ts";

export const SCRIPT_MODES = ["auto", "positional", "when_only"] as const;
export type ScriptMode = (typeof SCRIPT_MODES)[number];
export const ERROR_KINDS = ["rate_limit", "timeout", "server_error", "bad_request", "value_error"] as const;
export type ScriptErrorKind = (typeof ERROR_KINDS)[number];
export const STREAM_CHUNK_TYPES = ["system", "thinking", "text", "tool_use", "tool_result", "result", "error"] as const;
export type StreamChunkType = (typeof STREAM_CHUNK_TYPES)[number];
/** Longest prompt a `prompt_regex` searches (ADR-0052 D6): only the first 4,096 characters are searched. */
export const PROMPT_REGEX_INPUT_LIMIT = 4096;

type Json = { readonly [key: string]: unknown };

export interface WhenMatcher {
  /** The last user message contains this text (case-insensitive). */
  readonly prompt_contains?: string | null;
  /** A regex found anywhere (search semantics) in the first 4,096 characters of the last user message. */
  readonly prompt_regex?: string | null;
  /** The request offers a tool of exactly this name. */
  readonly has_tool?: string | null;
  /** Gate: only from this 0-based call index on. */
  readonly after_calls?: number | null;
  /** Gate: only at exactly this 0-based call index. */
  readonly call_index?: number | null;
}

export interface TextResponse {
  readonly type: "text";
  readonly content: string;
  readonly when?: WhenMatcher | null;
}
export interface ToolCallResponse {
  readonly type: "tool_call";
  readonly name: string;
  readonly arguments?: Json;
  /** Absent: a generated `call_...` id. */
  readonly id?: string | null;
  readonly when?: WhenMatcher | null;
}
export interface StructuredResponse {
  readonly type: "structured";
  readonly data: Json;
  readonly when?: WhenMatcher | null;
}
export interface StreamChunkSpec {
  readonly type: StreamChunkType;
  readonly content?: string | null;
  readonly tool_name?: string | null;
  readonly tool_id?: string | null;
  readonly tool_input?: Json | null;
  readonly tool_output?: string | null;
  readonly is_error?: boolean;
  readonly is_delta?: boolean;
  readonly metadata?: Json;
}
export interface StreamResponse {
  readonly type: "stream";
  readonly chunks: ReadonlyArray<StreamChunkSpec>;
  readonly when?: WhenMatcher | null;
}
export interface ErrorResponse {
  readonly type: "error";
  readonly kind?: ScriptErrorKind;
  readonly message?: string;
  readonly delay_ms?: number;
  readonly when?: WhenMatcher | null;
}
export type ResponseEntry = TextResponse | ToolCallResponse | StructuredResponse | StreamResponse | ErrorResponse;

export interface ScriptData {
  readonly version?: number;
  readonly mode?: ScriptMode;
  readonly responses?: ReadonlyArray<ResponseEntry>;
}

/** Anything {@link Script.coerce} accepts. */
export type ScriptSource = Script | ScriptData | ReadonlyArray<ResponseEntry> | string;

/** What served a call: the entry and why (`when[2]: prompt_contains="weather"`, `positional[0]`). */
export interface ScriptMatch {
  readonly entry: ResponseEntry;
  readonly reason: string;
}

/** What a request looks like to a matcher. */
export interface ScriptRequest {
  readonly lastUserMessage: string | null;
  readonly toolNames: ReadonlyArray<string>;
}

// ---- validation -------------------------------------------------------------------------------

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function fields(value: Record<string, unknown>, allowed: ReadonlyArray<string>, at: string): void {
  for (const key of Object.keys(value)) if (!allowed.includes(key)) throw new ScriptInvalidError(`${at}: unknown field '${key}' (allowed: ${allowed.join(", ")})`);
}
function optString(v: Record<string, unknown>, key: string, at: string): void {
  if (v[key] !== undefined && v[key] !== null && typeof v[key] !== "string") throw new ScriptInvalidError(`${at}.${key}: must be a string`);
}
function optInt(v: Record<string, unknown>, key: string, at: string): void {
  const x = v[key];
  if (x !== undefined && x !== null && !(Number.isInteger(x) && (x as number) >= 0)) throw new ScriptInvalidError(`${at}.${key}: must be a non-negative integer`);
}
function optRecord(v: Record<string, unknown>, key: string, at: string): void {
  if (v[key] !== undefined && v[key] !== null && !isRecord(v[key])) throw new ScriptInvalidError(`${at}.${key}: must be a mapping`);
}
function optBool(v: Record<string, unknown>, key: string, at: string): void {
  if (v[key] !== undefined && typeof v[key] !== "boolean") throw new ScriptInvalidError(`${at}.${key}: must be a boolean`);
}

function checkWhen(when: unknown, at: string): void {
  if (when === undefined || when === null) return;
  if (!isRecord(when)) throw new ScriptInvalidError(`${at}: must be a mapping`);
  fields(when, ["prompt_contains", "prompt_regex", "has_tool", "after_calls", "call_index"], at);
  for (const k of ["prompt_contains", "prompt_regex", "has_tool"]) optString(when, k, at);
  for (const k of ["after_calls", "call_index"]) optInt(when, k, at);
  if (typeof when["prompt_regex"] === "string") {
    try {
      new RegExp(when["prompt_regex"]);
    } catch (e) {
      throw new ScriptInvalidError(`${at}.prompt_regex: invalid regex: ${(e as Error).message}`);
    }
  }
}

const ENTRY_FIELDS: Readonly<Record<ResponseEntry["type"], ReadonlyArray<string>>> = {
  text: ["type", "content", "when"],
  tool_call: ["type", "name", "arguments", "id", "when"],
  structured: ["type", "data", "when"],
  stream: ["type", "chunks", "when"],
  error: ["type", "kind", "message", "delay_ms", "when"],
};
const CHUNK_FIELDS = ["type", "content", "tool_name", "tool_id", "tool_input", "tool_output", "is_error", "is_delta", "metadata"];

/** Validate one response entry; `at` names it (`responses[3]`). */
export function checkEntry(entry: unknown, at: string): asserts entry is ResponseEntry {
  if (!isRecord(entry)) throw new TypeError(`${at}: a response entry must be a mapping, got ${Array.isArray(entry) ? "a list" : entry === null ? "null" : typeof entry}`);
  const type = entry["type"] ?? "text";
  if (typeof type !== "string" || !Object.hasOwn(ENTRY_FIELDS, type)) {
    throw new ScriptInvalidError(`${at}.type: unknown response type ${JSON.stringify(type)} (one of ${Object.keys(ENTRY_FIELDS).join(", ")})`);
  }
  fields(entry, ENTRY_FIELDS[type as ResponseEntry["type"]], at);
  checkWhen(entry["when"], `${at}.when`);
  switch (type) {
    case "text":
      if (typeof entry["content"] !== "string") throw new ScriptInvalidError(`${at}.content: a text response needs string content`);
      break;
    case "tool_call":
      if (typeof entry["name"] !== "string" || entry["name"] === "") throw new ScriptInvalidError(`${at}.name: a tool_call response needs a tool name`);
      optRecord(entry, "arguments", at);
      optString(entry, "id", at);
      break;
    case "structured":
      if (!isRecord(entry["data"])) throw new ScriptInvalidError(`${at}.data: a structured response needs a data mapping`);
      break;
    case "stream": {
      const chunks = entry["chunks"];
      if (!Array.isArray(chunks)) throw new ScriptInvalidError(`${at}.chunks: a stream response needs a list of chunks`);
      chunks.forEach((c, i) => {
        const cat = `${at}.chunks[${i}]`;
        if (!isRecord(c)) throw new TypeError(`${cat}: a stream chunk must be a mapping`);
        fields(c, CHUNK_FIELDS, cat);
        if (!(STREAM_CHUNK_TYPES as ReadonlyArray<unknown>).includes(c["type"])) throw new ScriptInvalidError(`${cat}.type: unknown chunk type ${JSON.stringify(c["type"])} (one of ${STREAM_CHUNK_TYPES.join(", ")})`);
        for (const k of ["content", "tool_name", "tool_id", "tool_output"]) optString(c, k, cat);
        optRecord(c, "tool_input", cat);
        optRecord(c, "metadata", cat);
        optBool(c, "is_error", cat);
        optBool(c, "is_delta", cat);
        if (c["type"] === "tool_use" && typeof c["tool_name"] !== "string") throw new ScriptInvalidError(`${cat}.tool_name: a tool_use chunk needs a tool name`);
      });
      break;
    }
    case "error":
      if (entry["kind"] !== undefined && !(ERROR_KINDS as ReadonlyArray<unknown>).includes(entry["kind"])) {
        throw new ScriptInvalidError(`${at}.kind: unknown error kind ${JSON.stringify(entry["kind"])} (one of ${ERROR_KINDS.join(", ")})`);
      }
      optString(entry, "message", at);
      optInt(entry, "delay_ms", at);
      break;
  }
}

// ---- the model --------------------------------------------------------------------------------

const isConditional = (e: ResponseEntry): boolean => isRecord(e.when) && Object.values(e.when).some((v) => v !== undefined && v !== null);

export class Script {
  readonly version: number;
  readonly mode: ScriptMode;
  readonly responses: ReadonlyArray<ResponseEntry>;
  #cursor = 0;
  readonly #served = new Set<number>();

  /** Validate and deep-copy `data`; a failure names the entry. */
  constructor(data: ScriptData = {}) {
    if (!isRecord(data)) throw new TypeError(`a script must be a mapping {version, mode, responses}, got ${Array.isArray(data) ? "a list" : typeof data}`);
    fields(data, ["version", "mode", "responses"], "script");
    if (data.version !== undefined && !Number.isInteger(data.version)) throw new ScriptInvalidError("script.version: must be an integer");
    if (data.mode !== undefined && !(SCRIPT_MODES as ReadonlyArray<unknown>).includes(data.mode)) {
      throw new ScriptInvalidError(`script.mode: ${JSON.stringify(data.mode)} is not one of ${SCRIPT_MODES.join(", ")}`);
    }
    const responses: unknown = data.responses ?? [];
    if (!Array.isArray(responses)) throw new ScriptInvalidError("script.responses: must be a list");
    responses.forEach((r, i) => checkEntry(r, `responses[${i}]`));
    this.version = (data.version as number | undefined) ?? 1;
    this.mode = (data.mode as ScriptMode | undefined) ?? "auto";
    // `type` defaults to `text` (TextResponse's discriminator default).
    this.responses = (responses as ResponseEntry[]).map((r) => structuredClone({ ...r, type: r.type ?? "text" }) as ResponseEntry);
  }

  /** A script from a Script (deep copy, fresh cursor), a YAML / JSON path, a response list or a mapping. */
  static coerce(source: ScriptSource): Script {
    if (source instanceof Script) return source.copy();
    if (typeof source === "string") return Script.fromFile(source);
    if (Array.isArray(source)) return Script.fromResponses(source);
    if (isRecord(source)) return new Script(source as ScriptData);
    throw new TypeError(`cannot build a script from ${source === null ? "null" : typeof source} (a Script, a YAML / JSON path, a response list or a script mapping)`);
  }
  static fromResponses(responses: ReadonlyArray<ResponseEntry>, options: Omit<ScriptData, "responses"> = {}): Script {
    return new Script({ ...options, responses });
  }
  /** YAML (which also reads JSON). A top-level list is the response list. */
  static fromYaml(path: string): Script {
    return Script.#fromText(path, (t) => parseYaml(t) as unknown);
  }
  static fromJson(path: string): Script {
    return Script.#fromText(path, (t) => JSON.parse(t) as unknown);
  }
  /** `.json` by JSON, anything else by YAML. */
  static fromFile(path: string): Script {
    return path.toLowerCase().endsWith(".json") ? Script.fromJson(path) : Script.fromYaml(path);
  }
  static #fromText(path: string, parse: (text: string) => unknown): Script {
    if (!statSync(path, { throwIfNoEntry: false })?.isFile()) throw new ScriptInvalidError(`script file '${path}' does not exist or is not a file`);
    let data: unknown;
    try {
      data = parse(readFileSync(path, "utf8"));
    } catch (e) {
      throw new ScriptInvalidError(`script file '${path}': ${(e as Error).message}`);
    }
    try {
      return Array.isArray(data) ? Script.fromResponses(data as ResponseEntry[]) : new Script(data as ScriptData);
    } catch (e) {
      if (e instanceof ScriptInvalidError) throw new ScriptInvalidError(`script file '${path}': ${e.message}`);
      if (e instanceof TypeError) throw new TypeError(`script file '${path}': ${e.message}`);
      throw e;
    }
  }

  /** A deep copy with a fresh cursor. */
  copy(): Script {
    return new Script({ version: this.version, mode: this.mode, responses: this.responses });
  }
  /** Clear the cursor and the served-conditional state. */
  reset(): void {
    this.#cursor = 0;
    this.#served.clear();
  }
  /** Conditional entries not yet served. */
  unservedConditional(): number {
    return this.responses.filter((e, i) => isConditional(e) && !this.#served.has(i)).length;
  }
  /** Unconditional entries not yet served (those the positional cursor has not passed). */
  remainingPositional(): number {
    return this.responses.slice(this.#cursor).filter((e) => !isConditional(e)).length;
  }

  /** The entry for call `callIndex` of `request`, per the D4 mode rules; or {@link ScriptExhaustedError}. */
  next(request: ScriptRequest, callIndex: number): ScriptMatch {
    if (this.mode !== "positional") {
      for (const [i, entry] of this.responses.entries()) {
        if (!isConditional(entry) || this.#served.has(i)) continue;
        const reason = matches(entry.when!, request, callIndex);
        if (reason !== null) {
          this.#served.add(i);
          return { entry: structuredClone(entry), reason: `when[${i}]: ${reason}` };
        }
      }
      if (this.mode === "when_only") {
        const conditional = this.responses.filter(isConditional).length;
        throw new ScriptExhaustedError(
          `scripted provider: call #${callIndex}: no unserved 'when' entry matched (when_only script: ${conditional} conditional entries, ${this.unservedConditional()} unserved); last user message: ${quote(request.lastUserMessage)}`,
          callIndex,
          request.lastUserMessage,
        );
      }
    }
    while (this.#cursor < this.responses.length) {
      const i = this.#cursor++;
      const entry = this.responses[i]!;
      if (isConditional(entry)) continue;
      return { entry: structuredClone(entry), reason: `positional[${i}]` };
    }
    const available = this.responses.filter((e) => !isConditional(e)).length;
    throw new ScriptExhaustedError(
      `scripted provider: call #${callIndex}: the script is exhausted (${available} positional response${available === 1 ? "" : "s"} available, all served; ${this.mode} mode); last user message: ${quote(request.lastUserMessage)}`,
      callIndex,
      request.lastUserMessage,
    );
  }

  /** The script data (never the cursor). */
  toJSON(): ScriptData {
    return { version: this.version, mode: this.mode, responses: structuredClone(this.responses) as ResponseEntry[] };
  }
}

function quote(s: string | null): string {
  if (s === null) return "(none)";
  return JSON.stringify(s.length > 200 ? `${s.slice(0, 197)}...` : s);
}

/** The reason a matcher holds (every configured predicate, ANDed), or `null`. */
export function matches(when: WhenMatcher, request: ScriptRequest, callIndex: number): string | null {
  const held: string[] = [];
  if (when.call_index !== undefined && when.call_index !== null) {
    if (callIndex !== when.call_index) return null;
    held.push(`call_index=${when.call_index}`);
  }
  if (when.after_calls !== undefined && when.after_calls !== null) {
    if (callIndex < when.after_calls) return null;
    held.push(`after_calls=${when.after_calls}`);
  }
  const prompt = request.lastUserMessage ?? "";
  if (when.prompt_contains !== undefined && when.prompt_contains !== null) {
    if (!prompt.toLowerCase().includes(when.prompt_contains.toLowerCase())) return null;
    held.push(`prompt_contains=${JSON.stringify(when.prompt_contains)}`);
  }
  if (when.prompt_regex !== undefined && when.prompt_regex !== null) {
    if (!new RegExp(when.prompt_regex).test(prompt.slice(0, PROMPT_REGEX_INPUT_LIMIT))) return null;
    held.push(`prompt_regex=${JSON.stringify(when.prompt_regex)}`);
  }
  if (when.has_tool !== undefined && when.has_tool !== null) {
    if (!request.toolNames.includes(when.has_tool)) return null;
    held.push(`has_tool=${JSON.stringify(when.has_tool)}`);
  }
  return held.join(" and ");
}
