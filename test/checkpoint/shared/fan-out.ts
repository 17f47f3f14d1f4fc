/** §10.7 / §10.11 per-instance fan-out resume through the seam, and §10.11.4 batching. */
import { expect } from "chai";
import type { StateRecord } from "../../../src/graph/index.ts";
import { BatchingCheckpointer, withCheckpointer, type Checkpointer, type CheckpointRecord, type FanOutProgressEntry } from "../../../src/checkpoint/index.ts";
import { fromRecordDocument } from "../../../src/internal.ts";
import { chain, rejection, RecordingCheckpointer, seamFanOut, type Backend, type Graph } from "../helpers.ts";

const LEAF = { input: { type: "int", default: 0 }, out: { type: "int", default: 0 } } as const;

/** A one-node scorer whose instances listed in `failing` raise (while `failing` holds them). */
function scorer(failing: Set<number>, log?: string[]): Graph {
  return chain(LEAF, [["score", (s) => {
    log?.push(`score:${String(s.input)}`);
    if (failing.has(s.input as number)) throw new Error(`instance with input ${String(s.input)} failed`);
    return { out: s.input };
  }]], "scorer");
}

function fanGraph(sub: Graph, items: number[], opts: Partial<Parameters<typeof seamFanOut>[0]> = {}, version?: string): Graph {
  const fields: Record<string, { type: string; default: unknown }> = {
    items: { type: "list<int>", default: items },
    results: { type: "list<any>", default: [] },
    errors: { type: "list<any>", default: [] },
  };
  return chain(fields, [["process", seamFanOut({ sub, itemsField: "items", itemField: "input", collectField: "out", targetField: "results", ...opts })]], "fan", version);
}

function progressOf(r: CheckpointRecord | undefined, node = "process"): FanOutProgressEntry {
  const e = r?.fanOutProgress?.find((x) => x.fanOutNodeName === node);
  expect(e, `fan_out_progress entry for ${node}`).to.not.equal(undefined);
  return e!;
}

function states(e: FanOutProgressEntry): string[] {
  return e.instances.map((i) => (i.state === "completed" ? `completed:${JSON.stringify(i.result)}${i.resultIsError ? "!" : ""}` : i.state));
}

