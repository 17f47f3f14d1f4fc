/** §10.3 save on every completed event, §10.2 record contents, §10.8 save events. */
import { expect } from "chai";
import { END, GraphBuilder, isNodeEvent, stateSchema, withAttemptIndex, type Middleware, type ObserverEvent, type StateRecord } from "../../../src/graph/index.ts";
import { withCheckpointer, type CheckpointSaveEvent } from "../../../src/checkpoint/index.ts";
import { chain, flaky, RecordingCheckpointer, rejection, type Backend, type Graph } from "../helpers.ts";

const ABC = { a: { type: "int", default: 0 }, b: { type: "int", default: 0 }, c: { type: "int", default: 0 } } as const;

export function savingSuite(b: Backend): void {
  describe("save on every completed event (§10.3)", () => {
    it("saves once per completed event, in step order, with the post-merge state and the positions so far", async () => {
      const cp = new RecordingCheckpointer(b.make());
      const g = chain(ABC, [["node_a", () => ({ a: 1 })], ["node_b", () => ({ b: 2 })], ["node_c", () => ({ c: 3 })]], "linear", "v7");
      const r = await withCheckpointer(g, cp).invoke({}, { correlationId: "corr-24", invocationId: "inv-24" });
      expect(r.state).to.deep.equal({ a: 1, b: 2, c: 3 });
      expect(cp.saves.map((s) => s.record.state)).to.deep.equal([
        { a: 1, b: 0, c: 0 },
        { a: 1, b: 2, c: 0 },
        { a: 1, b: 2, c: 3 },
      ]);
      expect(cp.saves[2]!.record.completedPositions).to.deep.equal([
        { namespace: [], nodeName: "node_a", step: 0, attemptIndex: 0 },
        { namespace: [], nodeName: "node_b", step: 1, attemptIndex: 0 },
        { namespace: [], nodeName: "node_c", step: 2, attemptIndex: 0 },
      ]);
      expect(cp.saves.map((s) => s.record.completedPositions.length)).to.deep.equal([1, 2, 3]);
      for (const s of cp.saves) {
        expect(s.invocationId).to.equal("inv-24");
        expect(s.record).to.include({ invocationId: "inv-24", correlationId: "corr-24", schemaVersion: "v7", graphName: "linear" });
        expect(s.record.parentStates).to.deep.equal([]);
        expect(s.record.fanOutProgress).to.equal(undefined);
        expect(s.context).to.deep.include({ trigger: "node_completed", scope: "graph" });
      }
      const times = cp.saves.map((s) => s.record.lastSavedAt);
      for (let i = 1; i < times.length; i++) expect(times[i]).to.be.greaterThan(times[i - 1]!);
      expect(await cp.load("inv-24")).to.deep.equal(cp.saves[2]!.record);
    });

    it("has saved a completed node's record before the next node starts", async () => {
      const inner = b.make();
      const seen: unknown[] = [];
      let id = "";
      const g = chain(ABC, [
        ["node_a", () => ({ a: 1 })],
        ["node_b", async (_s, ctx) => {
          id = ctx.invocationId;
          seen.push((await inner.load(id))?.state);
          return { b: 2 };
        }],
      ]);
      await withCheckpointer(g, inner).invoke();
      expect(seen).to.deep.equal([{ a: 1, b: 0, c: 0 }]);
    });

    it("saves when an attempt fails too, without a position for it (failure captured)", async () => {
      const cp = new RecordingCheckpointer(b.make());
      const g = chain(ABC, [["node_a", () => ({ a: 1 })], ["node_b", flaky({ b: 2 })], ["node_c", () => ({ c: 3 })]]);
      const e = await rejection(withCheckpointer(g, cp).invoke());
      expect(e["category"]).to.equal("node_exception");
      expect(cp.saves).to.have.length(2);
      const last = (await cp.load(e["invocationId"] as string))!;
      expect(last.state).to.deep.equal({ a: 1, b: 0, c: 0 });
      expect(last.completedPositions).to.deep.equal([{ namespace: [], nodeName: "node_a", step: 0, attemptIndex: 0 }]);
    });

    it("saves subgraph-internal completions with the subgraph's state and parent_states, outermost first", async () => {
      const cp = new RecordingCheckpointer(b.make());
      const inner = chain({ inner_a: { type: "bool", default: false }, inner_b: { type: "bool", default: false } }, [
        ["step_one", () => ({ inner_a: true })],
        ["step_two", () => ({ inner_b: true })],
      ], "inner");
      const g = new GraphBuilder(stateSchema({ fields: { outer_done: { type: "bool", default: false }, pre: { type: "int", default: 0 } } }))
        .addNode("pre", async () => ({ pre: 1 }))
        .addSubgraph("dispatch", inner, { outputs: { outer_done: "inner_b" } })
        .addEdge("pre", "dispatch")
        .addEdge("dispatch", END)
        .setEntry("pre")
        .compile({ name: "outer" }) as unknown as Graph;
      const r = await withCheckpointer(g, cp).invoke();
      expect(r.state).to.deep.equal({ outer_done: true, pre: 1 });
      expect(cp.saves).to.have.length(3);
      expect(cp.paths(2)).to.deep.equal(["pre", "dispatch/step_one", "dispatch/step_two"]);
      expect(cp.saves[1]!.record.completedPositions[1]).to.deep.equal({ namespace: ["dispatch"], nodeName: "step_one", step: 1, attemptIndex: 0 });
      expect(cp.saves[1]!.record.state).to.deep.equal({ inner_a: true, inner_b: false });
      expect(cp.saves[1]!.record.parentStates).to.deep.equal([{ outer_done: false, pre: 1 }]);
    });

    it("records the attempt index of the attempt that merged", async () => {
      const cp = new RecordingCheckpointer(b.make());
      let calls = 0;
      const g = new GraphBuilder(stateSchema({ fields: { n: { type: "int", default: 0 } } }))
        .addNode(
          "work",
          async () => {
            if (++calls < 3) throw new Error("again");
            return { n: 1 };
          },
          { middleware: [retry(3)] },
        )
        .addEdge("work", END)
        .setEntry("work")
        .compile() as unknown as Graph;
      await withCheckpointer(g, cp).invoke();
      expect(cp.saves).to.have.length(3); // two failed attempts + the merged one
      expect(cp.saves[2]!.record.completedPositions).to.deep.equal([{ namespace: [], nodeName: "work", step: 0, attemptIndex: 2 }]);
    });

    it("reads schema_version from the declared outermost schema, never from state values (§10.2)", async () => {
      const cp = new RecordingCheckpointer(b.make());
      const g = chain({ schema_version: { type: "string", default: "v2" } }, [["a", () => ({ schema_version: "v9" })]], "g", "v1");
      await withCheckpointer(g, cp).invoke({ schema_version: "v2" });
      expect(cp.saves.map((s) => s.record.schemaVersion)).to.deep.equal(["v1"]);
    });

    it("writes the empty-string sentinel when the schema declares no schema_version", async () => {
      const cp = new RecordingCheckpointer(b.make());
      await withCheckpointer(chain(ABC, [["a", () => ({})]]), cp).invoke();
      expect(cp.saves[0]!.record.schemaVersion).to.equal("");
    });

    it("does not save without a Checkpointer (§10.1.1)", async () => {
      const g = chain(ABC, [["a", () => ({ a: 1 })]]);
      const r = await withCheckpointer(g, null).invoke();
      expect(r.state).to.deep.include({ a: 1 });
    });

    it("runs the caller's hooks after the save, and passes observers / metadata through", async () => {
      const cp = b.make();
      const order: string[] = [];
      const events: string[] = [];
      const g = chain(ABC, [["a", (_s, ctx) => (order.push(`node:${String(ctx.metadata["tag"])}`), { a: 1 })]]);
      await withCheckpointer(g, cp).invoke(
        {},
        {
          metadata: { tag: "t" },
          observers: [(e: ObserverEvent) => void (isNodeEvent(e) && events.push(e.phase))],
          hooks: {
            async onNodeCompleted(ev) {
              order.push(`hook:${(await cp.load(ev.invocationId)) ? "saved" : "unsaved"}`);
            },
          },
        },
      );
      await g.drain();
      expect(order).to.deep.equal(["node:t", "hook:saved"]);
      expect(events).to.deep.equal(["started", "completed"]);
    });

    it("deleteOnCompletion removes the record once END is reached, and keeps it on failure", async () => {
      const cp = b.make();
      const ok = await withCheckpointer(chain(ABC, [["a", () => ({})]]), cp, { deleteOnCompletion: true }).invoke();
      expect(await cp.load(ok.invocationId)).to.equal(undefined);
      const e = await rejection(withCheckpointer(chain(ABC, [["a", () => ({})], ["b", flaky({})]]), cp, { deleteOnCompletion: true }).invoke());
      expect(await cp.load(e["invocationId"] as string)).to.not.equal(undefined);
    });

    it("emits a checkpoint_save observer event per save only when saveEvents is on (§10.8)", async () => {
      const g = chain(ABC, [["a", () => ({})], ["b", () => ({})]]);
      const seen: CheckpointSaveEvent[] = [];
      const obs = (e: ObserverEvent): void => {
        if (e.kind === "checkpoint_save") seen.push(e);
      };
      await withCheckpointer(g, b.make()).invoke({}, { observers: [obs] });
      await g.drain();
      expect(seen).to.have.length(0);
      const r = await withCheckpointer(g, b.make(), { saveEvents: true }).invoke({}, { observers: [obs] });
      await g.drain();
      expect(seen.map((e) => [e.nodeName, e.invocationId, e.trigger, e.scope])).to.deep.equal([
        ["a", r.invocationId, "node_completed", "graph"],
        ["b", r.invocationId, "node_completed", "graph"],
      ]);
      expect(seen[0]!.backend).to.be.a("string");
      expect(seen[1]!.lastSavedAt).to.be.greaterThan(seen[0]!.lastSavedAt);
    });
  });
}

/** A tiny retry middleware (the canonical one lives in src/pipeline/middleware). */
export function retry<S extends StateRecord = StateRecord, U = Partial<S>>(max: number): Middleware<S, U> {
  return async (state, next) => {
    for (let i = 0; ; i++) {
      try {
        return await withAttemptIndex(i, () => next(state));
      } catch (e) {
        if (i + 1 >= max) throw e;
      }
    }
  };
}

/** A middleware retrying once on any error, without setting the attempt index. */
export function retryOnceNaively<S extends StateRecord = StateRecord, U = Partial<S>>(): Middleware<S, U> {
  return async (state, next) => {
    try {
      return await next(state);
    } catch {
      return next(state);
    }
  };
}
