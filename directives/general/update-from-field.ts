import { directive } from "../../src/conformance/registry.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import type { BuildEnv, NodeAssembly } from "../../harness/graph/node-directive.ts";
import type { KeyPath } from "../../src/conformance/source.ts";

/**
 * `update_from_field: {<target>: <source_field>, multiplier: <int>}` (conformance-adapter §5.1):
 * returns `{<target>: state[<source_field>] * multiplier}` (multiplier defaults to 1). With the
 * default a value of any type is copied; another multiplier on a non-number value is the
 * fixture's defect (`fixture_schema_invalid`), never a silent copy.
 */
@directive({ name: "update_from_field", at: "node", home: "general", summary: "target = source field × multiplier" })
export class UpdateFromField {
  readonly schema = {
    type: "object",
    properties: { multiplier: { type: "number" } },
    additionalProperties: { type: "string" },
    minProperties: 1,
  };
  contribute(value: Record<string, string | number>, node: NodeAssembly, env: BuildEnv, at: KeyPath): void {
    const { multiplier = 1, ...pairs } = value as { multiplier?: number } & Record<string, string>;
    const entries = Object.entries(pairs);
    if (entries.length !== 1) throw new FixtureSchemaInvalid("update_from_field takes exactly one <target>: <source_field> pair", env.locate(at));
    const [[target, source]] = entries as [[string, string]];
    if (env.fieldNames.size > 0 && !env.fieldNames.has(source)) {
      throw new FixtureSchemaInvalid(`update_from_field reads '${source}', which the state does not declare`, env.locate([...at, target]));
    }
    node.steps.push((state) => {
      const v = state[source];
      if (typeof v === "number") return { [target]: v * multiplier };
      // Only a number is multiplied; a copy (multiplier 1) takes any value as it is.
      if (multiplier !== 1) {
        throw new FixtureSchemaInvalid(`update_from_field multiplies '${source}' by ${multiplier}, but its value is ${v === null ? "null" : Array.isArray(v) ? "a list" : `a ${typeof v}`}, not a number`, env.locate([...at, "multiplier"]));
      }
      return { [target]: v };
    });
  }
}
