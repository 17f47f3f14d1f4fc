/** The conformance harness's Checkpointer backends (harness/checkpoint/backends.ts) and its explicit store override. */
import { expect } from "chai";
import { BatchingCheckpointer, InMemoryCheckpointer, SqliteCheckpointer } from "../../src/checkpoint/index.ts";
import { BACKEND_OVERRIDE_ENV, backendOverride, openBackend, parseBackend } from "../../harness/checkpoint/backends.ts";

const where = { file: "x.yaml", line: 1, column: 1, path: ["checkpointer"] };

function withEnv<T>(value: string | undefined, fn: () => T): T {
  const saved = process.env[BACKEND_OVERRIDE_ENV];
  if (value === undefined) delete process.env[BACKEND_OVERRIDE_ENV];
  else process.env[BACKEND_OVERRIDE_ENV] = value;
  try {
    return fn();
  } finally {
    if (saved === undefined) delete process.env[BACKEND_OVERRIDE_ENV];
    else process.env[BACKEND_OVERRIDE_ENV] = saved;
  }
}

describe("harness/checkpoint backends", () => {
  it("maps the fixture names to the library's backends", () => {
    const mem = openBackend(parseBackend("in_memory", where));
    expect(mem.checkpointer).to.be.instanceOf(InMemoryCheckpointer);
    const sql = openBackend(parseBackend("sqlite", where));
    expect(sql.checkpointer).to.be.instanceOf(SqliteCheckpointer);
    sql.close();
    const batched = openBackend(parseBackend({ kind: "in_memory_batched", fan_out_internal_save_batching: { flush_every: 5 } }, where));
    expect(batched.checkpointer).to.be.instanceOf(BatchingCheckpointer);
    expect((batched.checkpointer as BatchingCheckpointer).flushEvery).to.equal(5);
  });

  it("a backend the adapter does not provide is harness_primitive_missing", () => {
    expect(() => parseBackend("redis", where)).to.throw().with.property("category", "harness_primitive_missing");
    expect(() => parseBackend({ kind: "in_memory_batched" }, where)).to.throw().with.property("category", "harness_primitive_missing");
  });

  it("the store override is explicit: unset means each fixture's own backend", () => {
    expect(withEnv(undefined, () => backendOverride(where))).to.equal(undefined);
    expect(withEnv("sqlite", () => backendOverride(where))).to.equal("sqlite");
    expect(withEnv("postgres", () => backendOverride(where))).to.equal("postgres");
    expect(() => withEnv("oracle", () => backendOverride(where))).to.throw().with.property("category", "harness_primitive_missing");
    const b = openBackend(parseBackend({ kind: "in_memory_batched", fan_out_internal_save_batching: { flush_every: 2 } }, where), "sqlite");
    expect(b.batching?.inner).to.be.instanceOf(SqliteCheckpointer);
    b.close();
  });
});
