import { directive } from "../../src/conformance/registry.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import type { StateRecord } from "../../src/graph/index.ts";
import type { BuildEnv, NodeAssembly } from "../../harness/graph/node-directive.ts";
import type { KeyPath } from "../../src/conformance/source.ts";

/** The named harness operations the fixtures' prose defines (006, 008: `input_times_two`). */
const OPERATIONS: Readonly<Record<string, (s: Readonly<StateRecord>) => unknown>> = {
  /** `output = input * 2` (fixtures 006 / 008 header comments). */
  input_times_two: (s) => (s["input"] as number) * 2,
};

/**
 * `update_pure_from_state: {<output field>: <operation>}` (conformance-adapter §5.1, observability
 * 006 / 008): the node returns each output field computed from the state by a named operation.
 */
@directive({ name: "update_pure_from_state", at: "node", home: "observability", summary: "return fields derived from state by named operations" })
export class UpdatePureFromState {
  readonly schema = { type: "object", minProperties: 1, additionalProperties: { type: "string" } };
  contribute(value: Record<string, string>, node: NodeAssembly, env: BuildEnv, at: KeyPath): void {
    for (const [field, op] of Object.entries(value)) {
      if (!Object.hasOwn(OPERATIONS, op)) {
        throw new FixtureSchemaInvalid(`unknown harness operation '${op}' (known: ${Object.keys(OPERATIONS).join(", ")})`, env.locate([...at, field]));
      }
    }
    node.steps.push((s) => Object.fromEntries(Object.entries(value).map(([f, op]) => [f, OPERATIONS[op]!(s)])));
  }
}
