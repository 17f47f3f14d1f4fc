import { expect } from "chai";
import { drain } from "../../src/graph/index.ts";
import { fanOut } from "../../src/pipeline/index.ts";
import { chain, InFlight, recorder, single } from "./helpers.ts";

const N = 10_000;

function setup(flight: InFlight) {
  const worker = single({ x: { type: "int", default: 0 }, tag: { type: "string", default: "" }, result: { type: "int", default: 0 } }, "w", async (s) => {
    const x = s["x"] as number;
    flight.enter(x);
    await new Promise<void>((r) => setImmediate(r)); // a real async hop per instance
    flight.exit();
    return { result: x + 1, tag: `t${x}` };
  });
  return chain(
    {
      items: { type: "list<int>", default: [] },
      results: { type: "list<int>", reducer: "append", default: [] },
      tags: { type: "list<string>", reducer: "append", default: [] },
      processed: { type: "int", default: 0 },
    },
    [
      [
        "process",
        fanOut({ subgraph: worker, itemsField: "items", itemField: "x", collectField: "result", targetField: "results", concurrency: 16, countField: "processed" }),
      ],
    ],
  );
}

// Behaviour at scale only (bounded concurrency, order, complete fan-in and event stream). Time and its
// growth with the item count are measured in bench/ (fan-out-1k / fan-out-10k rows), never asserted here.
describe("pipeline/performance: 10,000-item fan-out at concurrency 16", () => {
  const items = Array.from({ length: N }, (_, i) => i);

  it("without observers: bounded concurrency, ordered and complete fan-in", async () => {
    const flight = new InFlight();
    const g = setup(flight);
    const r = await g.invoke({ items });
    expect(flight.max).to.equal(16);
    expect(r.state["processed"]).to.equal(N);
    const results = r.state["results"] as number[];
    expect(results).to.have.length(N);
    for (let i = 0; i < N; i++) if (results[i] !== i + 1) expect.fail(`slot ${i} holds ${results[i]}`);
  });

  it("with an observer: every event recorded", async () => {
    const flight = new InFlight();
    const g = setup(flight);
    const obs = recorder();
    await g.invoke({ items }, { observers: [obs] });
    await drain();
    expect(obs.events).to.have.length(2 + 2 * N);
  });
});
