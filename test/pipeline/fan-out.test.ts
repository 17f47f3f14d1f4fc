import { expect } from "chai";
import { drain, END, GraphBuilder, NodeException, stateSchema, type Middleware, type StateRecord } from "../../src/graph/index.ts";
import { fanOut, FanOutError, isFanOutError, DEFAULT_FAN_OUT_CONCURRENCY } from "../../src/pipeline/index.ts";
import { chain, InFlight, prng, recorder, runtimeErrorOf, single, sleep } from "./helpers.ts";

const doubler = single({ x: { type: "int", default: 0 }, result: { type: "int", default: 0 } }, "compute", (s) => ({
  result: (s["x"] as number) * 2,
}));

describe("pipeline/fan-out: items mode (§9.1, §9.3)", () => {
  it("projects each item into itemField and collects collectField into targetField in input order", async () => {
    const g = chain(
      { items: { type: "list<int>", default: [1, 2, 3] }, results: { type: "list<int>", reducer: "append", default: [] } },
      [["process", fanOut({ subgraph: doubler, itemsField: "items", itemField: "x", collectField: "result", targetField: "results" })]],
    );
    const r = await g.invoke();
    expect(r.state).to.deep.equal({ items: [1, 2, 3], results: [2, 4, 6] });
    expect(r.executionOrder).to.deep.equal(["process"]);
    expect(g.nodeKind("process")).to.equal("fan_out");
    const kind = g.node("process")!.kind;
    expect(kind.childGraph?.({ fanOutIndex: 1 })).to.equal(doubler);
    expect(kind.errorPolicy).to.equal("fail_fast");
  });

  it("merges the collected list through the target field's reducer, onto the prior value", async () => {
    const g = chain(
      { items: { type: "list<int>", default: [5, 6] }, results: { type: "list<int>", reducer: "append", default: [100] } },
      [["process", fanOut({ subgraph: doubler, itemsField: "items", itemField: "x", collectField: "result", targetField: "results" })]],
    );
    expect((await g.invoke()).state["results"]).to.deep.equal([100, 10, 12]);
  });

  it("concat_flatten flattens list-shaped per-instance values; merge_all folds mapping-shaped ones", async () => {
    const splitter = single({ x: { type: "int", default: 0 }, out: { type: "list<int>", default: [] }, m: { type: "dict<string,int>", default: {} } }, "w", (s) => {
      const x = s["x"] as number;
      return { out: Array.from({ length: x }, () => x), m: { [`k${x}`]: x, shared: x } };
    });
    const g = chain(
      {
        items: { type: "list<int>", default: [1, 0, 2] },
        flat: { type: "list<int>", reducer: "concat_flatten", default: [] },
        merged: { type: "dict<string,int>", reducer: "merge_all", default: { seed: 0 } },
      },
      [
        ["a", fanOut({ subgraph: splitter, itemsField: "items", itemField: "x", collectField: "out", targetField: "flat" })],
        ["b", fanOut({ subgraph: splitter, itemsField: "items", itemField: "x", collectField: "m", targetField: "merged" })],
      ],
    );
    const r = await g.invoke();
    expect(r.state["flat"]).to.deep.equal([1, 2, 2]);
    expect(r.state["merged"]).to.deep.equal({ seed: 0, k1: 1, k0: 0, k2: 2, shared: 2 });
  });

  it("gives each instance a fresh state: sibling mutations do not leak", async () => {
    const acc = single({ x: { type: "int", default: 0 }, seen: { type: "list<int>", reducer: "append", default: [] } }, "w", (s) => ({
      seen: [s["x"] as number],
    }));
    const g = chain(
      { items: { type: "list<int>", default: [1, 2, 3] }, out: { type: "list<list<int>>", reducer: "append", default: [] } },
      [["f", fanOut({ subgraph: acc, itemsField: "items", itemField: "x", collectField: "seen", targetField: "out" })]],
    );
    expect((await g.invoke()).state["out"]).to.deep.equal([[1], [2], [3]]);
  });

  it("copies extra parent fields into every instance via inputs, from the entry snapshot", async () => {
    const adder = single({ x: { type: "int", default: 0 }, offset: { type: "int", default: -1 }, result: { type: "int", default: 0 } }, "w", (s) => ({
      result: (s["x"] as number) + (s["offset"] as number),
    }));
    const g = chain(
      {
        items: { type: "list<int>", default: [1, 2] },
        base: { type: "int", default: 1000 },
        results: { type: "list<int>", reducer: "append", default: [] },
      },
      [["f", fanOut({ subgraph: adder, itemsField: "items", itemField: "x", inputs: { offset: "base" }, collectField: "result", targetField: "results" })]],
    );
    expect((await g.invoke()).state["results"]).to.deep.equal([1001, 1002]);
  });

  it("merges extraOutputs as one slot per instance, in instance-index order, through the parent's reducer (§9.3)", async () => {
    const worker = single(
      { x: { type: "int", default: 0 }, result: { type: "int", default: 0 }, tag: { type: "string", default: "" }, log: { type: "list<string>", default: [] } },
      "w",
      async (s) => {
        const x = s["x"] as number;
        await sleep((4 - x) * 3); // later items finish first
        return { result: x, tag: `t${x}`, log: [`a${x}`, `b${x}`] };
      },
    );
    const g = chain(
      {
        items: { type: "list<int>", default: [1, 2, 3] },
        results: { type: "list<int>", reducer: "append", default: [] },
        tags: { type: "list<string>", reducer: "append", default: [] },
        log: { type: "list<list<string>>", reducer: "append", default: [["p"]] },
      },
      [
        [
          "f",
          fanOut({
            subgraph: worker,
            itemsField: "items",
            itemField: "x",
            collectField: "result",
            targetField: "results",
            extraOutputs: { tags: "tag", log: "log" },
          }),
        ],
      ],
    );
    const r = await g.invoke();
    // index order, not completion order (later items finish first)
    expect(r.state["tags"]).to.deep.equal(["t1", "t2", "t3"]);
    expect(r.state["log"]).to.deep.equal([["p"], ["a1", "b1"], ["a2", "b2"], ["a3", "b3"]]);
  });

  it("writes the resolved count into countField", async () => {
    const g = chain(
      {
        items: { type: "list<int>", default: [10, 20, 30] },
        results: { type: "list<int>", reducer: "append", default: [] },
        processed: { type: "int", default: -1 },
      },
      [["f", fanOut({ subgraph: doubler, itemsField: "items", itemField: "x", collectField: "result", targetField: "results", countField: "processed" })]],
    );
    const r = await g.invoke();
    expect(r.state["processed"]).to.equal(3);
    expect(r.state["results"]).to.deep.equal([20, 40, 60]);
  });
});

