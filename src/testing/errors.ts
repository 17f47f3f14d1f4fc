/**
 * Testing-surface failures (ADR-0052 D4). Both are `CategorizedError`s with documented project
 * categories, non-transient (a retry middleware never retries them):
 * - `script_invalid`: a malformed script — the message names the entry and the field;
 * - `script_exhausted`: a call the script has no response for — the message names the call
 *   index, the available positional count or the unmatched condition, and the last user message.
 * A non-mapping entry (or an unsupported script source) is a `TypeError`.
 */
import { CategorizedError } from "../pipeline/middleware/errors.ts";

export class ScriptInvalidError extends CategorizedError {
  override name = "ScriptInvalidError";
  constructor(message: string) {
    super("script_invalid", message, { transient: false });
  }
}

export class ScriptExhaustedError extends CategorizedError {
  override name = "ScriptExhaustedError";
  /** The provider's 0-based call index of the unanswered call. */
  readonly callIndex: number;
  /** The last user message of the request, when one could be extracted. */
  readonly lastUserMessage: string | null;
  constructor(message: string, callIndex: number, lastUserMessage: string | null) {
    super("script_exhausted", message, { transient: false });
    this.callIndex = callIndex;
    this.lastUserMessage = lastUserMessage;
  }
}
