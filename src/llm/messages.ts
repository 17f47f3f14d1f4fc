/**
 * Messages and content blocks (llm-provider §3, §3.1). Records keep the spec's field names
 * (`tool_calls`, `tool_call_id`, `media_type`, ...), as the OpenAI SDK's wire types do, so a
 * message list reads the same in code, in fixtures and in persisted conversations.
 *
 * {@link validateMessages} enforces every §3 constraint before a request is sent; a violation is
 * `provider_invalid_request` naming the offending field, e.g. `messages[2].content[0].text`.
 */
import { invalidRequest } from "./errors.ts";
import { isRecord } from "./json.ts";

export interface TextBlock {
  readonly type: "text";
  readonly text: string;
  /** Provider-bound reasoning-continuity token (§3.1.7); never construct or modify it. */
  readonly signature?: string;
}
export type ImageSource = { readonly type: "url"; readonly url: string } | { readonly type: "inline"; readonly base64_data: string };
export type ImageDetail = "auto" | "low" | "high";
export interface ImageBlock {
  readonly type: "image";
  readonly source: ImageSource;
  /** Required for inline sources (`image/png`, `image/jpeg`, `image/webp` at minimum). */
  readonly media_type?: string;
  readonly detail?: ImageDetail;
}
export interface ThinkingBlock {
  readonly type: "thinking";
  readonly text: string;
  readonly signature?: string;
}
export interface RedactedThinkingBlock {
  readonly type: "redacted_thinking";
  readonly data: string;
}
export type ContentBlock = TextBlock | ImageBlock | ThinkingBlock | RedactedThinkingBlock;

/** A JSON object (tool-call arguments, parsed structured output). */
export type JsonObject = { readonly [key: string]: unknown };

export interface ToolCall {
  /** Preserved verbatim from the provider. */
  readonly id: string;
  readonly name: string;
  /** Parsed arguments; `null` only under `finish_reason: "error"` when the bytes were not JSON. */
  readonly arguments: JsonObject | null;
  readonly signature?: string;
}

export interface SystemMessage {
  readonly role: "system";
  readonly content: string;
}
export interface UserMessage {
  readonly role: "user";
  readonly content: string | ReadonlyArray<TextBlock | ImageBlock>;
}
export interface AssistantMessage {
  readonly role: "assistant";
  readonly content: string | ReadonlyArray<TextBlock | ThinkingBlock | RedactedThinkingBlock> | null;
  readonly tool_calls?: ReadonlyArray<ToolCall> | null;
}
export interface ToolMessage {
  readonly role: "tool";
  readonly content: string;
  readonly tool_call_id: string;
}
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

const ROLES = new Set(["system", "user", "assistant", "tool"]);
const DETAILS = new Set(["auto", "low", "high"]);
/** Media types every mapping accepts for inline images (§3.1.2). */
export const GUARANTEED_IMAGE_MEDIA_TYPES: ReadonlySet<string> = new Set(["image/png", "image/jpeg", "image/webp"]);

function nonEmptyString(v: unknown): v is string {
  return typeof v === "string" && v.length > 0;
}

/** Validate one content block at `at` (e.g. `messages[0].content[1]`) for a message of `role`. */
function validateBlock(block: unknown, at: string, role: "user" | "assistant"): void {
  if (!isRecord(block)) throw invalidRequest(at, "a content block must be a record with a 'type'");
  switch (block.type) {
    case "text":
      if (!nonEmptyString(block.text)) throw invalidRequest(`${at}.text`, "a text block needs non-empty text");
      return;
    case "image": {
      if (role !== "user") throw invalidRequest(`${at}.type`, "image blocks may appear only in user messages");
      const source = block.source;
      if (!isRecord(source)) throw invalidRequest(`${at}.source`, "an image block needs a source (url or inline)");
      if (source.type === "url") {
        if (!nonEmptyString(source.url)) throw invalidRequest(`${at}.source.url`, "a url source needs a non-empty url");
      } else if (source.type === "inline") {
        if (!nonEmptyString(source.base64_data)) throw invalidRequest(`${at}.source.base64_data`, "an inline source needs base64_data");
        if (!nonEmptyString(block.media_type)) throw invalidRequest(`${at}.media_type`, "an inline image needs a media_type");
      } else {
        throw invalidRequest(`${at}.source.type`, "must be 'url' or 'inline'");
      }
      if (block.media_type !== undefined && block.media_type !== null && !(typeof block.media_type === "string" && block.media_type.startsWith("image/"))) {
        throw invalidRequest(`${at}.media_type`, "must be an image/* media type");
      }
      if (block.detail !== undefined && block.detail !== null && !DETAILS.has(block.detail as string)) {
        throw invalidRequest(`${at}.detail`, `must be one of auto, low, high (got ${JSON.stringify(block.detail)})`);
      }
      return;
    }
    case "thinking":
      if (role !== "assistant") throw invalidRequest(`${at}.type`, "thinking blocks may appear only in assistant messages");
      if (!nonEmptyString(block.text)) throw invalidRequest(`${at}.text`, "a thinking block needs non-empty text");
      return;
    case "redacted_thinking":
      if (role !== "assistant") throw invalidRequest(`${at}.type`, "redacted thinking blocks may appear only in assistant messages");
      if (!nonEmptyString(block.data)) throw invalidRequest(`${at}.data`, "a redacted thinking block needs data");
      return;
    default:
      throw invalidRequest(`${at}.type`, `unknown content block type ${JSON.stringify(block.type)}`);
  }
}

