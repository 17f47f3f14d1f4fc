/**
 * Bad ids get a category, at once (issue 26 item 5a): every public entry taking an invocation or
 * session id — suspension resume, checkpoint resume, the Checkpointer / PausedInvocationStore /
 * SessionStore methods, the session-bound graph — refuses `42`, `null`, `{}`, `""` with a categorized
 * error naming what was passed, never a plain TypeError, and before a store holds anything new.
 * Real stores (in-memory, SQLite), no mocks.
 */
import { expect } from "chai";
import {
  BatchingCheckpointer,
  CheckpointInvalidIdError,
  InMemoryCheckpointer,
  SqliteCheckpointer,
  withCheckpointer,
  type Checkpointer,
} from "../../src/checkpoint/index.ts";
import { END, GraphBuilder, GraphRuntimeError, stateSchema } from "../../src/graph/index.ts";
import { InMemorySessionStore, SessionInvalidIdError, SqliteSessionStore, withSessions } from "../../src/sessions/index.ts";
import { PausedInvocationStore, SuspensionRecordInvalidError, suspend, withSuspension } from "../../src/suspension/index.ts";

const BAD: ReadonlyArray<[string, unknown, RegExp]> = [
  ["42", 42, /42 \(a number\)/],
  ["null", null, /got null|invocation null/],
  ["{}", {}, /an object/],
  ['""', "", /an empty string/],
];

const graph = new GraphBuilder(stateSchema({ fields: { n: { type: "int", default: 0 }, ok: { type: "bool", default: false } } }))
  .addNode("gate", async (s) => (s.ok ? { n: 1 } : suspend({ signalId: "approve" })))
  .addEdge("gate", END)
  .setEntry("gate")
  .compile({ name: "g" });

async function rejection(f: () => unknown): Promise<unknown> {
  const started = performance.now();
  try {
    await f();
  } catch (e) {
    expect(performance.now() - started, "refused at once").to.be.below(1000);
    return e;
  }
  throw new Error("expected a rejection");
}

function expectCategory(e: unknown, category: string, cls: abstract new (...a: never[]) => Error, mentions: RegExp): void {
  expect(e, String(e)).to.be.instanceOf(cls);
  expect(e).to.be.instanceOf(GraphRuntimeError);
  expect(e).to.not.be.instanceOf(TypeError);
  expect((e as GraphRuntimeError).category).to.equal(category);
  expect((e as Error).message).to.match(mentions);
}

describe("ids that are not non-empty strings: a category, at once", () => {
  for (const [label, id, mentions] of BAD) {
    describe(`id ${label}`, () => {
      it("suspension: resume(), invoke({ resumeInvocation }) and the store's loadForResume → suspension_record_invalid (invalid_id)", async () => {
        const cp = new InMemoryCheckpointer();
        const runner = withSuspension(graph, { checkpointer: cp });
        const paused = await runner.invoke({});
        expect(paused.outcome).to.equal("suspended");
        for (const call of [
          () => runner.resume(id as string, { ok: true }),
          () => runner.invoke({}, { resumeInvocation: id as string, signalPayload: { ok: true } }),
          () => new PausedInvocationStore(cp).loadForResume(id as string),
        ]) {
          const e = await rejection(call);
          expectCategory(e, "suspension_record_invalid", SuspensionRecordInvalidError, mentions);
          expect((e as SuspensionRecordInvalidError).reason).to.equal("invalid_id");
        }
        // The real suspension is untouched and still resumes.
        expect((await runner.resume(paused.invocationId, { ok: true })).outcome).to.equal("completed");
      });

      it("suspension: load() and cancel() → checkpoint_invalid_id", async () => {
        const runner = withSuspension(graph, { checkpointer: new InMemoryCheckpointer() });
        for (const call of [() => runner.load(id as string), () => runner.cancel(id as string)]) {
          expectCategory(await rejection(call), "checkpoint_invalid_id", CheckpointInvalidIdError, mentions);
        }
      });

      it("checkpoint: resume(), invoke({ resumeInvocation }) and every Checkpointer method → checkpoint_invalid_id", async () => {
        const sqlite = new SqliteCheckpointer(":memory:");
        try {
          for (const cp of [new InMemoryCheckpointer(), sqlite, new BatchingCheckpointer(new InMemoryCheckpointer(), { flushEvery: 10 })] as Checkpointer[]) {
            const g = withCheckpointer(graph, cp);
            const record = { invocationId: "x", correlationId: "c", state: {}, completedPositions: [], parentStates: [], schemaVersion: "", lastSavedAt: 1 };
            for (const call of [
              () => g.resume(id as string),
              () => g.invoke({}, { resumeInvocation: id as string }),
              () => cp.load(id as string),
              () => cp.save(id as string, record),
              () => cp.save(id as string, record, { trigger: "fan_out_instance_completed", scope: "fan_out_internal", namespace: ["f"] }), // buffered by BatchingCheckpointer
              () => cp.delete(id as string),
            ]) {
              expectCategory(await rejection(call), "checkpoint_invalid_id", CheckpointInvalidIdError, mentions);
            }
            expect(await cp.list()).to.deep.equal([]);
          }
        } finally {
          sqlite.close();
        }
      });

      it("sessions: invoke({ sessionId }), the bound graph's load / save / delete and both stores → session_invalid_id", async () => {
        const sqlite = new SqliteSessionStore(":memory:");
        try {
          for (const store of [new InMemorySessionStore(), sqlite]) {
            const bound = withSessions(graph, { store, projection: "full" });
            for (const call of [
              () => bound.invoke({ ok: true }, { sessionId: id as string }),
              () => bound.load(id as string),
              () => bound.save(id as string, {}),
              () => bound.delete(id as string),
              () => store.load(id as string),
              () => store.save(id as string, { state: {} }),
              () => store.delete(id as string),
            ]) {
              expectCategory(await rejection(call), "session_invalid_id", SessionInvalidIdError, mentions);
            }
            expect(await store.list()).to.deep.equal([]);
          }
        } finally {
          sqlite.close();
        }
      });
    });
  }
});