describe("pipeline/fan-out: count mode (§9.1)", () => {
  const one = single({ result: { type: "int", default: 0 } }, "w", () => ({ result: 1 }));
  const P = { n: { type: "int", default: 4 }, queue: { type: "list<string>", default: ["a", "b", "c", "d", "e"] }, results: { type: "list<int>", reducer: "append", default: [] } } as const;

  it("runs a literal count of instances", async () => {
    const g = chain(P, [["f", fanOut({ subgraph: one, count: 3, collectField: "result", targetField: "results" })]]);
    expect((await g.invoke()).state["results"]).to.deep.equal([1, 1, 1]);
  });

  it("reads the count from state through a callable, once, at entry", async () => {
    let calls = 0;
    const g = chain(P, [["f", fanOut({ subgraph: one, count: (s) => (calls++, s["n"] as number), collectField: "result", targetField: "results" })]]);
    const obs = recorder();
    const r = await g.invoke({ n: 2 }, { observers: [obs] });
    expect(r.state["results"]).to.deep.equal([1, 1]);
    expect(calls).to.equal(1); // resolved once even though fan_out_config needed it before the body ran
    await drain();
    const own = obs.events.filter((e) => e.nodeName === "f");
    expect(own.map((e) => e.fanOutConfig?.itemCount)).to.deep.equal([2, 2]);
  });

  it("computes the count over state (queue chunking)", async () => {
    const g = chain(P, [
      ["f", fanOut({ subgraph: one, count: (s) => Math.max(1, Math.floor((s["queue"] as string[]).length / 2)), collectField: "result", targetField: "results" })],
    ]);
    expect((await g.invoke()).state["results"]).to.deep.equal([1, 1]);
  });

  it("raises fan_out_invalid_count (a node_exception cause) for a negative or fractional callable count", async () => {
    for (const bad of [-1, 1.5, Number.NaN]) {
      const g = chain(P, [["f", fanOut({ subgraph: one, count: () => bad, collectField: "result", targetField: "results" })]]);
      const err = await runtimeErrorOf(g.invoke());
      expect(err).to.be.instanceOf(NodeException);
      expect(err.nodeName).to.equal("f");
      expect(isFanOutError(err, "fan_out_invalid_count"), String(bad)).to.equal(true);
    }
  });

  it("propagates an error raised by the count callable as the node's node_exception", async () => {
    const boom = new Error("count exploded");
    const g = chain(P, [["f", fanOut({ subgraph: one, count: () => { throw boom; }, collectField: "result", targetField: "results" })]]);
    const err = await runtimeErrorOf(g.invoke());
    expect(err.category).to.equal("node_exception");
    expect(err.cause).to.equal(boom);
  });
});

