/** The `PromptResult` record (prompt-management §4). */
import type { PromptMessage } from "./messages.ts";
import type { SamplingConfig, TokenBudget } from "./sampling.ts";

export interface PromptResult {
  readonly name: string;
  readonly version: string;
  readonly label: string;
  readonly template_hash: string;
  /** SHA-256 over the canonical serialization of `messages` (roles, content blocks, tool calls). */
  readonly rendered_hash: string;
  /** Non-empty; ready to pass to `Provider.complete()`. */
  readonly messages: ReadonlyArray<PromptMessage>;
  /** The variables the render used (values redacted when a redactor was configured). */
  readonly variables: Readonly<Record<string, unknown>>;
  readonly fetched_at: Date;
  readonly rendered_at: Date;
  readonly sampling?: SamplingConfig;
  readonly token_budget?: TokenBudget;
  readonly observability_entities?: Readonly<Record<string, unknown>>;
}
