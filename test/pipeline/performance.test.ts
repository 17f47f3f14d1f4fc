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

describe("pipeline/performance: 10,000-item fan-out at concurrency 16", () => {
  const items = Array.from({ length: N }, (_, i) => i);

  it("runs lean without observers: bounded, ordered, linear fan-in", async () => {
    const flight = new InFlight();
    const g = setup(flight);
    const t0 = performance.now();
    const r = await g.invoke({ items });
    const ms = performance.now() - t0;
    expect(flight.max).to.equal(16);
    expect(r.state["processed"]).to.equal(N);
    const results = r.state["results"] as number[];
    expect(results).to.have.length(N);
    for (let i = 0; i < N; i++) if (results[i] !== i + 1) expect.fail(`slot ${i} holds ${results[i]}`);
    expect(ms, `took ${ms.toFixed(0)} ms`).to.be.below(3000);
  });

  it("stays lean with an observer recording every event", async () => {
    const flight = new InFlight();
    const g = setup(flight);
    const obs = recorder();
    const t0 = performance.now();
    await g.invoke({ items }, { observers: [obs] });
    await drain();
    const ms = performance.now() - t0;
    expect(obs.events).to.have.length(2 + 2 * N);
    expect(ms, `took ${ms.toFixed(0)} ms`).to.be.below(5000);
  });

  it("scales linearly: twice the items takes well under four times as long", async () => {
    const time = async (n: number): Promise<number> => {
      const g = setup(new InFlight());
      const xs = items.slice(0, n);
      await g.invoke({ items: xs.slice(0, 100) }); // warm up
      const t0 = performance.now();
      await g.invoke({ items: xs });
      return performance.now() - t0;
    };
    const small = await time(N / 2);
    const large = await time(N);
    expect(large / small, `${small.toFixed(0)} ms vs ${large.toFixed(0)} ms`).to.be.below(3.5);
  });
});
