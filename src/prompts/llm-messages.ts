/**
 * A PromptResult's messages as llm-provider §3 `Message`s, for `Provider.complete()`.
 *
 * The one place the two specs disagree: prompt-management §3 renders a system segment written as
 * content blocks to a system message with text blocks (and `rendered_hash` is computed over them),
 * while llm-provider §3 requires a system message's content to be a non-empty string. The render
 * keeps the blocks; `complete()` refuses them pre-send (`provider_invalid_request` naming
 * `messages[i].content`); this function joins a system message's text blocks into its string (as
 * llm-provider's `textOf` reads content). Every other message passes unchanged — the provider
 * validates the whole list when it is sent.
 */
import { textOf, type Message } from "../llm/messages.ts";
import type { PromptMessage } from "./messages.ts";

export function toLlmMessages(messages: ReadonlyArray<PromptMessage>): Message[] {
  return messages.map((m) => (m.role === "system" && typeof m.content !== "string" ? { role: "system", content: textOf(m.content) } : (m as Message)));
}
