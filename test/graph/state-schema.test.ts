import { expect } from "chai";
import { append, CompileError, defineRecord, defineState, END, field, GraphBuilder, stateSchema, StateValidationError } from "../../src/graph/index.ts";
import { parseTypeString, typeNodeToJsonSchema, typeNodeToString } from "../../src/internal.ts";
import { compileErrorOf, runtimeErrorOf } from "./helpers.ts";

describe("graph/state-schema: type strings", () => {
  it("parses primitives, containers, records and nesting", () => {
    expect(parseTypeString("int")).to.deep.equal({ kind: "int" });
    expect(parseTypeString("list")).to.deep.equal({ kind: "list" });
    expect(parseTypeString(" list< dict<string , list<int>> > ")).to.deep.equal({
      kind: "list",
      item: { kind: "dict", key: { kind: "string" }, value: { kind: "list", item: { kind: "int" } } },
    });
    expect(parseTypeString("error_entry")).to.deep.equal({ kind: "record", name: "error_entry" });
    expect(typeNodeToString(parseTypeString("dict< string,list<float> >"))).to.equal("dict<string,list<float>>");
  });

  it("rejects malformed type strings with invalid_state_schema", () => {
    for (const bad of ["list<", "dict<string>", "list<int>>", "", "int extra", "dict<string,>"]) {
      const err = compileErrorOf(() => parseTypeString(bad));
      expect(err.category, bad).to.equal("invalid_state_schema");
    }
  });

  it("compiles to JSON Schema", () => {
    expect(typeNodeToJsonSchema(parseTypeString("list<int>"))).to.deep.equal({ type: "array", items: { type: "integer" } });
    expect(typeNodeToJsonSchema(parseTypeString("dict<string,bool>"))).to.deep.equal({
      type: "object",
      additionalProperties: { type: "boolean" },
    });
    expect(typeNodeToJsonSchema(parseTypeString("item"))).to.deep.equal({ $ref: "#/$defs/item" });
  });
});