function validateContent(content: unknown, at: string, role: "user" | "assistant"): void {
  if (typeof content === "string") {
    if (content.length === 0) throw invalidRequest(at, `a ${role} message needs non-empty content`);
    return;
  }
  if (!Array.isArray(content) || content.length === 0) {
    throw invalidRequest(at, `must be a non-empty string or a non-empty list of content blocks`);
  }
  content.forEach((b, i) => validateBlock(b, `${at}[${i}]`, role));
}

function validateToolCall(call: unknown, at: string): void {
  if (!isRecord(call)) throw invalidRequest(at, "a tool call must be a record");
  if (!nonEmptyString(call.id)) throw invalidRequest(`${at}.id`, "a tool call needs a non-empty id");
  if (!nonEmptyString(call.name)) throw invalidRequest(`${at}.name`, "a tool call needs a non-empty name");
  if (call.arguments !== null && !isRecord(call.arguments)) throw invalidRequest(`${at}.arguments`, "must be a mapping of argument values");
}

/**
 * Validate a message list for a `complete()` call (§3 per-role constraints, §5 ordering): the
 * list is non-empty, only the first message may be `system`, the last is `user` or `tool`, and
 * every `tool_call_id` answers an earlier assistant tool call.
 */
export function validateMessages(messages: unknown): asserts messages is ReadonlyArray<Message> {
  if (!Array.isArray(messages) || messages.length === 0) throw invalidRequest("messages", "must be a non-empty list");
  const callIds = new Set<string>();
  messages.forEach((m, i) => {
    const at = `messages[${i}]`;
    if (!isRecord(m)) throw invalidRequest(at, "a message must be a record with a 'role'");
    if (!ROLES.has(m.role as string)) throw invalidRequest(`${at}.role`, `must be system, user, assistant or tool (got ${JSON.stringify(m.role)})`);
    const role = m.role as Message["role"];
    if (role !== "assistant" && m.tool_calls !== undefined && m.tool_calls !== null) throw invalidRequest(`${at}.tool_calls`, `not allowed on a ${role} message`);
    if (role !== "tool" && m.tool_call_id !== undefined && m.tool_call_id !== null) throw invalidRequest(`${at}.tool_call_id`, `not allowed on a ${role} message`);
    switch (role) {
      case "system":
        if (i !== 0) throw invalidRequest(`${at}.role`, "a system message may only be the first message");
        if (!nonEmptyString(m.content)) throw invalidRequest(`${at}.content`, "a system message needs non-empty string content");
        break;
      case "user":
        validateContent(m.content, `${at}.content`, "user");
        break;
      case "assistant": {
        const calls = m.tool_calls;
        if (calls !== undefined && calls !== null && !Array.isArray(calls)) throw invalidRequest(`${at}.tool_calls`, "must be a list");
        const hasCalls = Array.isArray(calls) && calls.length > 0;
        if (hasCalls) {
          (calls as unknown[]).forEach((c, j) => {
            validateToolCall(c, `${at}.tool_calls[${j}]`);
            callIds.add((c as ToolCall).id);
          });
          const content = m.content;
          if (content !== null && content !== undefined && content !== "") validateContent(content, `${at}.content`, "assistant");
        } else {
          validateContent(m.content, `${at}.content`, "assistant");
        }
        break;
      }
      case "tool":
        if (typeof m.content !== "string") throw invalidRequest(`${at}.content`, "a tool message's content must be a string");
        if (!nonEmptyString(m.tool_call_id)) throw invalidRequest(`${at}.tool_call_id`, "a tool message needs a tool_call_id");
        if (!callIds.has(m.tool_call_id)) {
          throw invalidRequest(`${at}.tool_call_id`, `'${m.tool_call_id}' matches no earlier assistant tool call`);
        }
        break;
    }
  });
  const first = messages[0] as Message;
  if (first.role !== "system" && first.role !== "user") throw invalidRequest("messages[0].role", "the list must begin with system or user");
  if (first.role === "system" && messages.length > 1 && (messages[1] as Message).role !== "user") {
    throw invalidRequest("messages[1].role", "the message after the system message must be user");
  }
  const last = messages[messages.length - 1] as Message;
  if (last.role !== "user" && last.role !== "tool") {
    throw invalidRequest(`messages[${messages.length - 1}].role`, "the last message must be user or tool (the request to the model)");
  }
}

/** Does the message list carry an image block? (capability pre-checks, §7 unsupported content.) */
export function hasImageBlock(messages: ReadonlyArray<Message>): boolean {
  return messages.some((m) => m.role === "user" && Array.isArray(m.content) && m.content.some((b) => b.type === "image"));
}

/** The text of a content value: the string, or its text blocks concatenated. */
export function textOf(content: Message["content"]): string {
  if (typeof content === "string") return content;
  if (content === null) return "";
  return content.map((b) => (b.type === "text" ? b.text : "")).join("");
}
