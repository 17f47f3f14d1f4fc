/**
 * The llm-provider §3 message shapes a render produces. Structurally the same records as
 * `openarmature/llm`'s `Message` (spec field names: `media_type`, `base64_data`, ...), so a
 * `PromptResult.messages` list passes to `Provider.complete()` as it is.
 */
export interface TextBlock {
  readonly type: "text";
  readonly text: string;
}
export type ImageSource = { readonly type: "url"; readonly url: string } | { readonly type: "inline"; readonly base64_data: string };
export interface ImageBlock {
  readonly type: "image";
  readonly source: ImageSource;
  readonly media_type?: string;
  readonly detail?: "auto" | "low" | "high";
}
export type ContentBlock = TextBlock | ImageBlock;

/** A message as a render produces it, or as a caller injects it through a placeholder (llm-provider §3). */
export type PromptMessage =
  | { readonly role: "system"; readonly content: string | ReadonlyArray<TextBlock> }
  | { readonly role: "user"; readonly content: string | ReadonlyArray<TextBlock | ImageBlock> }
  | {
      readonly role: "assistant";
      /** Text, or blocks (thinking blocks included, as the provider returned them). */
      readonly content: string | ReadonlyArray<TextBlock | { readonly type: string; readonly [field: string]: unknown }> | null;
      readonly tool_calls?: ReadonlyArray<{ readonly id: string; readonly name: string; readonly arguments: unknown }> | null;
    }
  | { readonly role: "tool"; readonly content: string; readonly tool_call_id: string };
