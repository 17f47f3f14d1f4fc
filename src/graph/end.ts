/**
 * The `END` routing sentinel (graph-engine §2 *END*).
 *
 * `END` is a distinct engine constant — a symbol, not a reserved node name — so a user node may be
 * named `"END"` without collision.
 */
export const END: unique symbol = Symbol.for("openarmature.graph.END");

/** The type of the {@link END} sentinel. */
export type End = typeof END;

/** A routing target: a declared node name or {@link END}. */
export type RouteTarget = string | End;

/** Human-readable rendering of a route target (for diagnostics). */
export function formatTarget(target: unknown): string {
  if (target === END) return "END";
  if (typeof target === "string") return JSON.stringify(target);
  if (typeof target === "symbol") return target.toString();
  try {
    return JSON.stringify(target) ?? String(target);
  } catch {
    return String(target);
  }
}
