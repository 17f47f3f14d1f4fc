import { expect } from "chai";
import { truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FixtureSource } from "../../src/conformance/source.ts";
import { DEFAULT_MAX_FIXTURE_BYTES, FixtureSchemaInvalid, FixtureTooLarge } from "../../src/conformance/errors.ts";
import { tempDir } from "../support/temp-dir.ts";
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

  it("refuses the nine-level billion laughs in milliseconds (the yaml package's maxAliasCount)", () => {
    const levels = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(", ")}]`);
    }
    const started = performance.now();
    const err = thrown(() => FixtureSource.parse("laughs.yaml", levels.join("\n"))) as FixtureSchemaInvalid;
    expect(err.category).to.equal("fixture_schema_invalid");
    expect(performance.now() - started).to.be.below(1000);
  });

  describe("the size limit (fixture_too_large)", () => {
    const dir = tempDir("oa-fixture-size-");

    it("a 200 MB file is refused from its size, before it is read, in milliseconds", () => {
      const file = join(dir, "huge.yaml");
      writeFileSync(file, "description: huge\n");
      truncateSync(file, 200 * 1024 * 1024); // sparse: no disk used, no bytes to read
      const started = performance.now();
      const err = thrown(() => FixtureSource.read(file, "spec/x/conformance/huge.yaml")) as FixtureTooLarge;
      expect(performance.now() - started).to.be.below(500);
      expect(err).to.be.instanceOf(FixtureTooLarge);
      expect(err.category).to.equal("fixture_too_large");
      expect(err.bytes).to.equal(200 * 1024 * 1024);
      expect(err.maxBytes).to.equal(DEFAULT_MAX_FIXTURE_BYTES);
      expect(err.message).to.contain("spec/x/conformance/huge.yaml").and.contain("--max-fixture-bytes").and.contain(`${DEFAULT_MAX_FIXTURE_BYTES}-byte limit`);
    });

    it("the limit is a parameter; a file at the limit loads", () => {
      const file = join(dir, "small.yaml");
      const text = `description: "${"x".repeat(1000)}"\n`;
      writeFileSync(file, text);
      const err = thrown(() => FixtureSource.read(file, "small.yaml", 1000)) as FixtureTooLarge;
      expect(err).to.be.instanceOf(FixtureTooLarge);
      expect(err.bytes).to.equal(Buffer.byteLength(text));
      expect((FixtureSource.read(file, "small.yaml", Buffer.byteLength(text)).data as { description: string }).description).to.have.length(1000);
    });
  });

  it("reports an unreadable file as fixture_schema_invalid", () => {
    const err = thrown(() => FixtureSource.read("/nonexistent/x.yaml")) as FixtureSchemaInvalid;
    expect(err.category).to.equal("fixture_schema_invalid");
  });
});
