/**
 * Prompt-management errors (prompt-management §11). Every error carries its canonical `category`
 * and `transient` flag, and names the prompt or request it concerns.
 *
 * | category | raised |
 * |---|---|
 * | `prompt_not_found` | a backend has no prompt for `(name, label)`; the manager propagates it without falling back (§9) |
 * | `prompt_store_unavailable` | a backend could not be reached / read (transient); the manager raises it only after every backend did (§9) |
 * | `prompt_render_error` | render failed: undefined variable, template syntax error, a Chat-prompt rule (§3.1 / §11); exposes `name`, `version`, `label`, `variables`, `description` |
 * | `prompt_group_invalid` | a `PromptGroup` with fewer than two members (§10) |
 *
 * Project category (the spec defines none for it): `prompt_config_invalid` — a backend's prompt
 * source or sampling config is malformed (a chat-template file that is not a segment list, a
 * sidecar that is not JSON), naming the file. Not transient, so the manager does not fall back past it.
 * An invalid argument (a negative `cache_ttl_seconds`) is a `RangeError`, the language's idiom.
 */

export type PromptErrorCategory =
  | "prompt_not_found"
  | "prompt_store_unavailable"
  | "prompt_render_error"
  | "prompt_group_invalid"
  | "prompt_config_invalid";

export const PROMPT_ERROR_CATEGORIES: readonly PromptErrorCategory[] = Object.freeze([
  "prompt_not_found",
  "prompt_store_unavailable",
  "prompt_render_error",
  "prompt_group_invalid",
  "prompt_config_invalid",
]);

export abstract class PromptError extends Error {
  abstract readonly category: PromptErrorCategory;
  abstract readonly transient: boolean;
}

/** §11 `prompt_not_found`: no prompt matches `(name, label)`. */
export class PromptNotFound extends PromptError {
  override name = "PromptNotFound";
  readonly category = "prompt_not_found" as const;
  readonly transient = false;
  constructor(
    readonly promptName: string,
    readonly label: string,
    detail?: string,
    options?: ErrorOptions,
  ) {
    super(`prompt '${promptName}' (label '${label}') not found${detail ? `: ${detail}` : ""}`, options);
  }
}

/** §11 `prompt_store_unavailable`: backend infrastructure failure. The backend's error is the `cause`. */
export class PromptStoreUnavailable extends PromptError {
  override name = "PromptStoreUnavailable";
  readonly category = "prompt_store_unavailable" as const;
  readonly transient = true;
  constructor(
    readonly promptName: string,
    readonly label: string,
    readonly backend: string,
    detail: string,
    options?: ErrorOptions,
  ) {
    super(`prompt '${promptName}' (label '${label}'): backend '${backend}' unavailable: ${detail}`, options);
  }
}

/**
 * §11 `prompt_render_error`. Exposes the spec's fields under their spec names: `name` is the
 * prompt's name (the error class name is on `errorName` / the constructor), plus `version`,
 * `label`, `variables` (values redacted when a redactor was configured) and `description`.
 */
export class PromptRenderError extends PromptError {
  readonly category = "prompt_render_error" as const;
  readonly transient = false;
  readonly errorName = "PromptRenderError";
  constructor(
    /** The prompt's name (§11 requires the error to expose it under this field). */
    override readonly name: string,
    readonly version: string,
    readonly label: string,
    readonly variables: Readonly<Record<string, unknown>>,
    /** Which segment / block / placeholder failed, and how. */
    readonly description: string,
    options?: ErrorOptions,
  ) {
    super(`cannot render prompt '${name}' (version '${version}', label '${label}'): ${description}`, options);
  }
  override toString(): string {
    return `PromptRenderError: ${this.message}`;
  }
}

/** §11 `prompt_group_invalid`: a group-validity rule of §10 failed at construction. */
export class PromptGroupInvalid extends PromptError {
  override name = "PromptGroupInvalid";
  readonly category = "prompt_group_invalid" as const;
  readonly transient = false;
  constructor(
    readonly groupName: string,
    detail: string,
  ) {
    super(`prompt group '${groupName}' is invalid: ${detail}`);
  }
}

/** Project category `prompt_config_invalid`: a prompt source or config file is malformed. */
export class PromptConfigInvalid extends PromptError {
  override name = "PromptConfigInvalid";
  readonly category = "prompt_config_invalid" as const;
  readonly transient = false;
  constructor(
    readonly promptName: string,
    readonly label: string,
    readonly source: string,
    detail: string,
    options?: ErrorOptions,
  ) {
    super(`prompt '${promptName}' (label '${label}'): ${source}: ${detail}`, options);
  }
}

/** Is `error` a prompt-management error (any category)? */
export function isPromptError(error: unknown): error is PromptError {
  return error instanceof PromptError;
}
