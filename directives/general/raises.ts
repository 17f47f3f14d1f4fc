import { directive } from "../../src/conformance/registry.ts";
import type { JsonSchema } from "../../src/conformance/directive.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import type { BuildEnv, NodeAssembly } from "../../harness/graph/node-directive.ts";
import { declareMock, raisedByMock } from "../../harness/graph/mock-raises.ts";

/** The exception a `raises:` node throws. */
export class FixtureNodeError extends Error {
  override name = "FixtureNodeError";
}

/** A categorized error a `raises: {category, message}` node throws (a capability error's stand-in). */
export class CategorizedFixtureError extends FixtureNodeError {
  override name = "CategorizedFixtureError";
  constructor(readonly category: string, message: string) {
    super(message);
  }
}

/** Every form of `raises:` at a node: the seed's string, and the mapping the directory notes define. */
export type RaisesValue = string | { readonly message?: string; readonly category?: string; readonly exception_kind?: string };

/**
 * `raises: "<message>"` (conformance-adapter §5.1): the node raises instead of returning (graph-engine
 * §4). One implementation of every form the notes add — a directory's registration only widens the
 * schema to the mapping sub-keys its note defines (`{category, message}`: harness, harness-chat,
 * sessions; `{message, exception_kind}`: pipeline-utilities), so outside those directories a mapping
 * is `fixture_schema_invalid`:
 *
 * - `message` (default `node '<name>' raised`);
 * - `category`: the error carries that category; `node_exception` means an uncategorized error
 *   (the category the engine's carrier gives it);
 * - `exception_kind`: the error's type name (e.g. `ValueError`), carried as its `name`.
 *
 * The node is a fixture mock: what it raised is recorded for `expected_error.cause.raised_by_mock`.
 */
@directive({ name: "raises", at: "node", home: "general", summary: "raise an exception with this message" })
export class Raises {
  readonly schema: JsonSchema = { type: "string" };
  contribute(value: RaisesValue, node: NodeAssembly, env: BuildEnv, _at?: KeyPath): void {
    declareMock(env, node.name);
    node.steps.push(() => {
      throw raisedByMock(env, node.name, raisedError(value, node.name));
    });
  }
}

function raisedError(value: RaisesValue, node: string): FixtureNodeError {
  if (typeof value === "string") return new FixtureNodeError(value);
  const message = value.message ?? `node '${node}' raised`;
  const e = value.category !== undefined && value.category !== "node_exception" ? new CategorizedFixtureError(value.category, message) : new FixtureNodeError(message);
  if (value.exception_kind !== undefined) e.name = value.exception_kind;
  return e;
}

/** The schema of a directory's `raises:`: the string form or its note's mapping. */
export function raisesSchema(mapping: Record<string, unknown>): JsonSchema {
  return { oneOf: [{ type: "string" }, { type: "object", additionalProperties: false, ...mapping }] };
}
