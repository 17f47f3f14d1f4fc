/**
 * Observability §3.4 *Outside invocation*: `getInvocationMetadata()` called outside an active
 * invocation returns an empty immutable mapping and never raises (the subject of the held-back
 * upstream fixture 046-get-invocation-metadata-outside-invocation; no directive can make a call
 * outside every invocation, so it is a library test). §3.4 *Lifecycle*: the context resets after
 * an invocation, so a later outside read sees nothing of it; `setInvocationMetadata` outside is the
 * silent no-op the read mirrors (reserved keys still raise: validation comes first).
 */
import { expect } from "chai";
import { defineState, field, GraphBuilder } from "../../src/graph/index.ts";
import { getInvocationMetadata, setInvocationMetadata } from "../../src/observability/index.ts";

const S = defineState({ seen: field.string().default("") });

function graph() {
  return new GraphBuilder(S)
    .addNode("read", () => {
      setInvocationMetadata({ added: "in-node" });
      return { seen: JSON.stringify(getInvocationMetadata()) };
    })
    .setEntry("read")
    .compile({ name: "g" });
}

describe("observability §3.4: getInvocationMetadata() outside an invocation", () => {
  it("returns an empty mapping, without raising, at the top level", () => {
    let read: unknown;
    expect(() => (read = getInvocationMetadata())).to.not.throw();
    expect(read).to.deep.equal({});
  });

  it("returns an immutable mapping: a write to it throws and changes nothing", () => {
    const read = getInvocationMetadata() as Record<string, unknown>;
    expect(Object.isFrozen(read)).to.equal(true);
    expect(() => {
      "use strict";
      read.tenantId = "acme";
    }).to.throw(TypeError);
    expect(getInvocationMetadata()).to.deep.equal({});
  });

  it("sees nothing of an invocation that ran before it (the context resets), while the node saw it", async () => {
    const r = await graph().invoke({}, { metadata: { tenantId: "acme" } });
    expect(JSON.parse(r.state.seen)).to.deep.equal({ tenantId: "acme", added: "in-node" });
    expect(getInvocationMetadata()).to.deep.equal({});
  });

  it("sees nothing of an invocation in flight on another async path", async () => {
    let release!: () => void;
    let entered = false;
    const gate = new Promise<void>((res) => (release = res));
    const g = new GraphBuilder(S)
      .addNode("wait", async () => {
        entered = true;
        await gate;
        return { seen: JSON.stringify(getInvocationMetadata()) };
      })
      .setEntry("wait")
      .compile({ name: "g" });
    const running = g.invoke({}, { metadata: { tenantId: "acme" } });
    while (!entered) await new Promise((res) => setImmediate(res));
    expect(getInvocationMetadata()).to.deep.equal({});
    release();
    expect(JSON.parse((await running).state.seen)).to.deep.equal({ tenantId: "acme" });
  });

  it("treats setInvocationMetadata() outside as a silent no-op, so a later read is still empty", () => {
    expect(() => setInvocationMetadata({ tenantId: "acme" })).to.not.throw();
    expect(getInvocationMetadata()).to.deep.equal({});
    expect(() => setInvocationMetadata({ "gen_ai.system": "x" })).to.throw(RangeError);
  });
});
