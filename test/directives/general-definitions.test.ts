/**
 * Directives with one general definition (issue 10, item 5): recognized in every directory the seed
 * allows, by one implementation — not per-directory copies.
 */
import { expect } from "chai";
import { loadConformance } from "../../src/conformance/setup.ts";
import { directiveTester, linear } from "./tester.ts";

// §5.16 wire-request assertions are general: a directory whose harness makes no provider call
// recognizes them and says there is no call (before: fixture_directive_unknown outside llm-provider
// and retrieval-provider).
for (const capability of ["graph-engine", "pipeline-utilities", "sessions", "suspension"]) {
  directiveTester(`§5.16 wire-request assertions under ${capability}`, {
    capability,
    template: (b) => linear("final_state: {v: 3, log: [a, b, c]}", b),
    valid: [],
    invalid: [
      { code: "expected_wire_request_count: 1", category: "harness_primitive_missing", message: "provider call" },
      { code: "expected_wire_url: http://x", category: "harness_primitive_missing", message: "provider call" },
      { code: "expected_wire_request_count: -1", category: "fixture_schema_invalid", message: "expected_wire_request_count" },
    ],
  });
}

describe("general definitions: one class behind every directory's lookup", () => {
  it("the §5.16 wire-request directives and node-position raises resolve to general classes (refinements extend them)", async () => {
    const registry = await loadConformance();
    for (const name of ["expected_wire_request", "expected_wire_request_includes", "expected_wire_request_absent_keys", "expected_wire_headers", "expected_wire_request_count", "expected_wire_url"]) {
      for (const dir of ["llm-provider", "retrieval-provider", "graph-engine", "sessions"]) {
        expect(registry.lookup("case", name, dir)?.meta.home, `${name} under ${dir}`).to.equal("general");
      }
    }
    const general = registry.lookup("node", "raises", "graph-engine")!.directive.constructor as new () => object;
    for (const dir of ["pipeline-utilities", "sessions", "harness", "harness-chat"]) {
      const cls = registry.lookup("node", "raises", dir)!.directive.constructor as { prototype: object };
      expect(cls === general || cls.prototype instanceof general, `raises under ${dir}`).to.equal(true);
      // A refinement only widens the schema: the body is the general one.
      expect(Object.prototype.hasOwnProperty.call(cls.prototype, "contribute"), `raises under ${dir} has its own contribute`).to.equal(false);
    }
  });
});

// Node-position raises: the mapping form is a directory note's; outside those directories it is a
// clear schema error, and the string form works everywhere.
directiveTester("raises {category, message} outside the notes that define it", {
  template: (b) => b,
  valid: [linear("outcome: errored").replace("b: {update: {v: 2, log: [b]}}", 'b: {raises: "plain"}')],
  invalid: [{ code: linear("outcome: errored").replace("b: {update: {v: 2, log: [b]}}", "b: {raises: {category: provider_unavailable, message: m}}"), category: "fixture_schema_invalid", message: "'raises' must be string" }],
});

directiveTester("raises {category, message} under sessions (its note)", {
  capability: "sessions",
  template: (b) => linear(b).replace("b: {update: {v: 2, log: [b]}}", "b: {raises: {category: provider_unavailable, message: down}}"),
  valid: ["outcome: errored\nerror: {category: provider_unavailable}"],
  invalid: [{ code: "error: {category: node_exception}", message: 'expected.error.category: expected "node_exception", got "provider_unavailable"' }],
});
