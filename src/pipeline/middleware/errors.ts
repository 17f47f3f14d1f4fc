/**
 * Categorized errors and control signals for the canonical middleware (pipeline-utilities §6).
 *
 * The middleware classify failures by their **category** — the string identifier every spec'd
 * error exposes (llm-provider §7, graph-engine §4, pipeline-utilities §9 / §10 / §11). Any error
 * with a string `category` property takes part; {@link CategorizedError} is a ready-made one for
 * application code, tests and mocks that have no capability-specific error class.
 */
import { GraphInterrupt } from "../../graph/index.ts";

/** Options for {@link CategorizedError}. */
export interface CategorizedErrorOptions extends ErrorOptions {
  /**
   * Whether the error's carrying spec marks it transient (§6.1 "any exception whose carrying spec
   * marks it transient"). Leave unset to let the category decide.
   */
  readonly transient?: boolean;
}

/**
 * An error carrying a failure `category` (e.g. `provider_rate_limit`), optionally marked
 * `transient`, with the standard `cause` linkage (§6.3 / §6.4 walk it).
 *
 * ```ts
 * throw new CategorizedError("provider_unavailable", "upstream 503", { cause: httpError });
 * ```
 */
export class CategorizedError extends Error {
  override name = "CategorizedError";
  /** The failure category identifier (llm-provider §7 / graph-engine §4 enum, or an application one). */
  readonly category: string;
  /** Explicit transient marking; `undefined` when the category alone decides. */
  readonly transient: boolean | undefined;

  constructor(category: string, message: string, options: CategorizedErrorOptions = {}) {
    super(message, options.cause !== undefined ? { cause: options.cause } : undefined);
    if (typeof category !== "string" || category.length === 0) throw new TypeError("CategorizedError: category must be a non-empty string");
    this.category = category;
    this.transient = options.transient;
  }
}

/**
 * Is `error` a cancellation signal (§6.1 *Cancellation signals MUST propagate*): an `AbortError`
 * (`AbortSignal` / `DOMException` / Node's `ABORT_ERR`), a `CancelledError` (fan-out / parallel
 * branches cancelling siblings under `fail_fast`) or the engine's `invocation_cancelled` (the
 * caller's `invoke({ signal })` aborted)? Looks through graph-engine §4 carrier wrappers,
 * so an inner node's cancellation surfacing as a `node_exception` still counts.
 */
export function isCancellation(error: unknown): boolean {
  const seen = new Set<unknown>();
  let e: unknown = error;
  while (typeof e === "object" && e !== null && !seen.has(e)) {
    seen.add(e);
    const name = (e as { name?: unknown }).name;
    const code = (e as { code?: unknown }).code;
    if (name === "AbortError" || name === "CancelledError" || code === "ABORT_ERR") return true;
    if ((e as { category?: unknown }).category === "invocation_cancelled") return true;
    if ((e as { isCarrier?: unknown }).isCarrier !== true) return false;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Control-flow signals the canonical middleware never catch, retry, time or isolate: cancellation
 * (see {@link isCancellation}) and suspension (`GraphInterrupt`, suspension §3). They are the
 * TypeScript counterparts of Python's `BaseException`-derived signals (§6.1, §6.3 *Catch
 * semantics*).
 */
export function isControlSignal(error: unknown): boolean {
  return error instanceof GraphInterrupt || isCancellation(error);
}
