/**
 * The conversation-history convention (harness-chat §4): sessioned chat graphs keep the ordered
 * `ChatMessage` list in the state field `messages` with the `append` reducer. {@link messagesField}
 * declares exactly that field; the chat harness reads and writes through {@link MESSAGES_FIELD}.
 *
 * ```ts
 * const State = defineState({ messages: messagesField(), approved: field.bool().default(false) });
 * ```
 */
import { append, field, type FieldBuilder } from "../../graph/index.ts";
import type { ChatMessage } from "./message.ts";

/** §4: the canonical field name (v1 mandates it). */
export const MESSAGES_FIELD = "messages";

/** §4: `messages: list[ChatMessage]`, default `[]`, reducer `append`. */
export function messagesField(): FieldBuilder<readonly ChatMessage[], unknown> {
  return field.list(field.any<ChatMessage>()).default([]).reducer(append);
}

/** The history held in `state`, or `[]` (a missing or non-list field is no history). */
export function historyOf(state: Readonly<Record<string, unknown>> | null | undefined): readonly ChatMessage[] {
  const v = state?.[MESSAGES_FIELD];
  return Array.isArray(v) ? (v as readonly ChatMessage[]) : [];
}