describe("pipeline/fan-out: empty fan-out (§9.1 on_empty, count_field)", () => {
  const one = single({ result: { type: "int", default: 0 } }, "w", () => ({ result: 1 }));
  const P = {
    items: { type: "list<int>", default: [] },
    results: { type: "list<int>", reducer: "append", default: [7] },
    errors: { type: "list<dict<string,string>>", reducer: "append", default: [] },
    processed: { type: "int", default: -1 },
    after: { type: "bool", default: false },
  } as const;

  it("raises fan_out_empty by default, with the entry state recoverable and no completed event", async () => {
    const g = chain(P, [["f", fanOut({ subgraph: one, itemsField: "items", itemField: "result", collectField: "result", targetField: "results", countField: "processed" })]]);
    const obs = recorder();
    const err = await runtimeErrorOf(g.invoke({}, { observers: [obs] }));
    expect(err.category).to.equal("node_exception");
    expect(err.nodeName).to.equal("f");
    expect(err.state).to.deep.include({ items: [], results: [7], processed: -1 });
    // §9.1: a node_exception (the carrier is the fan-out's own error) whose fan-out kind is fan_out_empty
    expect(err).to.be.instanceOf(FanOutError);
    expect((err as FanOutError).fanOutCategory).to.equal("fan_out_empty");
    await drain();
    expect(obs.events.map((e) => e.phase)).to.deep.equal(["started"]);
    expect(obs.events[0]!.fanOutConfig).to.deep.equal({ itemCount: 0, concurrency: 10, errorPolicy: "fail_fast", parentNodeName: "f" });
  });

  it("raises fan_out_empty for a count callable returning 0", async () => {
    const g = chain(P, [["f", fanOut({ subgraph: one, count: () => 0, collectField: "result", targetField: "results" })]]);
    const err = await runtimeErrorOf(g.invoke());
    expect(isFanOutError(err, "fan_out_empty")).to.equal(true);
  });

  it("onEmpty: noop runs zero instances, leaves extending fields unchanged, writes countField 0, fires a full pair", async () => {
    const g = chain(P, [
      [
        "f",
        fanOut({
          subgraph: one,
          itemsField: "items",
          itemField: "result",
          collectField: "result",
          targetField: "results",
          errorPolicy: "collect",
          errorsField: "errors",
          onEmpty: "noop",
          countField: "processed",
        }),
      ],
      ["after_node", () => ({ after: true })],
    ]);
    const obs = recorder();
    const r = await g.invoke({}, { observers: [obs] });
    expect(r.state).to.deep.equal({ items: [], results: [7], errors: [], processed: 0, after: true });
    await drain();
    const own = obs.events.filter((e) => e.nodeName === "f");
    expect(own.map((e) => e.phase)).to.deep.equal(["started", "completed"]);
    expect(own[1]!.postState).to.deep.include({ results: [7] });
    expect(obs.events.filter((e) => e.namespace.length > 1)).to.have.length(0);
  });

  it("raises fan_out_field_not_list when a nullable list field holds null at entry", async () => {
    const g = chain({ items: { type: "list<int>", nullable: true, default: null }, results: { type: "list<int>", reducer: "append", default: [] } }, [
      ["f", fanOut({ subgraph: one, itemsField: "items", itemField: "result", collectField: "result", targetField: "results" })],
    ]);
    const err = await runtimeErrorOf(g.invoke());
    expect(isFanOutError(err, "fan_out_field_not_list")).to.equal(true);
  });
});

