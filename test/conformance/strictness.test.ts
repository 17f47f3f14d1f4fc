/**
 * Keys the robustness property test found unchecked: every key a fixture writes is checked, even
 * where the run never reads it (an overridden subgraph declaration) or where a mapping is data about
 * a known shape (an edge condition, a seeded record, a resume's modified fields).
 */
import { expect } from "chai";
import { runSnippet } from "../directives/tester.ts";

const GRAPH = `
    state: {fields: {v: {type: string, default: ""}}}
    entry: s
    nodes: {s: {subgraph: inner}}
    edges: [{from: s, to: END}]`;

/** A case whose case-level \`subgraph:\` is overridden by its graph container's; \`shadowedNodes\` is the overridden one's nodes. */
const shadowing = (shadowedNodes: string, extra = ""): string => `
cases:
  - name: c
    subgraph:
      name: inner
      state: {fields: {v: {type: string, default: ""}}}
      entry: x
      nodes: ${shadowedNodes}
      edges: [{from: x, to: END}]${extra}
    graph:
      subgraphs:
        inner:
          state: {fields: {v: {type: string, default: ""}}}
          entry: x
          nodes: {x: {update: {v: graph}}}
          edges: [{from: x, to: END}]${GRAPH.replace(/\n {4}/g, "\n      ")}
    expected:
      final_state: {v: graph}
`;

describe("fixture strictness: keys the run does not read are still checked", function () {
  this.timeout(30_000);

  it("the valid shadowing fixture passes (the baseline of the cases below)", async () => {
    const [r] = await runSnippet(shadowing("{x: {update: {v: case}}}"), "conformance-adapter");
    expect(r!.status, r!.message ?? "").to.equal("passed");
  });

  it("an unknown key in an overridden subgraph declaration is fixture_directive_unknown", async () => {
    const [r] = await runSnippet(shadowing("{x: {update: {v: case}}}", "\n      zz_unknown: 1"), "conformance-adapter");
    expect(r!.category).to.equal("fixture_directive_unknown");
    expect(r!.message).to.contain("zz_unknown");
  });

  it("a default that does not match its type in an overridden declaration is fixture_schema_invalid", async () => {
    const text = shadowing("{x: {update: {v: case}}}").replace('subgraph:\n      name: inner\n      state: {fields: {v: {type: string, default: ""}}}', 'subgraph:\n      name: inner\n      state: {fields: {v: {type: string, default: {mutated: ""}}}}');
    const [r] = await runSnippet(text, "conformance-adapter");
    expect(r!.category, r!.message ?? "").to.equal("fixture_schema_invalid");
    expect(r!.message).to.contain("overridden subgraph declaration's state schema");
  });

  it("a malformed node directive in an overridden declaration is fixture_schema_invalid", async () => {
    const [r] = await runSnippet(shadowing("{x: {update: 42}}"), "conformance-adapter");
    expect(r!.category).to.equal("fixture_schema_invalid");
    expect(r!.message).to.contain("update");
  });

  it("an unknown node directive in an overridden declaration is fixture_directive_unknown", async () => {
    const [r] = await runSnippet(shadowing("{x: {no_such_behavior: 1}}"), "conformance-adapter");
    expect(r!.category).to.equal("fixture_directive_unknown");
    expect(r!.message).to.contain("no_such_behavior");
  });

  it("an edge condition with a key beyond if_field / equals / then / else is fixture_schema_invalid", async () => {
    const yaml = (extra: string) => `
state: {fields: {v: {type: string, default: ""}}}
entry: a
nodes: {a: {update: {v: a}}, b: {update: {v: b}}}
edges:
  - {from: a, condition: {if_field: v, equals: a, then: b, else: END${extra}}}
  - {from: b, to: END}
expected: {final_state: {v: b}}
`;
    const [ok] = await runSnippet(yaml(""));
    expect(ok!.status, ok!.message ?? "").to.equal("passed");
    const [r] = await runSnippet(yaml(", zz_unknown: 1"));
    expect(r!.category).to.equal("fixture_schema_invalid");
    expect(r!.message).to.contain("condition");
  });

  const seeded = (extra: string, modified = "") => `
state: {schema_version: v1, fields: {x: {type: int, default: 0}, done: {type: bool, default: false}}}
entry: n
nodes: {n: {update_pure: {done: true}}}
edges: [{from: n, to: END}]
initial_state: {}
checkpointer: in_memory
seeded_record:
  schema_version: v1
  state: {x: 4, done: false}
  completed_positions: []${extra}
resume:
  from_seeded_record: true${modified}
  expected: {outcome: completed}
`;

  it("a seeded_record key that is no §10.2 record field is fixture_schema_invalid", async () => {
    const [ok] = await runSnippet(seeded(""), "pipeline-utilities");
    expect(ok!.status, ok!.message ?? "").to.equal("passed");
    const [r] = await runSnippet(seeded("\n  zz_unknown: 1"), "pipeline-utilities");
    expect(r!.category).to.equal("fixture_schema_invalid");
    expect(r!.message).to.contain("zz_unknown");
  });

  it("resume_with_modified_items naming an undeclared field is fixture_schema_invalid", async () => {
    const [ok] = await runSnippet(seeded("", "\n  resume_with_modified_items: {x: 9}"), "pipeline-utilities");
    expect(ok!.status, ok!.message ?? "").to.equal("passed");
    const [r] = await runSnippet(seeded("", "\n  resume_with_modified_items: {x: 9, zz_unknown: 1}"), "pipeline-utilities");
    expect(r!.category).to.equal("fixture_schema_invalid");
    expect(r!.message).to.contain("zz_unknown");
  });
});

describe("fixture strictness: reducer factory arguments", () => {
  it("an argument §5.2 does not give the factory is fixture_schema_invalid", async () => {
    const yaml = (args: string) => `
state: {fields: {xs: {type: list, reducer: {bounded_append: {${args}}}, default: []}}}
entry: a
nodes: {a: {update: {xs: [1, 2, 3]}}}
edges: [{from: a, to: END}]
expected: {final_state: {xs: [2, 3]}}
`;
    const [ok] = await runSnippet(yaml("max_len: 2"));
    expect(ok!.status, ok!.message ?? "").to.equal("passed");
    const [r] = await runSnippet(yaml("max_len: 2, zz_unknown: 1"));
    expect(r!.category).to.equal("fixture_schema_invalid");
    expect(r!.message).to.contain("zz_unknown");
  });
});
