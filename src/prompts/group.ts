/**
 * `PromptGroup` (prompt-management §10): two or more rendered prompts traced as one unit under
 * `group_name`. A grouping hint for observability; it runs nothing.
 */
import { PromptGroupInvalid } from "./errors.ts";
import type { PromptResult } from "./result.ts";

export class PromptGroup {
  readonly members: ReadonlyArray<PromptResult>;
  /** Raises `prompt_group_invalid` when `members` has fewer than two results (§10, at construction). */
  constructor(
    readonly group_name: string,
    members: ReadonlyArray<PromptResult>,
  ) {
    if (typeof group_name !== "string" || group_name === "") throw new PromptGroupInvalid(String(group_name), "group_name must be a non-empty string");
    if (!Array.isArray(members) || members.length < 2) {
      throw new PromptGroupInvalid(group_name, `a group needs at least two members, got ${Array.isArray(members) ? members.length : "no list"}`);
    }
    this.members = Object.freeze([...members]);
  }
}