describe("pipeline/fan-out: concurrency (§9.2) and ordering determinism (§9.4)", () => {
  function tracked(flight: InFlight, delay: (x: number) => number) {
    return single({ x: { type: "int", default: 0 }, result: { type: "int", default: 0 } }, "w", async (s) => {
      const x = s["x"] as number;
      flight.enter(x);
      try {
        await sleep(delay(x));
        return { result: x * 10 };
      } finally {
        flight.exit();
      }
    });
  }
  const items = Array.from({ length: 40 }, (_, i) => i);
  const P = { items: { type: "list<int>", default: items }, limit: { type: "int", default: 3 }, results: { type: "list<int>", reducer: "append", default: [] } } as const;

  it("collects in index order regardless of (seeded random) completion order, across many runs", async () => {
    for (let seed = 1; seed <= 5; seed++) {
      const rnd = prng(seed);
      const delays = items.map(() => Math.floor(rnd() * 8));
      const flight = new InFlight();
      const g = chain(P, [["f", fanOut({ subgraph: tracked(flight, (x) => delays[x]!), itemsField: "items", itemField: "x", collectField: "result", targetField: "results", concurrency: null })]]);
      const r = await g.invoke();
      expect(r.state["results"]).to.deep.equal(items.map((x) => x * 10));
    }
  });

  it("never exceeds the literal bound, and reaches it", async () => {
    const flight = new InFlight();
    const rnd = prng(42);
    const g = chain(P, [["f", fanOut({ subgraph: tracked(flight, () => 1 + Math.floor(rnd() * 4)), itemsField: "items", itemField: "x", collectField: "result", targetField: "results", concurrency: 4 })]]);
    await g.invoke();
    expect(flight.max).to.equal(4);
    expect(flight.started).to.deep.equal(items); // starts follow index order
  });

  it("defaults the bound to 10", async () => {
    expect(DEFAULT_FAN_OUT_CONCURRENCY).to.equal(10);
    const flight = new InFlight();
    const g = chain(P, [["f", fanOut({ subgraph: tracked(flight, () => 2), itemsField: "items", itemField: "x", collectField: "result", targetField: "results" })]]);
    await g.invoke();
    expect(flight.max).to.equal(10);
  });

  it("resolves a callable bound from state at entry", async () => {
    const flight = new InFlight();
    const g = chain(P, [["f", fanOut({ subgraph: tracked(flight, () => 2), itemsField: "items", itemField: "x", collectField: "result", targetField: "results", concurrency: (s) => s["limit"] as number })]]);
    await g.invoke({ limit: 2 });
    expect(flight.max).to.equal(2);
  });

  it("concurrency: null runs every instance at once", async () => {
    const flight = new InFlight();
    const g = chain(P, [["f", fanOut({ subgraph: tracked(flight, () => 5), itemsField: "items", itemField: "x", collectField: "result", targetField: "results", concurrency: null })]]);
    await g.invoke();
    expect(flight.max).to.equal(items.length);
  });

  it("concurrency: 1 is serial — each instance starts after the previous one finished", async () => {
    const flight = new InFlight();
    const log: string[] = [];
    const worker = single({ x: { type: "int", default: 0 }, result: { type: "int", default: 0 } }, "w", async (s) => {
      const x = s["x"] as number;
      flight.enter(x);
      log.push(`start${x}`);
      await sleep(x % 2 === 0 ? 6 : 1);
      log.push(`end${x}`);
      flight.exit();
      return { result: x };
    });
    const g = chain({ items: { type: "list<int>", default: [0, 1, 2] }, results: { type: "list<int>", reducer: "append", default: [] } }, [
      ["f", fanOut({ subgraph: worker, itemsField: "items", itemField: "x", collectField: "result", targetField: "results", concurrency: 1 })],
    ]);
    await g.invoke();
    expect(flight.max).to.equal(1);
    expect(log).to.deep.equal(["start0", "end0", "start1", "end1", "start2", "end2"]);
  });

  it("raises fan_out_invalid_concurrency for a callable returning 0, a negative or a fraction", async () => {
    for (const bad of [0, -2, 2.5]) {
      const g = chain(P, [["f", fanOut({ subgraph: doubler, itemsField: "items", itemField: "x", collectField: "result", targetField: "results", concurrency: () => bad })]]);
      const err = await runtimeErrorOf(g.invoke());
      expect(isFanOutError(err, "fan_out_invalid_concurrency"), String(bad)).to.equal(true);
    }
  });

  it("produces identical final states and event-source sets on repeated runs (§9.4)", async () => {
    const run = async (seed: number) => {
      const rnd = prng(seed);
      const flight = new InFlight();
      const g = chain(P, [["f", fanOut({ subgraph: tracked(flight, () => Math.floor(rnd() * 5)), itemsField: "items", itemField: "x", collectField: "result", targetField: "results", concurrency: 5 })]]);
      const obs = recorder();
      const r = await g.invoke({}, { observers: [obs] });
      await drain();
      const sources = obs.events.map((e) => `${e.namespace.join("/")}#${e.fanOutIndex ?? "-"}#${e.phase}`).sort();
      return { state: r.state, sources };
    };
    const a = await run(7);
    const b = await run(99);
    expect(b.state).to.deep.equal(a.state);
    expect(b.sources).to.deep.equal(a.sources);
  });
});

