import { expect } from "chai";
import { drain, NodeException } from "../../src/graph/index.ts";
import {
  CancelledError,
  cancellationSignal,
  fanOut,
  FanOutInstanceError,
  findCause,
  throwIfCancelled,
  type InstanceFailure,
} from "../../src/pipeline/index.ts";
import { chain, recorder, runtimeErrorOf, single, sleep } from "./helpers.ts";

const P = {
  items: { type: "list<int>", default: [0, 1, 2] },
  results: { type: "list<int>", reducer: "append", default: [] },
  errors: { type: "list<dict>", reducer: "append", default: [] },
  downstream_ran: { type: "bool", default: false },
} as const;

/** Instance `failAt` raises; the others succeed with `result = idx` after `delay(idx)` ms. */
function maybeFail(failAt: number | readonly number[], delay: (i: number) => number = () => 0, onCancel?: (i: number) => void) {
  const fails = new Set(typeof failAt === "number" ? [failAt] : failAt);
  return single({ idx: { type: "int", default: -1 }, result: { type: "int", default: 0 } }, "maybe", async (s) => {
    const i = s["idx"] as number;
    try {
      await sleep(delay(i), cancellationSignal());
    } catch (e) {
      onCancel?.(i);
      throw e;
    }
    if (fails.has(i)) throw new Error(`instance ${i} failed`);
    return { result: i };
  });
}

describe("pipeline/fan-out: fail_fast (§9.5)", () => {
  it("propagates node_exception raised from the fan-out node, with the entry snapshot as recoverable state", async () => {
    const g = chain(P, [["process", fanOut({ subgraph: maybeFail(1), itemsField: "items", itemField: "idx", collectField: "result", targetField: "results" })]]);
    const err = await runtimeErrorOf(g.invoke());
    expect(err.category).to.equal("node_exception");
    expect(err.nodeName).to.equal("process");
    expect(err.state).to.deep.equal({ items: [0, 1, 2], results: [], errors: [], downstream_ran: false });
    // The cause chain leads to the offending instance's own error, tagged with its index.
    const inst = findCause(err, (e): e is FanOutInstanceError => e instanceof FanOutInstanceError);
    expect(inst?.fanOutIndex).to.equal(1);
    expect(inst?.nodeName).to.equal("process");
    const inner = inst!.cause as NodeException;
    expect(inner).to.be.instanceOf(NodeException);
    expect(inner.nodeName).to.equal("maybe");
    expect(inner.namespace).to.deep.equal(["process", "maybe"]);
    expect(inner.state).to.deep.include({ idx: 1 });
    expect((inner.cause as Error).message).to.equal("instance 1 failed");
  });

  it("cancels in-flight siblings cooperatively and starts no further instances", async () => {
    const cancelled: number[] = [];
    const started: number[] = [];
    const worker = single({ idx: { type: "int", default: -1 }, result: { type: "int", default: 0 } }, "maybe", async (s) => {
      const i = s["idx"] as number;
      started.push(i);
      if (i === 1) {
        await sleep(5);
        throw new Error("boom");
      }
      try {
        await sleep(2000, cancellationSignal());
      } catch (e) {
        expect(e).to.be.instanceOf(CancelledError);
        cancelled.push(i);
        throw e;
      }
      return { result: i };
    });
    const g = chain({ ...P, items: { type: "list<int>", default: [0, 1, 2, 3, 4, 5, 6, 7] } }, [
      ["process", fanOut({ subgraph: worker, itemsField: "items", itemField: "idx", collectField: "result", targetField: "results", concurrency: 3 })],
    ]);
    const t0 = Date.now();
    const obs = recorder();
    const err = await runtimeErrorOf(g.invoke({}, { observers: [obs] }));
    expect(Date.now() - t0).to.be.below(1000); // did not wait for the 2 s siblings
    expect(findCause(err, (e): e is FanOutInstanceError => e instanceof FanOutInstanceError)?.fanOutIndex).to.equal(1);
    expect(started).to.deep.equal([0, 1, 2]);
    expect(cancelled.sort()).to.deep.equal([0, 2]);
    await drain();
    // Cancelled siblings never complete with post_state; the fan-out's own completed carries the error.
    const inner = obs.events.filter((e) => e.nodeName === "maybe");
    expect(inner.filter((e) => e.postState !== undefined)).to.have.length(0);
    const own = obs.events.filter((e) => e.nodeName === "process");
    expect(own.map((e) => e.phase)).to.deep.equal(["started", "completed"]);
    expect(own[1]!.error?.category).to.equal("node_exception");
    expect(own[1]!.fanOutConfig).to.deep.equal({ itemCount: 8, concurrency: 3, errorPolicy: "fail_fast", parentNodeName: "process" });
  });

  it("waits for cancelled siblings to settle before raising: no instance work outlives the node", async () => {
    let settled = 0;
    const worker = single({ idx: { type: "int", default: -1 }, result: { type: "int", default: 0 } }, "maybe", async (s) => {
      const i = s["idx"] as number;
      if (i === 0) throw new Error("first fails");
      try {
        await sleep(30); // ignores the signal: cleanup takes a while
        return { result: i };
      } finally {
        settled++;
      }
    });
    const g = chain(P, [["process", fanOut({ subgraph: worker, itemsField: "items", itemField: "idx", collectField: "result", targetField: "results" })]]);
    const obs = recorder();
    await runtimeErrorOf(g.invoke({}, { observers: [obs] }));
    expect(settled).to.equal(2);
    await drain();
    const last = obs.events[obs.events.length - 1]!;
    expect(last.nodeName).to.equal("process");
    expect(last.phase).to.equal("completed");
  });

  it("throwIfCancelled lets multi-step instance code stop between steps", async () => {
    let reachedStep2 = 0;
    const worker = chain({ idx: { type: "int", default: -1 }, result: { type: "int", default: 0 } }, [
      ["s1", async (s) => {
        if (s["idx"] === 0) throw new Error("fail");
        await sleep(10);
        return {};
      }],
      ["s2", () => {
        throwIfCancelled();
        reachedStep2++;
        return { result: 1 };
      }],
    ]);
    const g = chain(P, [["process", fanOut({ subgraph: worker, itemsField: "items", itemField: "idx", collectField: "result", targetField: "results" })]]);
    await runtimeErrorOf(g.invoke());
    expect(reachedStep2).to.equal(0);
  });

  it("has no cancellation signal outside a fan-out", async () => {
    expect(cancellationSignal()).to.equal(undefined);
    expect(() => throwIfCancelled()).not.to.throw();
  });
});

