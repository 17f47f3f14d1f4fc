/**
 * `ChatMessage` (harness-chat §3): the llm-provider §3 message shape, unchanged — so a chat
 * message can go straight to a provider's `complete()` — and its validation at the `send()`
 * boundary (§3.1): {@link validateChatMessage} raises {@link ChatMessageShapeInvalidError}
 * (`chat_message_shape_invalid`, §10.4, a user-correctable error) listing every problem found.
 */

export interface TextBlock {
  readonly type: "text";
  readonly text: string;
  readonly signature?: string;
}
export type ImageSource = { readonly type: "url"; readonly url: string } | { readonly type: "inline"; readonly base64_data: string };
export interface ImageBlock {
  readonly type: "image";
  readonly source: ImageSource;
  readonly media_type?: string;
  readonly detail?: "auto" | "low" | "high";
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
/** llm-provider §3.1: the four content-block types. */
export type ContentBlock = TextBlock | ImageBlock | ThinkingBlock | RedactedThinkingBlock;

/** llm-provider §3 `ToolCall`. */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>> | null;
  readonly signature?: string;
}

export type ChatRole = "system" | "user" | "assistant" | "tool";

export interface SystemMessage {
  readonly role: "system";
  readonly content: string;
}
export interface UserMessage {
  readonly role: "user";
  readonly content: string | readonly (TextBlock | ImageBlock)[];
}
export interface AssistantMessage {
  readonly role: "assistant";
  readonly content?: string | readonly (TextBlock | ThinkingBlock | RedactedThinkingBlock)[];
  readonly tool_calls?: readonly ToolCall[];
}
export interface ToolMessage {
  readonly role: "tool";
  readonly content: string;
  readonly tool_call_id: string;
}
/** harness-chat §3: one message at the chat boundary. */
export type ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** §10.4 `chat_message_shape_invalid`. `issues` names every problem (a key path and what is wrong). */
export class ChatMessageShapeInvalidError extends Error {
  override name = "ChatMessageShapeInvalidError";
  readonly category = "chat_message_shape_invalid";
  constructor(readonly issues: readonly string[]) {
    super(`chat message is not a valid ChatMessage: ${issues.join("; ")}`);
  }
}

const ROLES: readonly string[] = ["system", "user", "assistant", "tool"];
const MESSAGE_KEYS: readonly string[] = ["role", "content", "tool_calls", "tool_call_id"];

function isMapping(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
function nonEmptyString(v: unknown): v is string {
  return typeof v === "string" && v.length > 0;
}

function blockIssues(b: unknown, at: string, allowed: readonly string[], out: string[]): void {
  if (!isMapping(b)) return void out.push(`${at}: a content block must be a mapping`);
  const type = b["type"];
  if (!["text", "image", "thinking", "redacted_thinking"].includes(type as string)) {
    return void out.push(`${at}.type: ${JSON.stringify(type)} is not a content-block type (text, image, thinking, redacted_thinking)`);
  }
  if (!allowed.includes(type as string)) out.push(`${at}: a ${String(type)} block is not allowed in this role's content`);
  if (type === "text" || type === "thinking") {
    if (!nonEmptyString(b["text"])) out.push(`${at}.text: must be a non-empty string`);
  } else if (type === "redacted_thinking") {
    if (typeof b["data"] !== "string") out.push(`${at}.data: must be a string`);
  } else {
    const src = b["source"];
    if (!isMapping(src)) out.push(`${at}.source: must be {type: "url", url} or {type: "inline", base64_data}`);
    else if (src["type"] === "url") {
      if (!nonEmptyString(src["url"])) out.push(`${at}.source.url: must be a non-empty string`);
    } else if (src["type"] === "inline") {
      if (!nonEmptyString(src["base64_data"])) out.push(`${at}.source.base64_data: must be a non-empty string`);
      if (!nonEmptyString(b["media_type"])) out.push(`${at}.media_type: required for an inline image`);
    } else out.push(`${at}.source.type: ${JSON.stringify(src["type"])} is neither "url" nor "inline"`);
    if (b["detail"] !== undefined && !["auto", "low", "high"].includes(b["detail"] as string)) out.push(`${at}.detail: must be auto, low or high`);
  }
}

function contentIssues(content: unknown, allowed: readonly string[], optional: boolean, out: string[]): void {
  if (content === undefined || content === null || content === "" || (Array.isArray(content) && content.length === 0)) {
    if (!optional) out.push("content: required — a non-empty string or a non-empty list of content blocks");
    return;
  }
  if (typeof content === "string") return;
  if (!Array.isArray(content)) return void out.push("content: must be a string or a list of content blocks");
  content.forEach((b, i) => blockIssues(b, `content[${i}]`, allowed, out));
}

/** The problems with `m` as a ChatMessage (empty when it is valid). */
export function chatMessageIssues(m: unknown): string[] {
  const out: string[] = [];
  if (!isMapping(m)) return ["the message must be a mapping {role, content, ...}"];
  const role = m["role"];
  const unknown = Object.keys(m).filter((k) => !MESSAGE_KEYS.includes(k));
  if (unknown.length > 0) out.push(`${unknown.join(", ")}: not a ChatMessage field (role, content, tool_calls, tool_call_id)`);
  if (!ROLES.includes(role as string)) return [...out, `role: ${JSON.stringify(role)} is not one of system, user, assistant, tool`];
  const toolCalls = m["tool_calls"];
  const hasToolCalls = Array.isArray(toolCalls) && toolCalls.length > 0;
  if (role !== "assistant" && toolCalls !== undefined) out.push(`tool_calls: only an assistant message may carry tool calls`);
  if (role !== "tool" && m["tool_call_id"] !== undefined) out.push(`tool_call_id: only a tool message carries one`);
  switch (role) {
    case "system":
      if (!nonEmptyString(m["content"])) out.push("content: a system message needs a non-empty string");
      break;
    case "user":
      contentIssues(m["content"], ["text", "image"], false, out);
      break;
    case "assistant":
      contentIssues(m["content"], ["text", "thinking", "redacted_thinking"], hasToolCalls, out);
      if (toolCalls !== undefined) {
        if (!Array.isArray(toolCalls)) out.push("tool_calls: must be a list of {id, name, arguments}");
        else
          toolCalls.forEach((t, i) => {
            if (!isMapping(t)) return void out.push(`tool_calls[${i}]: must be a mapping {id, name, arguments}`);
            if (!nonEmptyString(t["id"])) out.push(`tool_calls[${i}].id: must be a non-empty string`);
            if (!nonEmptyString(t["name"])) out.push(`tool_calls[${i}].name: must be a non-empty string`);
            if (t["arguments"] !== null && !isMapping(t["arguments"])) out.push(`tool_calls[${i}].arguments: must be a mapping (or null)`);
          });
      }
      break;
    case "tool":
      if (typeof m["content"] !== "string") out.push("content: a tool message's content is the tool's result as a string");
      if (!nonEmptyString(m["tool_call_id"])) out.push("tool_call_id: a tool message needs the id of the assistant tool call it answers");
      break;
  }
  return out;
}

/** §3.1: `m` as a ChatMessage, or `chat_message_shape_invalid`. */
export function validateChatMessage(m: unknown): ChatMessage {
  const issues = chatMessageIssues(m);
  if (issues.length > 0) throw new ChatMessageShapeInvalidError(issues);
  return m as ChatMessage;
}
