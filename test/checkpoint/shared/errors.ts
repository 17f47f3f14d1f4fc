/** §10.10 error categories (migration categories are in migrations.ts, count drift in fan-out.ts). */
import { expect } from "chai";
import { END, GraphBuilder, stateSchema } from "../../../src/graph/index.ts";
import {
  CheckpointNotFoundError,
  CheckpointRecordInvalidError,
  CheckpointSaveFailedError,
  isCheckpointError,
  withCheckpointer,
  type CheckpointRecord,
} from "../../../src/checkpoint/index.ts";
import { chain, flaky, RecordingCheckpointer, rejection, seamFanOut, type Backend, type Graph } from "../helpers.ts";
import { record } from "./protocol.ts";
import { retryOnceNaively } from "./saving.ts";

const X = { x: { type: "int", default: 0 } } as const;

export function errorsSuite(b: Backend): void {
  describe("errors (§10.10)", () => {
    describe("checkpoint_not_found", () => {
      it("is raised against an empty checkpointer", async () => {
        const e = await rejection(withCheckpointer(chain(X, [["a", () => ({ x: 1 })]]), b.make()).resume("ghost-id-no-record-exists"));
        expect(e).to.be.instanceOf(CheckpointNotFoundError);
        expect(e).to.include({ category: "checkpoint_not_found", transient: false, resumeInvocationId: "ghost-id-no-record-exists" });
      });

      it("is raised for an unknown id while other records exist", async () => {
        const runner = withCheckpointer(chain(X, [["a", () => ({ x: 1 })]]), b.make());
        await runner.invoke();
        await runner.invoke();
        expect((await runner.checkpointer!.list()).length).to.equal(2);
        const e = await rejection(runner.invoke({}, { resumeInvocation: "never-existed-fabricated-id" }));
        expect(e["category"]).to.equal("checkpoint_not_found");
      });

      it("is raised when no Checkpointer is registered (§10.1.1)", async () => {
        const e = await rejection(withCheckpointer(chain(X, [["a", () => ({})]]), null).invoke({}, { resumeInvocation: "x" }));
        expect(e["category"]).to.equal("checkpoint_not_found");
      });
    });

    describe("checkpoint_save_failed", () => {
      it("fails the invocation with the backend error as cause; nothing after the failed save runs", async () => {
        const cp = new RecordingCheckpointer(b.make());
        cp.failSaveAt = 1;
        const ran: string[] = [];
        const g = chain(X, [["a", () => (ran.push("a"), {})], ["b", () => (ran.push("b"), {})], ["c", () => (ran.push("c"), {})]]);
        const e = await rejection(withCheckpointer(g, cp).invoke({}, { invocationId: "inv-save" }));
        expect(e).to.be.instanceOf(CheckpointSaveFailedError);
        expect(e).to.include({ category: "checkpoint_save_failed", transient: false, nodeName: "b", invocationId: "inv-save" });
        expect((e.cause as Error).message).to.equal("disk full");
        expect(ran).to.deep.equal(["a", "b"]);
        expect((await cp.load("inv-save"))!.completedPositions.map((p) => p.nodeName)).to.deep.equal(["a"]);
      });

      it("surfaces unwrapped from inside a subgraph, and is not retried by retry middleware", async () => {
        const cp = new RecordingCheckpointer(b.make());
        cp.failSaveAt = 0;
        let runs = 0;
        const inner = chain(X, [["i", () => (runs++, { x: 1 })]], "inner");
        const g = new GraphBuilder(stateSchema({ fields: X }))
          .addSubgraph("sub", inner, {}, { middleware: [retryOnceNaively()] })
          .addEdge("sub", END)
          .setEntry("sub")
          .compile() as unknown as Graph;
        const e = await rejection(withCheckpointer(g, cp).invoke());
        expect(e["category"]).to.equal("checkpoint_save_failed");
        expect(e["namespace"]).to.deep.equal(["sub", "i"]);
        expect(runs).to.equal(2); // the retry re-ran the subgraph, but the failure stays fatal
      });

      it("is fatal even when a collect-mode fan-out swallows the instance error", async () => {
        const cp = new RecordingCheckpointer(b.make());
        cp.failSaveAt = 0;
        const sub = chain({ input: { type: "int", default: 0 }, out: { type: "int", default: 0 } }, [["score", (s) => ({ out: s.input })]], "scorer");
        const g = chain(
          { items: { type: "list<int>", default: [1, 2] }, results: { type: "list<int>", default: [] }, errors: { type: "list<any>", default: [] } },
          [["fan", seamFanOut({ sub, itemsField: "items", itemField: "input", collectField: "out", targetField: "results", errorsField: "errors" })]],
        );
        const e = await rejection(withCheckpointer(g, cp).invoke());
        expect(e["category"]).to.equal("checkpoint_save_failed");
      });
    });

    describe("checkpoint_record_invalid", () => {
      async function resumeSeeded(g: Graph, seeded: Partial<CheckpointRecord>): Promise<Error & Record<string, unknown>> {
        const cp = b.make();
        await cp.save("seeded", record("seeded", { schemaVersion: "", completedPositions: [], ...seeded }));
        return rejection(withCheckpointer(g, cp).resume("seeded"));
      }
      const g = chain(X, [["a", () => ({ x: 1 })], ["b", () => ({})]]);

      it("when the saved state does not fit the current state schema", async () => {
        const e = await resumeSeeded(g, { state: { x: "not an int" } });
        expect(e).to.be.instanceOf(CheckpointRecordInvalidError);
        expect(e).to.include({ category: "checkpoint_record_invalid", transient: false });
        expect(e.message).to.contain("x");
      });

      it("when a completed position names a node the graph does not have", async () => {
        const e = await resumeSeeded(g, { state: { x: 1 }, completedPositions: [{ namespace: [], nodeName: "renamed", step: 0, attemptIndex: 0 }] });
        expect(e["category"]).to.equal("checkpoint_record_invalid");
        expect(e.message).to.contain("renamed");
      });

      it("when parent_states do not match the save point's subgraph depth", async () => {
        const e = await resumeSeeded(g, { state: { x: 1 }, parentStates: [{ x: 0 }], completedPositions: [{ namespace: [], nodeName: "a", step: 0, attemptIndex: 0 }] });
        expect(e["category"]).to.equal("checkpoint_record_invalid");
      });

      it("when a position goes through a node that does not run a subgraph", async () => {
        const e = await resumeSeeded(g, { state: { x: 1 }, parentStates: [{ x: 0 }], completedPositions: [{ namespace: ["a"], nodeName: "z", step: 0, attemptIndex: 0 }] });
        expect(e["category"]).to.equal("checkpoint_record_invalid");
      });

      it("when a custom backend returns a structurally broken record", async () => {
        const cp = b.make();
        const broken = { ...cp, load: async () => ({ invocationId: "x", correlationId: "y", state: [1, 2], completedPositions: "nope" }) as unknown as CheckpointRecord };
        const e = await rejection(withCheckpointer(g, { ...broken, save: cp.save.bind(cp), list: cp.list.bind(cp), delete: cp.delete.bind(cp) }).resume("x"));
        expect(e["category"]).to.equal("checkpoint_record_invalid");
      });
    });

    it("every category is non-transient and carries its canonical name", async () => {
      const e = await rejection(withCheckpointer(chain(X, [["a", flaky({})]]), b.make()).resume("nope"));
      expect(isCheckpointError(e, "checkpoint_not_found")).to.equal(true);
      expect(isCheckpointError(e, "checkpoint_save_failed")).to.equal(false);
    });
  });
}