describe("pipeline/fan-out: collect (§9.5)", () => {
  it("omits failed slots, records errors by index, and proceeds downstream", async () => {
    const g = chain(P, [
      [
        "process",
        fanOut({
          subgraph: maybeFail(1, (i) => (3 - i) * 3),
          itemsField: "items",
          itemField: "idx",
          collectField: "result",
          targetField: "results",
          errorPolicy: "collect",
          errorsField: "errors",
        }),
      ],
      ["after", () => ({ downstream_ran: true })],
    ]);
    const r = await g.invoke();
    expect(r.state["results"]).to.deep.equal([0, 2]);
    // The default record: the index as a number, the category and the message — like a branch's record.
    expect(r.state["errors"]).to.deep.equal([{ fan_out_index: 1, category: "node_exception", message: "instance 1 failed" }]);
    expect(r.state["downstream_ran"]).to.equal(true);
    expect(r.executionOrder).to.deep.equal(["process", "after"]);
  });

  it("never raises, even when every instance fails; records are in index order, not completion order", async () => {
    const g = chain(P, [
      [
        "process",
        fanOut({
          subgraph: maybeFail([0, 1, 2], (i) => (3 - i) * 4),
          itemsField: "items",
          itemField: "idx",
          collectField: "result",
          targetField: "results",
          errorPolicy: "collect",
          errorsField: "errors",
        }),
      ],
    ]);
    const r = await g.invoke();
    expect(r.state["results"]).to.deep.equal([]);
    expect((r.state["errors"] as { fan_out_index: number }[]).map((e) => e.fan_out_index)).to.deep.equal([0, 1, 2]);
  });

  it("runs every instance to completion (no cancellation)", async () => {
    const finished: number[] = [];
    const worker = single({ idx: { type: "int", default: -1 }, result: { type: "int", default: 0 } }, "w", async (s) => {
      const i = s["idx"] as number;
      if (i === 0) throw new Error("early failure");
      await sleep(10, cancellationSignal());
      finished.push(i);
      return { result: i };
    });
    const g = chain(P, [["process", fanOut({ subgraph: worker, itemsField: "items", itemField: "idx", collectField: "result", targetField: "results", errorPolicy: "collect" })]]);
    const r = await g.invoke();
    expect(finished.sort()).to.deep.equal([1, 2]);
    expect(r.state["results"]).to.deep.equal([1, 2]);
    expect(r.state["errors"]).to.deep.equal([]); // no errorsField: errors dropped
  });

  it("builds custom error records with errorRecord", async () => {
    const g = chain({ ...P, errors: { type: "list<any>", reducer: "append", default: [] } }, [
      [
        "process",
        fanOut({
          subgraph: maybeFail(2),
          itemsField: "items",
          itemField: "idx",
          collectField: "result",
          targetField: "results",
          errorPolicy: "collect",
          errorsField: "errors",
          errorRecord: (f: InstanceFailure) => ({ index: f.fanOutIndex, inner: (f.error as NodeException).nodeName }),
        }),
      ],
    ]);
    expect((await g.invoke()).state["errors"]).to.deep.equal([{ index: 2, inner: "maybe" }]);
  });
});