describe("pipeline/fan-out: instance middleware (§9.7, §9.8)", () => {
  const worker = (failFirst: Set<number>) => {
    const seen = new Map<number, number>();
    const g = new GraphBuilder(stateSchema({ fields: { x: { type: "int", default: 0 }, y: { type: "int", default: 0 } } }))
      .addNode("w", async (s) => {
        const x = s.x as number;
        seen.set(x, (seen.get(x) ?? 0) + 1);
        if (failFirst.has(x) && seen.get(x) === 1) throw new Error(`instance ${x} fails once`);
        return { y: x * 10 };
      })
      .addEdge("w", END)
      .setEntry("w")
      .compile({ name: "worker" });
    return { g, seen };
  };
  const parentFields = { xs: { type: "list<int>", default: [1, 2, 3] }, ys: { type: "list<int>", reducer: "append", default: [] } } as const;

  it("each instance's chain wraps its whole subgraph run: a retry re-runs only that instance", async () => {
    const { g, seen } = worker(new Set([2]));
    const retryOnce: Middleware<StateRecord, StateRecord> = async (s, next) => {
      try {
        return await next(s);
      } catch {
        return next(s);
      }
    };
    const graph = chain(parentFields as never, [["f", fanOut({ subgraph: g, itemsField: "xs", itemField: "x", collectField: "y", targetField: "ys", instanceMiddleware: [retryOnce] } as never)]]);
    const r = await graph.invoke({});
    expect(r.state.ys).to.deep.equal([10, 20, 30]);
    expect([...seen.entries()].sort()).to.deep.equal([[1, 1], [2, 2], [3, 1]]);
  });

  it("a degraded update from instance middleware fills the slot by subgraph field name; omitting it leaves null", async () => {
    const { g } = worker(new Set([2]));
    const degrade = (u: Record<string, unknown>): Middleware<StateRecord, StateRecord> => async (s, next) => next(s).catch(() => u);
    const build = (u: Record<string, unknown>) =>
      chain({ xs: { type: "list<int>", default: [1, 2, 3] }, ys: { type: "list", reducer: "append", default: [] } } as never, [
        ["f", fanOut({ subgraph: g, itemsField: "xs", itemField: "x", collectField: "y", targetField: "ys", instanceMiddleware: [degrade(u)] } as never)],
      ]);
    expect((await build({ y: -1 }).invoke({})).state.ys).to.deep.equal([10, -1, 30]);
  });

  it("a static failure-isolation degraded update that omits collect_field is a compile error (§9.8)", async () => {
    const { failureIsolation } = await import("../../src/pipeline/middleware/index.ts");
    const { g } = worker(new Set());
    const err = (() => {
      try {
        chain(parentFields as never, [
          ["f", fanOut({ subgraph: g, itemsField: "xs", itemField: "x", collectField: "y", targetField: "ys", instanceMiddleware: [failureIsolation({ eventName: "e", degradedUpdate: { other: 1 } })] } as never)],
        ]);
      } catch (e) {
        return e as { category?: string; diagnostics?: Array<{ category: string }> };
      }
      return null;
    })();
    expect(err?.diagnostics?.map((d) => d.category)).to.include("fan_out_degraded_update_missing_collect_field");
  });
});
