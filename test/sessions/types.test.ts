/**
 * Type-level behaviour of the sessions API (checked by `tsc --noEmit`): the projection declares the
 * `SessionState` type, projected field names are checked against the state, and results are typed.
 */
import { expect } from "chai";
import { append, defineState, END, field, GraphBuilder } from "../../src/graph/index.ts";
import { InMemorySessionStore, withSessions, type SessionStateOf } from "../../src/sessions/index.ts";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | undefined {
  return undefined;
}

describe("sessions/types", () => {
  const State = defineState({
    history: field.list(field.string()).default([]).reducer(append),
    turns: field.int().default(0),
    scratch: field.string().default(""),
  });
  const graph = new GraphBuilder(State).addNode("n", async () => ({})).addEdge("n", END).setEntry("n").compile();
  const store = new InMemorySessionStore();

  it("the projection determines the SessionState type", async () => {
    const projected = withSessions(graph, { store, projection: { fields: ["history"], map: { turn_count: "turns" } } });
    const r = await projected.invoke({ history: ["hi"] }, { sessionId: "t" });
    const loaded = r.loadedSessionState;
    assertType<Equal<typeof loaded, Readonly<Partial<{ history: readonly string[]; turn_count: number }>> | null>>();
    const full = withSessions(graph, { store, projection: "full" });
    const f = await full.invoke({}, { sessionId: "t-full" });
    type FullSS = SessionStateOf<{ a: number }, "full">;
    assertType<Equal<FullSS, { a: number }>>();
    const turns: number = f.state.turns;
    expect(turns).to.equal(0);
    expect(loaded).to.equal(null);
  });

  it("projected names must be state fields; invoke() and save() take the state type", async () => {
    // @ts-expect-error "nope" is not a state field
    expect(() => withSessions(graph, { store, projection: { fields: ["nope"] } })).to.throw(RangeError);
    // @ts-expect-error map targets must be state fields
    expect(() => withSessions(graph, { store, projection: { map: { x: "nope" } } })).to.throw(RangeError);
    const g = withSessions(graph, { store, projection: { fields: ["turns"] } });
    // @ts-expect-error turns is a number
    await g.save("t", { turns: "1" });
    // @ts-expect-error sessionId is a string
    await g.invoke({}, { sessionId: 1 }).catch(() => undefined);
  });
});
