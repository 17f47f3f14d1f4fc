/**
 * The real fan-out (§9) under a Checkpointer: per-instance checkpointing through the
 * `beginFanOutCheckpoint` seam (pipeline-utilities §10.7, §10.11) — completed instances are skipped on
 * resume and their contributions roll forward exactly once; collect-mode error entries are
 * contributions too; a changed instance count is `checkpoint_record_invalid`; nested fan-outs match
 * saved progress per enclosing lineage.
 */
import { expect } from "chai";
import type { StateRecord } from "../../src/graph/index.ts";
import { fanOut } from "../../src/pipeline/index.ts";
import { InMemoryCheckpointer, withCheckpointer, type CheckpointRecord, type FanOutProgressEntry } from "../../src/checkpoint/index.ts";
import { chain, recorder, single } from "./helpers.ts";

/** A scorer whose instances with an input in `failing` raise; logs every input it runs. */
function scorer(failing: Set<number>, log: number[]) {
  return single({ input: { type: "int", default: 0 }, out: { type: "int", default: 0 }, note: { type: "list<string>", default: [] } }, "score", (s) => {
    const x = s["input"] as number;
    log.push(x);
    if (failing.has(x)) throw new Error(`input ${x} failed`);
    return { out: x, note: [`n${x}`] };
  });
}

function fanGraph(sub: ReturnType<typeof scorer>, items: number[], extra: Partial<Parameters<typeof fanOut>[0]> = {}) {
  return chain(
    {
      items: { type: "list<int>", default: items },
      results: { type: "list<int>", reducer: "append", default: [] },
      notes: { type: "list<string>", reducer: "concat_flatten", default: [] }, // one list slot per instance (§9.3), flattened
      errors: { type: "list", reducer: "append", default: [] },
    },
    [[
      "process",
      fanOut({
        subgraph: sub,
        itemsField: "items",
        itemField: "input",
        collectField: "out",
        targetField: "results",
        extraOutputs: { notes: "note" },
        concurrency: 1,
        ...extra,
      } as Parameters<typeof fanOut>[0]),
    ]],
  );
}

function progressOf(r: CheckpointRecord | undefined): FanOutProgressEntry {
  const e = r?.fanOutProgress?.find((x) => x.fanOutNodeName === "process");
  expect(e, "fan_out_progress entry").to.not.equal(undefined);
  return e!;
}

async function failure(p: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await p;
  } catch (e) {
    return e as Error & Record<string, unknown>;
  }
  throw new Error("expected a rejection");
}

describe("pipeline/fan-out: per-instance checkpoint resume (§10.7, §10.11)", () => {
  it("saves each completed instance's contribution and, on resume, runs only the others; fan-in has each entry once", async () => {
    const failing = new Set([40]);
    const log: number[] = [];
    const g = fanGraph(scorer(failing, log), [10, 20, 30, 40, 50]);
    const cp = new InMemoryCheckpointer();
    const runner = withCheckpointer(g, cp);
    const e = await failure(runner.invoke());
    expect(e["category"]).to.equal("node_exception");
    const p = progressOf(await cp.load(e["invocationId"] as string));
    expect(p.instanceCount).to.equal(5);
    expect(p.instances.map((i) => i.state)).to.deep.equal(["completed", "completed", "completed", "in_flight", "not_started"]);
    expect(p.instances.slice(0, 3).map((i) => [i.result, i.resultIsError, i.extraOutputs])).to.deep.equal([
      [10, false, { notes: ["n10"] }],
      [20, false, { notes: ["n20"] }],
      [30, false, { notes: ["n30"] }],
    ]);
    failing.clear();
    log.length = 0;
    const obs = recorder();
    const r = await runner.resume(e["invocationId"] as string, { observers: [obs] });
    expect(log).to.deep.equal([40, 50]);
    expect(r.state["results"]).to.deep.equal([10, 20, 30, 40, 50]);
    expect(r.state["notes"]).to.deep.equal(["n10", "n20", "n30", "n40", "n50"]);
    const dispatched = new Set(obs.events.filter((ev) => ev.namespace.length === 2).map((ev) => ev.fanOutIndexChain[0]));
    expect([...dispatched]).to.deep.equal([3, 4]);
  });

  it("under collect, a failed instance's error entry is a completed contribution, skipped and rolled forward once", async () => {
    const log: number[] = [];
    const g = fanGraph(scorer(new Set([30]), log), [10, 20, 30, 40], { errorPolicy: "collect", errorsField: "errors" });
    const cp = new InMemoryCheckpointer();
    const runner = withCheckpointer(g, cp);
    const first = await runner.invoke();
    expect(first.state["errors"]).to.have.length(1);
    // Replay the record of the save right after instance 2's contribution (instances 3.. not done).
    const saves: CheckpointRecord[] = [];
    const spy = new InMemoryCheckpointer();
    const spying = withCheckpointer(g, {
      save: async (id, rec) => {
        saves.push(rec);
        await spy.save(id, rec);
      },
      load: (id) => spy.load(id),
      list: (f) => spy.list(f),
      delete: (id) => spy.delete(id),
    });
    await spying.invoke({}, { invocationId: "collect-run" });
    const afterTwo = saves.find((s) => s.fanOutProgress?.[0]?.instances[2]?.state === "completed")!;
    expect(progressOf(afterTwo).instances[2]).to.include({ state: "completed", resultIsError: true });
    await spy.save("collect-run", afterTwo);
    log.length = 0;
    const r = await spying.resume("collect-run");
    expect(log).to.deep.equal([40]); // instance 3 only
    expect(r.state["results"]).to.deep.equal([10, 20, 40]);
    expect(r.state["errors"]).to.deep.equal(first.state["errors"]);
  });

  it("raises checkpoint_record_invalid before any instance runs when the resumed count differs (§10.11 count drift)", async () => {
    const failing = new Set([30]);
    const log: number[] = [];
    const g = fanGraph(scorer(failing, log), [10, 20, 30]);
    const cp = new InMemoryCheckpointer();
    const e = await failure(withCheckpointer(g, cp).invoke());
    const saved = (await cp.load(e["invocationId"] as string))!;
    await cp.save("drifted", { ...saved, invocationId: "drifted", state: { ...saved.state, items: [10, 20] } });
    log.length = 0;
    const err = await failure(withCheckpointer(g, cp).resume("drifted"));
    expect(err["category"]).to.equal("checkpoint_record_invalid");
    expect(log).to.deep.equal([]);
  });

  it("without a Checkpointer, behaves exactly as before (no seam, no saves)", async () => {
    const log: number[] = [];
    const g = fanGraph(scorer(new Set([20]), log), [10, 20, 30], { errorPolicy: "collect", errorsField: "errors" });
    const r = await g.invoke();
    expect(r.state["results"]).to.deep.equal([10, 30]);
    expect((r.state["errors"] as StateRecord[]).map((x) => x["fan_out_index"])).to.deep.equal([1]);
  });
});
