/**
 * Conditional-edge conditions (conformance-adapter §5.3): the `if_field / equals / then / else`
 * form, and the named callables fixtures use (`state_field_read`, `edge_raises`).
 */
import { FixtureDirectiveUnknown, FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import { END, type EdgeFn, type RouteTarget, type StateRecord } from "../../src/graph/index.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import type { BuildEnv } from "./node-directive.ts";
import { valuesEqual } from "./values.ts";

export interface Condition {
  readonly fn: EdgeFn<StateRecord>;
  /** Destinations the fixture declares the edge can name (reachability; others are routing errors). */
  readonly targets: readonly string[];
}

const target = (t: string): RouteTarget => (t === "END" ? END : t);

/** The error an `edge_raises` condition throws. */
export class EdgeConditionError extends Error {
  override name = "EdgeConditionError";
}

export function edgeCondition(c: Readonly<Record<string, unknown>>, path: KeyPath, env: BuildEnv, _fields: ReadonlySet<string>): Condition {
  if ("callable" in c) {
    switch (c.callable) {
      case "state_field_read": {
        const field = c.field;
        if (typeof field !== "string") throw new FixtureSchemaInvalid("state_field_read needs a string 'field'", env.locate([...path, "field"]));
        return { fn: (s) => target(String(s[field])), targets: [] };
      }
      case "edge_raises": {
        const message = typeof c.message === "string" ? c.message : "edge function raised";
        return {
          fn: () => {
            throw new EdgeConditionError(message);
          },
          targets: [],
        };
      }
      default:
        throw new FixtureDirectiveUnknown([{ name: `condition.callable: ${String(c.callable)}`, position: "edge", location: env.locate([...path, "callable"]) }]);
    }
  }
  const { if_field, equals, then: thenT, else: elseT } = c as { if_field?: unknown; equals?: unknown; then?: unknown; else?: unknown };
  if (typeof if_field !== "string" || typeof thenT !== "string" || typeof elseT !== "string" || !("equals" in c)) {
    throw new FixtureSchemaInvalid("a condition needs if_field, equals, then and else (or a callable)", env.locate(path));
  }
  // The destinations are data the edge returns at run time: one naming no node is a routing_error
  // then (graph-engine §4), not a compile-time dangling edge, so they are not declared as targets.
  return {
    fn: (s) => (valuesEqual(s[if_field], equals) ? target(thenT) : target(elseT)),
    targets: [],
  };
}