describe("pipeline/fan-out: cancellation across nesting, suspension pass-through", () => {
  it("cancelling an outer instance cancels the fan-out running inside it", async () => {
    const leafStarts: number[] = [];
    let leafCancelled = 0;
    const leaf = single({ v: { type: "int", default: 0 }, out: { type: "int", default: 0 } }, "leaf", async (s) => {
      leafStarts.push(s["v"] as number);
      try {
        await sleep(3000, cancellationSignal());
      } catch (e) {
        leafCancelled++;
        throw e;
      }
      return { out: 1 };
    });
    const mid = chain({ vs: { type: "list<int>", default: [1, 2, 3, 4] }, outs: { type: "list<int>", reducer: "append", default: [] }, fail: { type: "bool", default: false } }, [
      ["maybe_fail", async (s) => {
        if (s["fail"]) {
          await sleep(5);
          throw new Error("outer instance failed");
        }
        return {};
      }],
      ["inner", fanOut({ subgraph: leaf, itemsField: "vs", itemField: "v", collectField: "out", targetField: "outs", concurrency: 2, errorPolicy: "collect" })],
    ]);
    const g = chain({ flags: { type: "list<bool>", default: [false, true] }, all: { type: "list<list<int>>", reducer: "append", default: [] } }, [
      ["outer", fanOut({ subgraph: mid, itemsField: "flags", itemField: "fail", collectField: "outs", targetField: "all" })],
    ]);
    const t0 = Date.now();
    const err = await runtimeErrorOf(g.invoke());
    expect(Date.now() - t0).to.be.below(1000);
    expect(findCause(err, (e): e is FanOutInstanceError => e instanceof FanOutInstanceError)?.fanOutIndex).to.equal(1);
    expect(leafStarts).to.deep.equal([1, 2]); // the inner collect fan-out started no further instances
    expect(leafCancelled).to.equal(2);
  });

  it("lets a suspension (GraphInterrupt) raised in an instance propagate unwrapped", async () => {
    const { GraphInterrupt } = await import("../../src/graph/index.ts");
    const worker = single({ idx: { type: "int", default: -1 }, result: { type: "int", default: 0 } }, "w", (s) => {
      if (s["idx"] === 1) throw new GraphInterrupt({ signal_id: "approve" });
      return { result: 1 };
    });
    for (const errorPolicy of ["fail_fast", "collect"] as const) {
      const g = chain(P, [["process", fanOut({ subgraph: worker, itemsField: "items", itemField: "idx", collectField: "result", targetField: "results", errorPolicy })]]);
      const r = await g.invoke();
      expect(r.outcome, errorPolicy).to.equal("suspended");
    }
  });
});

describe("pipeline/fan-out: cancellation signal hygiene", () => {
  it("does not warn about abort listeners when many in-flight instances listen to the signal", async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error): void => void warnings.push(w);
    process.on("warning", onWarning);
    try {
      const worker = single({ idx: { type: "int", default: -1 }, result: { type: "int", default: 0 } }, "w", async (s) => {
        await sleep(5, cancellationSignal());
        return { result: s["idx"] as number };
      });
      const items = Array.from({ length: 64 }, (_, i) => i);
      const g = chain({ ...P, items: { type: "list<int>", default: items } }, [
        ["process", fanOut({ subgraph: worker, itemsField: "items", itemField: "idx", collectField: "result", targetField: "results", concurrency: 32 })],
      ]);
      expect((await g.invoke()).state["results"]).to.deep.equal(items);
      await new Promise((r) => setImmediate(r));
      expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning")).to.deep.equal([]);
    } finally {
      process.off("warning", onWarning);
    }
  });
});