describe("graph/state-schema: validation", () => {
  const S = stateSchema({
    fields: {
      count: { type: "int", default: 0 },
      ratio: { type: "float", default: 0.5 },
      name: { type: "string" },
      flags: { type: "dict<string,bool>", default: {} },
      errors: { type: "list<error_entry>", default: [], reducer: "append" },
      anything: { type: "any", default: null },
    },
    records: { error_entry: { fields: { code: { type: "int" }, note: { type: "string", default: "" } } } },
  });

  it("applies defaults and requires fields without one", () => {
    const s = S.create({ name: "x" });
    expect(s).to.deep.equal({ count: 0, ratio: 0.5, name: "x", flags: {}, errors: [], anything: null });
    const err = (() => {
      try {
        S.create({});
      } catch (e) {
        return e as StateValidationError;
      }
    })();
    expect(err).to.be.instanceOf(StateValidationError);
    expect(err!.category).to.equal("state_validation_error");
    expect(err!.fields).to.deep.equal(["name"]);
  });

  it("names every offending field, including nested record violations", () => {
    const issues = S.validate({ count: 1.5, ratio: "x", name: "n", flags: { a: 1 }, errors: [{ note: "no code" }], anything: 1 });
    expect([...new Set(issues.map((i) => i.field))].sort()).to.deep.equal(["count", "errors", "flags", "ratio"]);
    expect(S.validate({ count: 2, ratio: 1, name: "n", flags: { a: true }, errors: [{ code: 3 }], anything: [1] })).to.deep.equal([]);
  });

  it("validates at invoke entry and at every merge boundary", async () => {
    const g = new GraphBuilder(S)
      .addNode("a", async () => ({ count: 1 }))
      .addNode("b", async () => ({ count: "two" }) as never)
      .addEdge("a", "b")
      .addEdge("b", END)
      .setEntry("a")
      .compile();
    const entry = await runtimeErrorOf(g.invoke({ name: "n", count: "zero" } as never));
    expect(entry.category).to.equal("state_validation_error");
    expect((entry as StateValidationError).fields).to.deep.equal(["count"]);
    expect(entry.executionOrder).to.deep.equal([]);

    const merge = await runtimeErrorOf(g.invoke({ name: "n" }));
    expect(merge).to.be.instanceOf(StateValidationError);
    expect(merge.nodeName).to.equal("b");
    expect(merge.state).to.include({ count: 1 });
    expect((merge as StateValidationError).invalidState).to.include({ count: "two" });
    expect(merge.executionOrder).to.deep.equal(["a", "b"]);
  });

  it("refuses an undeclared field by default — in the initial state before any node runs, and in a node update", async () => {
    let ran = 0;
    const typed = defineState({ approved: field.bool().default(false) });
    const g = new GraphBuilder(typed).addNode("a", async () => void ran++).addEdge("a", END).setEntry("a").compile();
    // @ts-expect-error "aproved" is not a field of the (closed) state
    const entry = await runtimeErrorOf(g.invoke({ aproved: true }));
    expect(entry).to.be.instanceOf(StateValidationError);
    expect(entry.category).to.equal("state_validation_error");
    expect((entry as StateValidationError).fields).to.deep.equal(["aproved"]);
    expect(entry.message).to.contain('/aproved is not a declared field (did you mean "approved"?)');
    const hints = defineState({ turn: field.string().default(""), history: field.list(field.string()).default([]) });
    expect(() => hints.create({ trun: "x" })).to.throw(/trun is not a declared field \(did you mean "turn"\?\)/);
    expect(() => hints.create({ zzz: "x" })).to.throw(/zzz is not a declared field$/);
    expect([ran, entry.executionOrder]).to.deep.equal([0, []]);

    const doc = stateSchema({ fields: { v: { type: "int", default: 0 } } });
    expect(doc.extraFields).to.equal("forbid");
    expect(() => doc.create({ extra: 1 })).to.throw(StateValidationError, /extra/);
    // @ts-expect-error a closed schema's update type has no "nope"
    const w = new GraphBuilder(doc).addNode("a", async () => ({ nope: 1 })).addEdge("a", END).setEntry("a").compile();
    const merge = await runtimeErrorOf(w.invoke());
    expect(merge.category).to.equal("state_validation_error");
    expect((merge as StateValidationError).fields).to.deep.equal(["nope"]);
    expect(merge.nodeName).to.equal("a");
  });

  it("a closed schema's record types are closed too: an undeclared record key is refused, pointing at the key", async () => {
    const Item = defineRecord("item", { id: field.int(), name: field.string().default("") });
    const S = defineState({ items: field.list(Item).reducer(append).default([]) });
    const g = new GraphBuilder(S).addNode("a", async () => ({ items: [{ id: 2, nmae: "y" }] as never })).addEdge("a", END).setEntry("a").compile();
    // @ts-expect-error "nmae" is not a field of the record
    const entry = await runtimeErrorOf(g.invoke({ items: [{ id: 1, nmae: "x" }] }));
    expect([entry.category, (entry as StateValidationError).issues[0]!.path]).to.deep.equal(["state_validation_error", "/items/0/nmae"]);
    const merge = await runtimeErrorOf(g.invoke({ items: [{ id: 1, name: "x" }] }));
    expect([merge.category, merge.nodeName, (merge as StateValidationError).issues[0]!.path]).to.deep.equal(["state_validation_error", "a", "/items/1/nmae"]);
    const open = stateSchema({ fields: { e: { type: "entry" } }, records: { entry: { fields: { code: "int" } } }, extraFields: "allow" });
    expect(open.create({ e: { code: 1, note: "kept" } })).to.deep.equal({ e: { code: 1, note: "kept" } });
  });

  it("keeps undeclared fields when the schema opts in with extraFields: allow (both forms, typed open)", async () => {
    const open = stateSchema({ fields: { v: { type: "int", default: 0 } }, extraFields: "allow" });
    expect(open.create({ extra: "kept" })).to.deep.equal({ v: 0, extra: "kept" });
    const typed = defineState({ v: field.int().default(0) }, { extraFields: "allow" });
    const g = new GraphBuilder(typed).addNode("a", async (s) => ({ seen: s["extra"] })).addEdge("a", END).setEntry("a").compile();
    expect((await g.invoke({ extra: 1 })).state).to.deep.equal({ v: 0, extra: 1, seen: 1 });
  });

  it("rejects unknown record names and defaults that do not match their type", () => {
    expect(compileErrorOf(() => stateSchema({ fields: { e: { type: "list<ghost>" } } })).category).to.equal("invalid_state_schema");
    const bad = stateSchema({ fields: { v: { type: "int", default: "zero" } } });
    const err = compileErrorOf(() => new GraphBuilder(bad).addNode("a", async () => ({})).addEdge("a", END).setEntry("a").compile());
    expect(err.category).to.equal("invalid_state_schema");
    expect(err.field).to.equal("v");
  });

  it("freezes state: nodes cannot mutate what they receive", async () => {
    let error: unknown;
    const g = new GraphBuilder(stateSchema({ fields: { log: { type: "list<string>", default: ["x"] } } }))
      .addNode("a", async (s) => {
        try {
          (s["log"] as string[]).push("mutated");
        } catch (e) {
          error = e;
        }
        return {};
      })
      .addEdge("a", END)
      .setEntry("a")
      .compile();
    const r = await g.invoke();
    expect(error).to.be.instanceOf(TypeError);
    expect(r.state["log"]).to.deep.equal(["x"]);
    expect(Object.isFrozen(r.state)).to.equal(true);
  });

  it("copies the caller's initial state at the boundary: the caller's objects stay theirs and mutable", async () => {
    const Item = defineRecord("item", { id: field.int() });
    const S = defineState({ items: field.list(Item).default([]), meta: field.dict().default({}) });
    const seen: unknown[] = [];
    const g = new GraphBuilder(S)
      .addNode("a", async (s) => void seen.push(Object.isFrozen(s.items), Object.isFrozen(s.items[0]), Object.isFrozen(s.meta["tags"])))
      .addEdge("a", END)
      .setEntry("a")
      .compile();
    const items = [{ id: 1 }];
    const meta = { tags: ["a"] };
    const r = await g.invoke({ items, meta });
    expect([Object.isFrozen(items), Object.isFrozen(items[0]), Object.isFrozen(meta), Object.isFrozen(meta.tags)]).to.deep.equal([false, false, false, false]);
    expect(seen).to.deep.equal([true, true, true]); // what the engine holds is frozen
    items.push({ id: 2 });
    items[0]!.id = 9;
    meta.tags.push("b");
    expect(r.state).to.deep.equal({ items: [{ id: 1 }], meta: { tags: ["a"] } }); // and independent of the caller's later edits
    // an already-frozen value is shared, not copied
    const frozen = Object.freeze([Object.freeze({ id: 3 })]);
    expect((await g.invoke({ items: frozen })).state.items).to.equal(frozen);
  });

  it("refuses a Map or a class instance returned as a node update (node_exception), instead of reading it as empty", async () => {
    class Update {
      count = 1;
    }
    for (const [returned, named] of [
      [new Map([["count", 1]]), "a Map"],
      [new Update(), "a Update"],
    ] as const) {
      const g = new GraphBuilder(defineState({ count: field.int().default(0) }))
        .addNode("a", async () => returned as never)
        .addEdge("a", END)
        .setEntry("a")
        .compile();
      const err = await runtimeErrorOf(g.invoke());
      expect(err.category).to.equal("node_exception");
      expect(err.nodeName).to.equal("a");
      expect((err.cause as Error).message).to.contain(`returned ${named}`).and.contain("plain object");
    }
    const nullProto = new GraphBuilder(defineState({ count: field.int().default(0) }))
      .addNode("a", async () => Object.assign(Object.create(null) as { count?: number }, { count: 2 }))
      .addEdge("a", END)
      .setEntry("a")
      .compile();
    expect((await nullProto.invoke()).state.count).to.equal(2);
  });
});

