/** §10.1 protocol operations and §10.2 round-trip integrity, for one backend. */
import { expect } from "chai";
import { type CheckpointRecord } from "../../../src/checkpoint/index.ts";
import { validateRecord } from "../../../src/internal.ts";
import type { Backend } from "../helpers.ts";

export function record(id: string, extra: Partial<CheckpointRecord> = {}): CheckpointRecord {
  return {
    invocationId: id,
    correlationId: `corr-${id}`,
    state: { n: 1 },
    completedPositions: [{ namespace: [], nodeName: "a", step: 0, attemptIndex: 0 }],
    parentStates: [],
    schemaVersion: "v1",
    lastSavedAt: 1_000,
    ...extra,
  };
}

export function protocolSuite(b: Backend): void {
  describe("Checkpointer protocol (§10.1)", () => {
    it("load returns undefined for an invocation id with no record", async () => {
      const cp = b.make();
      expect(await cp.load("nobody")).to.equal(undefined);
      await cp.save("someone", record("someone"));
      expect(await cp.load("nobody")).to.equal(undefined);
    });

    it("round-trips a record exactly, including values JSON cannot carry (§10.1 round-trip integrity)", async () => {
      const cp = b.make();
      const state = {
        text: "héllo ☃ \u0000 \"quoted\"",
        int: 42,
        float: 0.1 + 0.2,
        neg0: -0,
        nan: NaN,
        inf: Infinity,
        ninf: -Infinity,
        big: 2n ** 70n,
        nothing: null,
        missing: undefined,
        yes: true,
        list: [1, "two", [3, { four: 4 }], null],
        nested: { deep: { deeper: { deepest: ["x"] } } },
        when: new Date(Date.UTC(2024, 1, 29, 12, 0, 0, 5)),
        map: new Map<unknown, unknown>([["k", 1], [2, { v: [2] }]]),
        set: new Set([1, "a"]),
        bytes: new Uint8Array([0, 1, 254, 255]),
        tricky: { $oa: "undefined", v: "user data that looks like a tag" },
        empty: {},
        emptyList: [],
      };
      const r = record("rt", {
        state,
        parentStates: [{ outer: [1, 2, 3], when: new Date(0) }],
        completedPositions: [
          { namespace: [], nodeName: "a", step: 0, attemptIndex: 0 },
          { namespace: ["sub"], nodeName: "x", step: 1, attemptIndex: 2 },
          { namespace: ["fan"], nodeName: "y", step: 2, attemptIndex: 0, fanOutIndex: 3 },
          { namespace: ["par"], nodeName: "z", step: 3, attemptIndex: 0, branchName: "left" },
        ],
        fanOutProgress: [
          {
            namespace: [],
            fanOutNodeName: "fan",
            instanceCount: 3,
            enclosingFanOutLineage: [{ namespace: [], fanOutNodeName: "outer", fanOutIndex: 1 }],
            instances: [
              { state: "completed", result: { score: 1 }, resultIsError: false },
              { state: "in_flight", resultIsError: false, completedInnerPositions: [{ namespace: ["fan"], nodeName: "y", step: 2, attemptIndex: 0, fanOutIndex: 1 }] },
              { state: "not_started", resultIsError: false },
            ],
          },
        ],
        nextStep: 4,
        graphName: "g",
        resumedFrom: "earlier",
        lastSavedAt: 1_700_000_000_123.456,
      });
      await cp.save("rt", r);
      const loaded = await cp.load("rt");
      expect(loaded).to.deep.equal(r);
      expect(Object.is((loaded!.state as { neg0: number }).neg0, -0)).to.equal(true);
      expect("missing" in loaded!.state).to.equal(true);
      expect(validateRecord(loaded)).to.deep.equal(r);
    });

    it("load returns the most recent save; a stored record is isolated from later mutation of the saved object", async () => {
      const cp = b.make();
      const list = [1];
      await cp.save("i", record("i", { state: { list }, lastSavedAt: 1 }));
      list.push(2);
      expect((await cp.load("i"))!.state).to.deep.equal({ list: [1] });
      await cp.save("i", record("i", { state: { list: [9] }, lastSavedAt: 2 }));
      expect((await cp.load("i"))!.state).to.deep.equal({ list: [9] });
      expect(await cp.list()).to.have.length(1);
    });

    it("list summarizes saved invocations (most recent first) and filters them", async () => {
      const cp = b.make();
      await cp.save("a", record("a", { correlationId: "c1", lastSavedAt: 100, graphName: "g1" }));
      await cp.save("b", record("b", { correlationId: "c2", lastSavedAt: 300, graphName: "g2", completedPositions: [] }));
      await cp.save("c", record("c", { correlationId: "c1", lastSavedAt: 200, resumedFrom: "a", graphName: "g1" }));
      const all = await cp.list();
      expect(all.map((s) => s.invocationId)).to.deep.equal(["b", "c", "a"]);
      expect(all[0]).to.deep.equal({
        invocationId: "b",
        correlationId: "c2",
        lastSavedAt: 300,
        completedNodeCount: 0,
        schemaVersion: "v1",
        graphName: "g2",
        fanOutInFlight: false,
      });
      expect((await cp.list({ correlationId: "c1" })).map((s) => s.invocationId)).to.deep.equal(["c", "a"]);
      expect((await cp.list({ graphName: "g2" })).map((s) => s.invocationId)).to.deep.equal(["b"]);
      expect((await cp.list({ resumedFrom: "a" })).map((s) => s.invocationId)).to.deep.equal(["c"]);
      expect((await cp.list({ savedAfter: 150, savedBefore: 300 })).map((s) => s.invocationId)).to.deep.equal(["c"]);
      expect((await cp.list({ savedAfter: new Date(250) })).map((s) => s.invocationId)).to.deep.equal(["b"]);
      expect((await cp.list({ limit: 2 })).map((s) => s.invocationId)).to.deep.equal(["b", "c"]);
      expect(all.find((s) => s.invocationId === "a")!.completedNodeCount).to.equal(1);
    });

    it("delete removes every record of an invocation and tolerates unknown ids", async () => {
      const cp = b.make();
      await cp.save("x", record("x"));
      await cp.delete("x");
      expect(await cp.load("x")).to.equal(undefined);
      await cp.delete("x");
      await cp.delete("never-existed");
      expect(await cp.list()).to.deep.equal([]);
    });

    it("rejects states it cannot restore at save time instead of altering them", async () => {
      const cp = b.make();
      const err = await cp.save("f", record("f", { state: { fn: () => 1 } })).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).to.be.instanceOf(Error);
      expect(await cp.load("f")).to.equal(undefined);
    });

    it("declares migration support (§10.12.1)", () => {
      expect(b.make().supportsStateMigration).to.equal(true);
    });
  });
}
