/**
 * `drain_returned_within_timeout` decides "returned by its timeout" by timer order, not wall-clock
 * time (harness/graph/drain-summary.ts): it must hold for a real drain even when the machine stalls
 * past the timeout, and fail for a drain that keeps waiting for deliveries past it.
 */
import { expect } from "chai";
import { defineState, drain, END, field, GraphBuilder, type ObserverEvent } from "../../src/graph/index.ts";
import { timedDrain } from "../../harness/graph/drain-summary.ts";
import { sleep } from "../graph/helpers.ts";

const S = defineState({ v: field.int().default(0) });

async function slowInvocation(paceMs: number): Promise<void> {
  const b = new GraphBuilder(S);
  b.addNode("a", async () => ({ v: 1 }));
  b.addEdge("a", END);
  const g = b.setEntry("a").compile();
  await g.invoke({}, { observers: [async (_e: ObserverEvent) => sleep(paceMs)] });
}

/** Occupy the event loop for `ms` (a loaded machine running nothing else). */
function stall(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    /* busy */
  }
}

describe("drain_returned_within_timeout: the deadline race", () => {
  afterEach(async () => {
    await drain({ timeoutMs: 2000 });
  });

  it("a real drain returns by its deadline even when the loop stalls well past the timeout", async () => {
    await slowInvocation(300);
    const r = await timedDrain(10, () => {
      const p = drain({ timeoutMs: 10 });
      stall(120); // the timer is due 110 ms before the loop gets to it
      return p;
    });
    expect(r.summary.timeoutReached).to.equal(true);
    expect(r.elapsedMs).to.be.greaterThan(100); // the old wall-clock test (timeout + 50 ms) failed here
    expect(r.returnedByDeadline).to.equal(true);
  });

  it("a drain that waits for deliveries past its timeout does not", async () => {
    await slowInvocation(60);
    // A drain armed with no timeout although the case gave it 10 ms: it waits for the slow observer.
    const r = await timedDrain(10, () => drain({ timeoutMs: null }));
    expect(r.summary.timeoutReached).to.equal(false);
    expect(r.returnedByDeadline).to.equal(false);
  });

  it("a drain with nothing pending returns by its deadline; without a timeout there is no deadline", async () => {
    expect((await timedDrain(10, () => drain({ timeoutMs: 10 }))).returnedByDeadline).to.equal(true);
    expect((await timedDrain(null, () => drain())).returnedByDeadline).to.equal(null);
  });
});