describe("graph/state-schema: typed form", () => {
  it("infers the state type and compiles to the same JSON Schema as the string form", async () => {
    const Item = defineRecord("item", { id: field.int(), tags: field.list(field.string()).default([]) });
    const S = defineState({
      count: field.int().default(0),
      log: field.list(field.string()).default([]).reducer(append),
      items: field.list(Item).default([]),
      byId: field.dict(field.string(), Item).default({}),
      note: field.string().optional(),
      maybe: field.int().nullable().default(null),
    });
    const same = stateSchema({
      fields: {
        count: { type: "int", default: 0 },
        log: { type: "list<string>", default: [], reducer: "append" },
        items: { type: "list<item>", default: [] },
        byId: { type: "dict<string,item>", default: {} },
        note: { type: "string", required: false },
        maybe: { type: "int", nullable: true, default: null },
      },
      records: { item: { fields: { id: { type: "int" }, tags: { type: "list<string>", default: [] } } } },
    });
    expect(S.jsonSchema).to.deep.equal(same.jsonSchema);

    const g = new GraphBuilder(S)
      .addNode("a", async (s) => ({ count: s.count + 1, log: ["a"], items: [{ id: 1, tags: [] }] }))
      .addEdge("a", END)
      .setEntry("a")
      .compile();
    const r = await g.invoke({ count: 41 });
    const count: number = r.state.count;
    expect(count).to.equal(42);
    expect(r.state.log).to.deep.equal(["a"]);
    expect(S.validate({ ...r.state, items: [{ tags: [] }] }).map((i) => i.field)).to.deep.equal(["items"]);
  });

  it("builders are immutable and reducer declarations accumulate (conflict detected at compile)", () => {
    const base = field.list(field.string()).default([]);
    const a = base.reducer(append);
    expect(base.config.reducers).to.have.length(0);
    const twice = a.reducer("last_write_wins");
    const S = defineState({ v: twice });
    const err = compileErrorOf(() => new GraphBuilder(S).addNode("n", async () => ({})).addEdge("n", END).setEntry("n").compile());
    expect(err).to.be.instanceOf(CompileError);
    expect(err.category).to.equal("conflicting_reducers");
    expect(err.field).to.equal("v");
  });
});
