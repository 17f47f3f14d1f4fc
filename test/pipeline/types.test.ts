/**
 * Typed usage: `P` is inferred from the builder, `C` from the subgraph, so field names are checked
 * by the compiler (`npx tsc --noEmit`); the runtime assertions keep the test able to fail under mocha.
 */
import { expect } from "chai";
import { END, GraphBuilder, stateSchema } from "../../src/graph/index.ts";
import { fanOut, parallelBranches } from "../../src/pipeline/index.ts";

const Doc = stateSchema({ fields: { text: { type: "string", default: "" }, words: { type: "int", default: 0 } } });
const counter = new GraphBuilder(Doc)
  .addNode("count", async (s) => ({ words: s.text.split(/\s+/).filter(Boolean).length }))
  .addEdge("count", END)
  .setEntry("count")
  .compile({ name: "counter" });

const Corpus = stateSchema({
  fields: {
    docs: { type: "list<string>", default: [] },
    counts: { type: "list<int>", reducer: "append", default: [] },
    total: { type: "int", default: 0 },
    title: { type: "string", default: "" },
  },
});

describe("pipeline/types: typed configuration through the public API", () => {
  it("infers parent and instance field names", async () => {
    const g = new GraphBuilder(Corpus)
      .addNode("count_all", fanOut({ subgraph: counter, itemsField: "docs", itemField: "text", collectField: "words", targetField: "counts", concurrency: 4 }))
      .addNode(
        "summarize",
        parallelBranches({
          branches: {
            total: { call: async (s) => ({ total: s.counts.reduce((a, b) => a + b, 0) }) },
            title: { call: (s) => ({ title: `${s.docs.length} docs` }), when: (s) => s.docs.length > 0 },
          },
        }),
      )
      .addEdge("count_all", "summarize")
      .addEdge("summarize", END)
      .setEntry("count_all")
      .compile();
    const r = await g.invoke({ docs: ["a b", "c d e", ""] , counts: [] }).catch((e: unknown) => e);
    // An empty doc is fine (one instance with zero words); the fan-out itself is not empty.
    expect(r).to.have.property("state");
    const state = (r as { state: { counts: readonly number[]; total: number; title: string } }).state;
    expect(state.counts).to.deep.equal([2, 3, 0]);
    expect(state.total).to.equal(5);
    expect(state.title).to.equal("3 docs");
  });

  it("rejects unknown field names at compile time (tsc) and at graph compile (runtime)", () => {
    const build = () =>
      new GraphBuilder(Corpus)
        // @ts-expect-error — "nope" is not a field of the parent state
        .addNode("f", fanOut({ subgraph: counter, itemsField: "docs", itemField: "text", collectField: "words", targetField: "nope" }))
        .addEdge("f", END)
        .setEntry("f")
        .compile();
    expect(build).to.throw(/nope/);
    // @ts-expect-error — "pages" is not a field of the instance state
    fanOut<{ docs: string[]; counts: number[] }, { text: string; words: number }>({ subgraph: counter, itemsField: "docs", itemField: "pages", collectField: "words", targetField: "counts" });
    const b = new GraphBuilder(Corpus);
    // @ts-expect-error — extraOutputs keys are parent fields
    b.addNode("g", fanOut({ subgraph: counter, itemsField: "docs", itemField: "text", collectField: "words", targetField: "counts", extraOutputs: { nope: "words" } }));
    // @ts-expect-error — branch outputs keys are parent fields
    b.addNode("h", parallelBranches({ branches: { x: { subgraph: counter, outputs: { nope: "words" } } } }));
    expect(b.schema).to.equal(Corpus);
  });
});
