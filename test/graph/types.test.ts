/**
 * Type-level behaviour (checked by `tsc --noEmit`, which `npm test` runs first): both declaration
 * forms infer the state and update types. The runtime assertions keep the file a real test.
 */
import { expect } from "chai";
import {
  append,
  concatFlatten,
  defineRecord,
  defineState,
  END,
  field,
  GraphBuilder,
  stateSchema,
  type StateOf,
  type StateSpec,
  type UpdateOf,
} from "../../src/graph/index.ts";

describe("graph/types: inferred state types", () => {
  it("the typed builder form infers value and update types", async () => {
    const Item = defineRecord("item", { id: field.int(), name: field.string().default("") });
    const S = defineState({
      count: field.int().default(0),
      log: field.list(field.string()).default([]).reducer(append),
      flat: field.list(field.string()).default([]).reducer<readonly (readonly string[])[]>(concatFlatten),
      items: field.list(Item).default([]),
    });
    const ok: StateOf<typeof S> = { count: 1, log: ["x"], flat: [], items: [{ id: 1, name: "n" }] };
    // @ts-expect-error count is a number
    const bad: StateOf<typeof S> = { ...ok, count: "x" };
    const up: UpdateOf<typeof S> = { flat: [["a"]] };
    // @ts-expect-error a concat_flatten update is a list of lists
    const badUp: UpdateOf<typeof S> = { flat: ["a"] };
    const g = new GraphBuilder(S)
      .addNode("n", async (s) => ({ count: s.count + 1, flat: [[s.items[0]?.name ?? "none"]] }))
      .addEdge("n", END)
      .setEntry("n")
      .compile();
    const r = await g.invoke();
    const flat: readonly string[] = r.state.flat;
    expect(flat).to.deep.equal(["none"]);
    void bad, void up, void badUp;
  });

  it("the document form infers types from literal type strings, records included", async () => {
    const S = stateSchema({
      fields: {
        count: { type: "int", default: 0 },
        errs: { type: "list<error_entry>", reducer: "append", default: [] },
        m: { type: "dict<string, list<int>>", default: {} },
        maybe: { type: "string", nullable: true, default: null },
      },
      records: { error_entry: { fields: { code: { type: "int" }, note: "string" } } },
    });
    const ok: StateOf<typeof S> = { count: 0, errs: [{ code: 1, note: "n" }], m: { a: [1] }, maybe: null };
    // @ts-expect-error record fields are typed
    const bad: StateOf<typeof S> = { ...ok, errs: [{ code: "1", note: "n" }] };
    const g = new GraphBuilder(S)
      .addNode("a", async (s) => ({ count: s.count + 1, errs: [{ code: s.count, note: "e" }] }))
      .addEdge("a", END)
      .setEntry("a")
      .compile();
    expect((await g.invoke()).state.errs).to.deep.equal([{ code: 0, note: "e" }]);

    const dynamic: StateSpec = { fields: { v: { type: "int", default: 1 } } };
    const D = stateSchema(dynamic);
    const anyKey: unknown = D.create()["whatever"];
    expect(anyKey).to.equal(undefined);
    void bad;
  });

  it("a closed schema's initial state and updates reject an unknown key; an open one admits any key", async () => {
    const Closed = defineState({ approved: field.bool().default(false) });
    const DocClosed = stateSchema({ fields: { approved: { type: "bool", default: false } } });
    const Open = defineState({ approved: field.bool().default(false) }, { extraFields: "allow" });
    const DocOpen = stateSchema({ fields: { approved: { type: "bool", default: false } }, extraFields: "allow" });
    // @ts-expect-error "aproved" is not a field of the closed (builder-form) state
    const a: UpdateOf<typeof Closed> = { aproved: true };
    // @ts-expect-error "aproved" is not a field of the closed (document-form) state
    const b: Partial<StateOf<typeof DocClosed>> = { aproved: true };
    const c: UpdateOf<typeof Open> = { aproved: true };
    const d: Partial<StateOf<typeof DocOpen>> = { aproved: true };
    const closed = new GraphBuilder(Closed).addNode("n", async () => ({})).addEdge("n", END).setEntry("n").compile();
    const open = new GraphBuilder(Open).addNode("n", async () => ({})).addEdge("n", END).setEntry("n").compile();
    // @ts-expect-error invoke's initial state is typed from the closed schema
    const refused = closed.invoke({ aproved: true }).then(() => "ran", () => "refused");
    expect(await refused).to.equal("refused");
    expect((await open.invoke({ aproved: true })).state).to.deep.equal({ approved: false, aproved: true });
    void a, void b, void c, void d;
  });
});