export function fanOutSuite(b: Backend): void {
  describe("per-instance fan-out resume (§10.7, §10.11)", () => {
    it("skips completed instances and re-runs the in-flight and not-started ones; the append-style fan-in has no duplicates", async () => {
      const failing = new Set([40]);
      const executed: string[] = [];
      const g = fanGraph(scorer(failing), [10, 20, 30, 40, 50], { executed });
      const cp = b.make();
      const runner = withCheckpointer(g, cp);
      const e = await rejection(runner.invoke());
      expect(e).to.include({ category: "node_exception" });
      const saved = await cp.load(e["invocationId"] as string);
      const p = progressOf(saved);
      expect(p).to.deep.include({ namespace: [], fanOutNodeName: "process", instanceCount: 5 });
      expect(p.enclosingFanOutLineage).to.equal(undefined);
      expect(states(p)).to.deep.equal(["completed:10", "completed:20", "completed:30", "in_flight", "not_started"]);
      expect(p.instances.every((i) => i.resultIsError === false)).to.equal(true);
      expect(saved!.completedPositions.some((x) => x.nodeName === "process")).to.equal(false);
      failing.clear();
      executed.length = 0;
      const r = await runner.resume(e["invocationId"] as string);
      expect(executed).to.deep.equal(["-:3", "-:4"]);
      expect(r.state["results"]).to.deep.equal([10, 20, 30, 40, 50]);
      // The fan-out node's completion save drops its progress entry.
      expect((await cp.load(r.invocationId))!.fanOutProgress).to.equal(undefined);
    });

    it("records an in-flight instance's completed inner positions, and restarts it from its subgraph entry", async () => {
      let failB = true;
      const log: string[] = [];
      const twoStep = chain({ ...LEAF, stage1: { type: "int", default: 0 } }, [
        ["step_a", (s) => (log.push(`a${String(s.input)}`), { stage1: s.input })],
        ["step_b", (s) => {
          log.push(`b${String(s.input)}`);
          if (failB && s.input === 20) throw new Error("step_b failed");
          return { out: s.stage1 };
        }],
      ], "two_step");
      const executed: string[] = [];
      const g = fanGraph(twoStep, [10, 20, 30], { executed });
      const cp = b.make();
      const runner = withCheckpointer(g, cp);
      const id = (await rejection(runner.invoke()))["invocationId"] as string;
      const p = progressOf(await cp.load(id));
      expect(states(p)).to.deep.equal(["completed:10", "in_flight", "not_started"]);
      expect(p.instances[1]!.completedInnerPositions!.map((x) => [x.namespace, x.nodeName, x.attemptIndex, x.fanOutIndex])).to.deep.equal([
        [["process"], "step_a", 0, 1],
      ]);
      failB = false;
      log.length = 0;
      executed.length = 0;
      const r = await runner.resume(id);
      expect(executed).to.deep.equal(["-:1", "-:2"]);
      expect(log).to.deep.equal(["a20", "b20", "a30", "b30"]);
      expect(r.state["results"]).to.deep.equal([10, 20, 30]);
    });

    it("under collect, a recorded error is a completed contribution: skipped on resume, rolled forward once", async () => {
      const failing = new Set([30]);
      const executed: string[] = [];
      const sub = scorer(failing);
      const cp = b.make();
      const crashing = withCheckpointer(fanGraph(sub, [10, 20, 30, 40, 50], { errorsField: "errors", abortAfter: 2, executed }), cp);
      const id = (await rejection(crashing.invoke()))["invocationId"] as string;
      const p = progressOf(await cp.load(id));
      expect(p.instances.map((i) => [i.state, i.resultIsError])).to.deep.equal([
        ["completed", false],
        ["completed", false],
        ["completed", true],
        ["not_started", false],
        ["not_started", false],
      ]);
      expect(p.instances[2]!.result).to.deep.include({ fan_out_index: 2 });
      executed.length = 0;
      const r = await withCheckpointer(fanGraph(sub, [10, 20, 30, 40, 50], { errorsField: "errors", executed }), cp).resume(id);
      expect(executed).to.deep.equal(["-:3", "-:4"]);
      expect(r.state["results"]).to.deep.equal([10, 20, 40, 50]);
      expect(r.state["errors"]).to.have.length(1);
    });

    it("a crash right after an instance's completion save resumes with that instance rolled forward", async () => {
      const executed: string[] = [];
      const cp = new RecordingCheckpointer(b.make());
      const sub = scorer(new Set());
      const id = (await rejection(withCheckpointer(fanGraph(sub, [10, 20], { abortAfter: 0, executed }), cp).invoke()))["invocationId"] as string;
      const completionSave = cp.saves.findIndex((s) => s.context?.trigger === "fan_out_instance_completed");
      expect(states(progressOf(cp.saves[completionSave]!.record))).to.deep.equal(["completed:10", "not_started"]);
      expect(cp.saves[completionSave]!.context?.scope).to.equal("fan_out_internal");
      executed.length = 0;
      const r = await withCheckpointer(fanGraph(sub, [10, 20], { executed }), cp).resume(id);
      expect(executed).to.deep.equal(["-:1"]);
      expect(r.state["results"]).to.deep.equal([10, 20]);
    });

    it("rolls a completed instance's extra outputs forward with its result (a null slot stays null)", async () => {
      const sub = chain({ ...LEAF, note: { type: "string", nullable: true, default: null } }, [
        ["score", (s) => ({ out: s.input, ...(s.input === 20 ? { note: "twenty" } : {}) })],
      ], "scorer");
      const fields = {
        items: { type: "list<int>", default: [10, 20, 30] },
        results: { type: "list<any>", default: [] },
        notes: { type: "list<any>", default: [] },
      };
      const build = (abortAfter?: number, executed?: string[]) =>
        chain(fields, [["process", seamFanOut({ sub, itemsField: "items", itemField: "input", collectField: "out", targetField: "results", extraOutputs: { notes: "note" }, ...(abortAfter !== undefined ? { abortAfter } : {}), ...(executed ? { executed } : {}) })]]);
      const cp = b.make();
      const id = (await rejection(withCheckpointer(build(1), cp).invoke()))["invocationId"] as string;
      expect(progressOf(await cp.load(id)).instances.slice(0, 2).map((i) => i.extraOutputs)).to.deep.equal([{ notes: null }, { notes: "twenty" }]);
      const executed: string[] = [];
      const r = await withCheckpointer(build(undefined, executed), cp).resume(id);
      expect(executed).to.deep.equal(["-:2"]);
      expect(r.state["results"]).to.deep.equal([10, 20, 30]);
      expect(r.state["notes"]).to.deep.equal([null, "twenty", null]);
    });

    for (const [label, items] of [["shrunk", [10, 20, 30]], ["grown", [10, 20, 30, 40, 50, 60, 70]]] as const) {
      it(`raises checkpoint_record_invalid before any instance runs when the instance count ${label} (count drift)`, async () => {
        const executed: string[] = [];
        const cp = b.make();
        const sub = scorer(new Set());
        const id = (await rejection(withCheckpointer(fanGraph(sub, [10, 20, 30, 40, 50], { abortAfter: 2 }), cp).invoke()))["invocationId"] as string;
        const saved = (await cp.load(id))!;
        await cp.save(id, { ...saved, state: { ...saved.state, items: [...items] } }); // the input set changed
        const e = await rejection(withCheckpointer(fanGraph(sub, [], { executed }), cp).resume(id));
        expect(e).to.include({ category: "checkpoint_record_invalid" });
        expect(e.message).to.contain("process");
        expect(executed).to.deep.equal([]);
      });
    }

    it("every save — outer, fan-out internal, instance completion, fan-out node — carries the declared schema_version", async () => {
      const cp = new RecordingCheckpointer(b.make());
      await withCheckpointer(fanGraph(scorer(new Set()), [10, 20, 30], {}, "v1"), cp).invoke({ items: [10, 20, 30] });
      const kinds = new Set(cp.saves.map((s) => `${s.context?.trigger}/${s.context?.scope}`));
      expect([...kinds].sort()).to.deep.equal(["fan_out_instance_completed/fan_out_internal", "node_completed/fan_out_internal", "node_completed/graph"]);
      expect(cp.saves.every((s) => s.record.schemaVersion === "v1")).to.equal(true);
      expect(cp.saves).to.have.length(3 * 2 + 1);
    });

    it("concurrent instances: every instance that completed before the failure is skipped on resume", async () => {
      const failing = new Set([3]);
      const executed: string[] = [];
      const cp = b.make();
      const runner = withCheckpointer(fanGraph(scorer(failing), [1, 2, 3, 4], { concurrent: true, executed }), cp);
      const id = (await rejection(runner.invoke()))["invocationId"] as string;
      expect(states(progressOf(await cp.load(id)))).to.deep.equal(["completed:1", "completed:2", "in_flight", "completed:4"]);
      failing.clear();
      executed.length = 0;
      const r = await runner.resume(id);
      expect(executed).to.deep.equal(["-:2"]);
      expect(r.state["results"]).to.deep.equal([1, 2, 3, 4]);
    });

    describe("nested fan-outs (enclosing_fan_out_lineage)", () => {
      function nested(executed: string[]): Graph {
        const leaf = chain(LEAF, [["score", (s) => ({ out: s.input })]], "leaf_scorer");
        const innerRunner = chain(
          { inner_items: { type: "list<int>", default: [] }, inner_results: { type: "list<int>", default: [] } },
          [["inner_process", seamFanOut({ sub: leaf, itemsField: "inner_items", itemField: "input", collectField: "out", targetField: "inner_results", executed })]],
          "inner_runner",
        );
        return chain(
          { outer_items: { type: "list<list<int>>", default: [[1, 2, 3], [4, 5, 6]] }, all_results: { type: "list<list<int>>", default: [] } },
          [["outer_process", seamFanOut({ sub: innerRunner, itemsField: "outer_items", itemField: "inner_items", collectField: "inner_results", targetField: "all_results", concurrent: true, executed })]],
          "outer",
        );
      }
      const outerEntry = {
        namespace: [],
        fan_out_node_name: "outer_process",
        instance_count: 2,
        enclosing_fan_out_lineage: [],
        instances: [
          { state: "in_flight", result_is_error: false },
          { state: "in_flight", result_is_error: false },
        ],
      };
      const state = { outer_items: [[1, 2, 3], [4, 5, 6]], all_results: [] };

      it("skips, per enclosing instance, only the inner instances completed under that instance's lineage", async () => {
        const cp = b.make();
        const executed: string[] = [];
        const seeded = fromRecordDocument({
          invocation_id: "seeded-076",
          correlation_id: "c-076",
          state,
          completed_positions: [],
          fan_out_progress: [
            outerEntry,
            {
              namespace: ["outer_process"],
              fan_out_node_name: "inner_process",
              instance_count: 3,
              enclosing_fan_out_lineage: [{ namespace: [], fan_out_node_name: "outer_process", fan_out_index: 0 }],
              instances: [
                { state: "completed", result: 1, result_is_error: false },
                { state: "completed", result: 2, result_is_error: false },
                { state: "not_started", result_is_error: false },
              ],
            },
            {
              namespace: ["outer_process"],
              fan_out_node_name: "inner_process",
              instance_count: 3,
              enclosing_fan_out_lineage: [{ namespace: [], fan_out_node_name: "outer_process", fan_out_index: 1 }],
              instances: [
                { state: "completed", result: 4, result_is_error: false },
                { state: "not_started", result_is_error: false },
                { state: "not_started", result_is_error: false },
              ],
            },
          ],
        });
        await cp.save(seeded.invocationId, seeded);
        const r = await withCheckpointer(nested(executed), cp).resume("seeded-076");
        expect(r.state["all_results"]).to.deep.equal([[1, 2, 3], [4, 5, 6]]);
        const inner = executed.filter((x) => !x.startsWith("-")).sort();
        expect(inner).to.deep.equal(["0:2", "1:1", "1:2"]);
      });

      it("never applies a legacy (lineage-less) entry to a nested fan-out: every inner instance re-runs", async () => {
        const cp = b.make();
        const executed: string[] = [];
        const seeded = fromRecordDocument({
          invocation_id: "seeded-legacy",
          correlation_id: "c-legacy",
          state,
          completed_positions: [],
          fan_out_progress: [
            outerEntry,
            {
              namespace: ["outer_process"],
              fan_out_node_name: "inner_process",
              instance_count: 3,
              instances: [
                { state: "completed", result: 1, result_is_error: false },
                { state: "completed", result: 2, result_is_error: false },
                { state: "not_started", result_is_error: false },
              ],
            },
          ],
        });
        await cp.save(seeded.invocationId, seeded);
        const r = await withCheckpointer(nested(executed), cp).resume("seeded-legacy");
        expect(r.state["all_results"]).to.deep.equal([[1, 2, 3], [4, 5, 6]]);
        expect(executed.filter((x) => !x.startsWith("-")).sort()).to.deep.equal(["0:0", "0:1", "0:2", "1:0", "1:1", "1:2"]);
      });

      it("writes one lineage-qualified entry per enclosing instance while both are in flight", async () => {
        const cp = new RecordingCheckpointer(b.make());
        await withCheckpointer(nested([]), cp).invoke();
        const withBoth = cp.saves.find((s) => (s.record.fanOutProgress ?? []).filter((e) => e.fanOutNodeName === "inner_process").length === 2);
        expect(withBoth, "a save with both inner entries").to.not.equal(undefined);
        const lineages = withBoth!.record.fanOutProgress!.filter((e) => e.fanOutNodeName === "inner_process").map((e) => e.enclosingFanOutLineage);
        expect(lineages).to.have.deep.members([
          [{ namespace: [], fanOutNodeName: "outer_process", fanOutIndex: 0 }],
          [{ namespace: [], fanOutNodeName: "outer_process", fanOutIndex: 1 }],
        ]);
        expect(withBoth!.record.fanOutProgress!.find((e) => e.fanOutNodeName === "inner_process")!.namespace).to.deep.equal(["outer_process"]);
        // Inner entries disappear once their outer instance completed.
        expect(cp.saves[cp.saves.length - 1]!.record.fanOutProgress).to.equal(undefined);
      });
    });

    it("a composite node that does not use the seam re-runs as a whole on resume (no duplicate contributions)", async () => {
      let fail = true;
      const runs: number[] = [];
      const sub = chain(LEAF, [["score", (s) => (runs.push(s.input as number), { out: s.input })]], "scorer");
      const plain = {
        kind: "plain_fan_out",
        subgraphs: [sub],
        async run(state: Readonly<StateRecord>, ctx: Parameters<ReturnType<typeof seamFanOut>["run"]>[1]) {
          const out: unknown[] = [];
          for (const [i, item] of (state["items"] as number[]).entries()) {
            out.push((await ctx.runSubgraph(sub, { input: item }, { fanOutIndex: i }))["out"]);
            if (fail && i === 1) throw new Error("crash");
          }
          return { results: out };
        },
      };
      const g = chain({ items: { type: "list<int>", default: [1, 2, 3] }, results: { type: "list<int>", default: [] } }, [["process", plain]]);
      const cp = b.make();
      const runner = withCheckpointer(g, cp);
      const id = (await rejection(runner.invoke()))["invocationId"] as string;
      expect((await cp.load(id))!.fanOutProgress).to.equal(undefined);
      fail = false;
      runs.length = 0;
      const r = await runner.resume(id);
      expect(runs).to.deep.equal([1, 2, 3]);
      expect(r.state["results"]).to.deep.equal([1, 2, 3]);
    });
  });

  describe("batching of fan-out internal saves (§10.11.4)", () => {
    it("a crash loses the buffered fan-out internal saves; those instances re-run on resume, contributing once", async () => {
      const durable = b.make();
      const batched = new BatchingCheckpointer(durable, { flushEvery: 5 });
      let reached!: () => void;
      const hung = new Promise<void>((r) => (reached = r));
      const hangingScorer = chain(LEAF, [["score", async (s) => {
        if (s.input === 70) {
          reached();
          await new Promise(() => {}); // the process dies here
        }
        return { out: s.input };
      }]], "scorer");
      const items = [10, 20, 30, 40, 50, 60, 70, 80];
      const run = withCheckpointer(fanGraph(hangingScorer, items), batched).invoke({}, { invocationId: `batched-run-${b.name}` });
      void run.catch(() => {});
      await hung;
      batched.discardPending(); // the crash
      // Two internal saves per instance (its node's completed event, its completion): the 10th save
      // (instance 4's completion) was the last flushed; instance 5's two saves were buffered and lost.
      const p = progressOf(await durable.load(`batched-run-${b.name}`));
      expect(states(p)).to.deep.equal(["completed:10", "completed:20", "completed:30", "completed:40", "completed:50", "not_started", "not_started", "not_started"]);
      const executed: string[] = [];
      const r = await withCheckpointer(fanGraph(scorer(new Set()), items, { executed }), batched).resume(`batched-run-${b.name}`);
      expect(executed).to.deep.equal(["-:5", "-:6", "-:7"]);
      expect(r.state["results"]).to.deep.equal(items);
    });

    it("writes graph-level saves through, superseding the buffer", async () => {
      const durable = new RecordingCheckpointer(b.make());
      const batched = new BatchingCheckpointer(durable, { flushEvery: 100 });
      const r = await withCheckpointer(fanGraph(scorer(new Set()), [1, 2, 3]), batched).invoke();
      expect(batched.pendingCount).to.equal(0);
      expect(durable.saves).to.have.length(1); // only the fan-out node's own completion save
      expect(durable.saves[0]!.context?.scope).to.equal("graph");
      expect((await durable.load(r.invocationId))!.completedPositions.map((x) => x.nodeName)).to.deep.equal(["process"]);
    });

    it("load sees buffered records, list shows durable ones; flush and delete", async () => {
      const durable = b.make();
      const batched = new BatchingCheckpointer(durable, { flushEvery: 3 });
      const ctx = { trigger: "node_completed", scope: "fan_out_internal", namespace: ["f", "x"] } as const;
      const rec = (n: number): CheckpointRecord => ({
        invocationId: "i",
        correlationId: "c",
        state: { n },
        completedPositions: [],
        parentStates: [],
        schemaVersion: "",
        lastSavedAt: n,
      });
      await batched.save("i", rec(1), ctx);
      await batched.save("i", rec(2), ctx);
      expect((await batched.load("i"))!.state).to.deep.equal({ n: 2 });
      expect(await durable.load("i")).to.equal(undefined);
      expect(await batched.list()).to.deep.equal([]);
      await batched.save("i", rec(3), ctx); // third buffered save: flushed
      expect((await durable.load("i"))!.state).to.deep.equal({ n: 3 });
      await batched.save("i", rec(4), ctx);
      await batched.flush();
      expect((await durable.load("i"))!.state).to.deep.equal({ n: 4 });
      await batched.save("i", rec(5), ctx);
      await batched.delete("i");
      expect(await batched.load("i")).to.equal(undefined);
      expect(batched.pendingCount).to.equal(0);
      expect(() => new BatchingCheckpointer(durable, { flushEvery: 0 })).to.throw(RangeError);
    });
  });
}
