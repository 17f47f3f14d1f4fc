import { expect } from "chai";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import { casesOf, thrown } from "./helpers.ts";

const keys = (c: { entries: ReadonlyArray<{ key: string }> }): string[] => c.entries.map((e) => e.key);

describe("fixture model: the shapes of §4", () => {
  it("single-case form: one case named null, entries in document order", () => {
    const [c, ...rest] = casesOf("state: {fields: {}}\nentry: a\nnodes: {a: {}}\nedges: []\nexpected: {}\n");
    expect(rest).to.have.length(0);
    expect(c!.name).to.equal(null);
    expect(keys(c!)).to.deep.equal(["state", "entry", "nodes", "edges", "expected"]);
  });

  it("cases: form: each case independent, shared document keys first, case keys override", () => {
    const cs = casesOf("mapping: openai\ncases:\n  - name: one\n    mapping: tei\n    expected: {}\n  - name: two\n    expected: {}\n");
    expect(cs.map((c) => c.name)).to.deep.equal(["one", "two"]);
    expect(cs[0]!.entries.find((e) => e.key === "mapping")!.value).to.equal("tei");
    expect(cs[1]!.entries.find((e) => e.key === "mapping")!.value).to.equal("openai");
    expect(cs[1]!.entries.find((e) => e.key === "mapping")!.path).to.deep.equal(["mapping"]);
  });

  it("invocations: form stays one case whose entries include the invocations list", () => {
    const [c] = casesOf("state: {fields: {}}\ninvocations:\n  - name: a\n  - name: b\n");
    expect(keys(c!)).to.deep.equal(["state", "invocations"]);
  });

  it("combined: a case of cases: may carry invocations:", () => {
    const [c] = casesOf("cases:\n  - name: x\n    invocations: [{name: a}]\n");
    expect(keys(c!)).to.deep.equal(["name", "invocations"]);
  });

  it("graph: container is flattened into the case, exactly like the direct form", () => {
    const [c] = casesOf("cases:\n  - name: x\n    graph: {state: {fields: {}}, entry: a, nodes: {a: {}}, edges: []}\n    expected: {}\n");
    expect(keys(c!)).to.deep.equal(["name", "state", "entry", "nodes", "edges", "expected"]);
    expect(c!.entries.find((e) => e.key === "entry")!.path).to.deep.equal(["cases", 0, "graph", "entry"]);
  });

  it("a key both inside graph: and beside it is fixture_schema_invalid", () => {
    const err = thrown(() => casesOf("cases:\n  - name: x\n    entry: b\n    graph: {entry: a}\n"));
    expect(err).to.be.instanceOf(FixtureSchemaInvalid);
    expect(err.message).to.contain("'entry' is given both");
  });

  it("graph: holds the graph specification and nothing else (§4.2): another key inside it is fixture_schema_invalid", () => {
    for (const key of ["initial_state: {}", "expected: {}", "invocations: []", "observers: []"]) {
      const err = thrown(() => casesOf(`cases:\n  - name: x\n    graph: {entry: a, ${key}}\n`));
      expect(err, key).to.be.instanceOf(FixtureSchemaInvalid);
      expect(err.message).to.contain(`'${key.slice(0, key.indexOf(":"))}' cannot sit inside 'graph'`);
    }
  });

  it("single-case form: the document may carry the graph: container, flattened like a case's", () => {
    const [c] = casesOf("graph: {subgraphs: {s: {}}, state: {fields: {}}, entry: a, nodes: {a: {}}, edges: []}\ninitial_state: {}\nexpected: {}\n");
    expect(keys(c!)).to.deep.equal(["state", "entry", "nodes", "edges", "initial_state", "expected"]);
    expect(c!.subgraphs.get("s")!.site).to.equal("graph");
    expect(thrown(() => casesOf("graph: {entry: a}\nentry: b\n")).message).to.contain("'entry' is given both");
  });

  it("a document-level graph: beside cases: is fixture_schema_invalid, not dropped", () => {
    const err = thrown(() => casesOf("graph: {entry: a}\ncases:\n  - {name: x}\n"));
    expect(err).to.be.instanceOf(FixtureSchemaInvalid);
    expect(err.message).to.contain("'graph' is a case's container");
  });

  it("a case's conformance_version / cases: is dispatched (then unknown), not silently dropped", () => {
    const [c] = casesOf("cases:\n  - name: x\n    conformance_version: '9.0.0'\n    cases: []\n");
    expect(keys(c!)).to.deep.equal(["name", "conformance_version", "cases"]);
  });

  it("rejects a case without a name, a repeated case name, and a non-list cases:", () => {
    expect(thrown(() => casesOf("cases:\n  - expected: {}\n")).message).to.contain("needs a non-empty string 'name'");
    expect(thrown(() => casesOf("cases:\n  - {name: a}\n  - {name: a}\n")).message).to.contain("used twice");
    expect(thrown(() => casesOf("cases: {a: 1}\n"))).to.be.instanceOf(FixtureSchemaInvalid);
    expect(thrown(() => casesOf("- 1\n- 2\n")).message).to.contain("must be a mapping");
  });
});

describe("fixture model: subgraph declaration placement (§5.4)", () => {
  const body = (tag: string): string => `{state: {fields: {}}, entry: ${tag}, nodes: {}, edges: []}`;

  it("a document-level declaration is in scope for every case", () => {
    const cs = casesOf(`subgraphs:\n  s: ${body("doc")}\ncases:\n  - {name: a}\n  - {name: b}\n`);
    for (const c of cs) expect(c.subgraphs.get("s")!.body.entry).to.equal("doc");
  });

  it("the innermost site wins: graph: over case over document", () => {
    const text = [
      `subgraphs:\n  s: ${body("doc")}\n  t: ${body("doc")}\n  u: ${body("doc")}`,
      "cases:",
      `  - name: a\n    subgraphs:\n      s: ${body("case")}\n      t: ${body("case")}`,
      `    graph:\n      entry: x\n      subgraphs:\n        s: ${body("graph")}`,
      "",
    ].join("\n");
    const [c] = casesOf(text);
    expect(c!.subgraphs.get("s")!.body.entry).to.equal("graph");
    expect(c!.subgraphs.get("s")!.site).to.equal("graph");
    expect(c!.subgraphs.get("t")!.body.entry).to.equal("case");
    expect(c!.subgraphs.get("u")!.body.entry).to.equal("doc");
  });

  it("subgraphs: beats subgraph: for the same name at one site", () => {
    const [c] = casesOf(`subgraph:\n  name: s\n  entry: single\nsubgraphs:\n  s: ${body("mapping")}\n`);
    expect(c!.subgraphs.get("s")!.form).to.equal("subgraphs");
    expect(c!.subgraphs.get("s")!.body.entry).to.equal("mapping");
  });

  it("the single form names its body and drops the name key", () => {
    const [c] = casesOf("subgraph:\n  name: inner\n  entry: x\n");
    expect(c!.subgraphs.get("inner")!.body).to.deep.equal({ entry: "x" });
    expect(keys(c!)).to.not.include("subgraph");
  });

  it("a nameless subgraph: declaration is fixture_schema_invalid", () => {
    const err = thrown(() => casesOf("subgraph:\n  entry: x\n")) as FixtureSchemaInvalid;
    expect(err.category).to.equal("fixture_schema_invalid");
    expect(err.location.path).to.deep.equal(["subgraph"]);
  });
});
