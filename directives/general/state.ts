import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import { graphSpecOf } from "../../harness/graph/graph-spec.ts";
import { useGraphExecutor } from "../../harness/graph/use-graph.ts";
import { legacyStringTypes } from "../legacy/retirements.ts";

/** A factory's arguments mapping: the argument names §5.2 gives it (values are the engine's to judge). */
const args = (...names: string[]) => ({
  type: ["object", "null"],
  additionalProperties: false,
  properties: Object.fromEntries(names.map((n) => [n, {}])),
});

const reducer = {
  oneOf: [
    { type: "string" },
    {
      type: "object",
      minProperties: 1,
      maxProperties: 1,
      properties: { bounded_append: args("max_len"), dedupe_append: args("key"), merge_by_key: args("key") },
      additionalProperties: { type: ["object", "null"] },
    },
  ],
};

/**
 * `state:` (conformance-adapter §5.2): the typed-state schema — `fields.<name>.{type, default,
 * reducer}` — compiled by the engine into JSON Schema and validated at every merge boundary.
 * `schema_version` is the schema's user-facing version (pipeline-utilities §10.2), which checkpoint
 * records carry and §10.12 migrations bridge. The sessions corpus's `type: str`, which no spec
 * version defines, is the legacy bundle's: read as `string` in every directory, counted as a
 * deprecation, refused under `--strict-vocabulary`.
 */
@directive({ name: "state", at: ["case", "subgraph"], home: "general", summary: "typed state schema" })
export class State {
  readonly schema = {
    type: "object",
    required: ["fields"],
    additionalProperties: false,
    properties: {
      fields: {
        type: "object",
        additionalProperties: {
          type: "object",
          required: ["type"],
          additionalProperties: false,
          properties: { type: { type: "string" }, default: true, reducer, alt_reducer: reducer, required: { type: "boolean" } },
        },
      },
      records: { type: "object", additionalProperties: { type: "object" } },
      schema_version: { type: "string" },
    },
  };
  configure(written: Record<string, unknown>, ctx: ConfigureContext): void {
    const value = legacyStringTypes(written, ctx.self.path, ctx);
    for (const name of Object.keys(value.fields as object)) {
      if (name === "absent_keys" || name.endsWith("_absent_keys")) {
        throw new FixtureSchemaInvalid(`state field '${name}' uses a reserved absence key name (§5)`, ctx.locate([...ctx.self.path, "fields", name]));
      }
    }
    graphSpecOf(ctx).state = { value, path: ctx.self.path };
    useGraphExecutor(ctx);
  }
}
