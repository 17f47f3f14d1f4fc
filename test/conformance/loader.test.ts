import { expect } from "chai";
import { FixtureSource } from "../../src/conformance/source.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import { thrown } from "./helpers.ts";

describe("fixture loader", () => {
  it("keeps mapping key order and locates keys by path", () => {
    const src = FixtureSource.parse("f.yaml", "nodes:\n  b:\n    update: {x: 1}\n  a:\n    raises: boom\n");
    expect(Object.keys((src.data as { nodes: object }).nodes)).to.deep.equal(["b", "a"]);
    expect(src.locate(["nodes", "a", "raises"])).to.include({ file: "f.yaml", line: 5, column: 5 });
  });

  it("locates the deepest existing ancestor of a missing path", () => {
    const src = FixtureSource.parse("f.yaml", "a:\n  b: 1\n");
    expect(src.locate(["a", "zz"])).to.include({ line: 1 });
  });

  it("rejects a repeated key as fixture_schema_invalid with file, line and key path", () => {
    const err = thrown(() => FixtureSource.parse("dup.yaml", "state:\n  x: 1\nnodes:\n  a: {}\n  a: {}\n"));
    expect(err).to.be.instanceOf(FixtureSchemaInvalid);
    const e = err as FixtureSchemaInvalid;
    expect(e.category).to.equal("fixture_schema_invalid");
    expect(e.message).to.contain("repeated mapping key");
    expect(e.location.file).to.equal("dup.yaml");
    expect(e.location.line).to.equal(5);
    expect(e.location.path).to.deep.equal(["nodes", "a"]);
  });

  it("rejects a YAML syntax error with its line", () => {
    const err = thrown(() => FixtureSource.parse("bad.yaml", "a: 1\nb: [1, 2\nc: 3\n")) as FixtureSchemaInvalid;
    expect(err.category).to.equal("fixture_schema_invalid");
    expect(err.location.line).to.be.a("number");
  });

  it("rejects an alias bomb instead of expanding it", () => {
    const bomb = [
      "a: &a [x, x, x, x, x, x, x, x, x, x]",
      "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]",
      "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]",
      "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]",
      "e: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]",
    ].join("\n");
    const err = thrown(() => FixtureSource.parse("bomb.yaml", bomb)) as FixtureSchemaInvalid;
    expect(err).to.be.instanceOf(FixtureSchemaInvalid);
    expect(err.message).to.contain("could not be expanded");
  });

  it("reports an unreadable file as fixture_schema_invalid", () => {
    const err = thrown(() => FixtureSource.read("/nonexistent/x.yaml")) as FixtureSchemaInvalid;
    expect(err.category).to.equal("fixture_schema_invalid");
  });
});
