/**
 * Cause-chain classification (pipeline-utilities §6.4; the *Cause fidelity* walk of §6.3).
 *
 * {@link classifyCause} is the one public primitive every consumer — the §6.3 `catch` gate, the
 * §6.3 `caught_exception` report, §6.1 retry classifiers, custom predicates, routers, metrics,
 * error assertions — uses to classify a failure *through* the graph-engine §4 `node_exception`
 * carrier wrappers the engine adds at subgraph / fan-out / branch boundaries.
 */
import { messageOf, NodeException, type NodeContext } from "../../graph/index.ts";

/** One link of a cause chain (§6.3 `caught_exception.chain[i]`). */
export interface CauseLink {
  /** The link's failure category (its `category` property when a non-empty string), else `null`. */
  readonly category: string | null;
  /** The link's own message. */
  readonly message: string;
  /**
   * `true` when the link is a graph-engine §4 carrier wrapper — `node_exception` and its subtypes
   * (e.g. §11.9 `parallel_branches_branch_failed`), i.e. the engine's `isCarrier` errors.
   */
  readonly carrier: boolean;
}

/** The result of {@link classifyCause} (§6.4); the shape of §6.3 `caught_exception`. */
export interface CauseClassification {
  /** Derived category: the outermost non-carrier link whose category is a non-empty string, or `null`. */
  readonly category: string | null;
  /**
   * Derived message: the message of the link that gave {@link category}; when no non-carrier link
   * has a category, the outermost non-carrier link's message (the outermost link's when every
   * link is a carrier).
   */
  readonly message: string;
  /** The cause chain, outermost (the classified error, index 0) to innermost (the originating raise). */
  readonly chain: readonly CauseLink[];
}

/** The `category` of `error` when it is a non-empty string, else `null` (§6.2 `exception_category`). */
export function categoryOf(error: unknown): string | null {
  if (typeof error !== "object" || error === null) return null;
  const c = (error as { category?: unknown }).category;
  return typeof c === "string" && c.length > 0 ? c : null;
}

/** Is `error` a graph-engine §4 carrier wrapper (`node_exception` or a subtype)? */
export function isCarrier(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { isCarrier?: unknown }).isCarrier === true;
}

/** Is `value` an exception (an `Error`, including one from another realm)? */
function isException(value: unknown): value is Error {
  return value instanceof Error || Object.prototype.toString.call(value) === "[object Error]";
}


/**
 * Classify `error` by its cause chain (§6.4). Walks `Error.cause` from `error` (outermost) to the
 * originating raise, one link per exception; stops at the first link whose `cause` is not itself an
 * exception, and on a repeated reference (a cyclic chain never hangs). Carrier links stay in the
 * chain (`carrier: true`, with their own category such as `node_exception`) but are skipped when
 * deriving the category.
 *
 * ```ts
 * const { category, chain } = classifyCause(err);
 * if (category === "provider_rate_limit") … // resolved through any node_exception carriers
 * ```
 */
export function classifyCause(error: unknown): CauseClassification {
  const chain: CauseLink[] = [];
  const seen = new Set<unknown>();
  let e: unknown = error;
  for (;;) {
    seen.add(e);
    chain.push(Object.freeze({ category: categoryOf(e), message: messageOf(e), carrier: isCarrier(e) }));
    if (!isException(e)) break;
    const cause: unknown = (e as { cause?: unknown }).cause;
    if (!isException(cause) || seen.has(cause)) break;
    e = cause;
  }
  let derived: CauseLink | undefined;
  let firstNonCarrier: CauseLink | undefined;
  for (const link of chain) {
    if (link.carrier) continue;
    firstNonCarrier ??= link;
    if (link.category !== null) {
      derived = link;
      break;
    }
  }
  return Object.freeze({
    category: derived?.category ?? null,
    message: (derived ?? firstNonCarrier ?? chain[0]!).message,
    chain: Object.freeze(chain),
  });
}

/**
 * The error as the wrapped chain raised it, for middleware running in a node's own chain.
 *
 * The engine closes each failed attempt (its `completed` event) before the middleware's `next()`
 * rejects, and in doing so wraps the raw error as this node's own `node_exception` carrier. The
 * spec's middleware model (§2, §6.3 *Cause fidelity*: "at node-level placement no carrier is
 * present — the middleware catches the raw error") sees the raw error, so the canonical middleware
 * look through exactly that one wrapper: a plain `NodeException` raised from `ctx`'s own node and
 * step. Carriers from anywhere else — an inner subgraph / fan-out / branch node, a composite node's
 * own wrapper such as `parallel_branches_branch_failed` — are kept, as the spec requires. Re-raise
 * the original value, not the result, so the engine keeps its error identity.
 */
export function surfaceError(error: unknown, ctx: Pick<NodeContext, "nodeName" | "namespace" | "step">): unknown {
  if (!(error instanceof NodeException) || Object.getPrototypeOf(error) !== NodeException.prototype) return error;
  if (error.nodeName !== ctx.nodeName || error.step !== ctx.step) return error;
  const ns = error.namespace;
  const own = ctx.namespace;
  if (ns.length !== own.length || ns.some((n, i) => n !== own[i])) return error;
  return error.cause;
}
