import { expect } from "chai";
import {
  constantBackoff,
  exponentialBackoff,
  exponentialJitterBackoff,
  linearBackoff,
  sleepSeconds,
} from "../../../src/pipeline/middleware/index.ts";

describe("pipeline/middleware: backoff (§6.1)", () => {
  it("default: full jitter, uniform(0, min(30, 1 · 2^attempt)) seconds", () => {
    const rolls = [0, 0.5, 0.999, 0.5, 0.5];
    let i = 0;
    const b = exponentialJitterBackoff({ random: () => rolls[i++]! });
    expect([b(0), b(1), b(2), b(5), b(10)]).to.deep.equal([0, 1, 0.999 * 4, 15, 15]);
  });

  it("jitter spans the whole window with the real random source", () => {
    const b = exponentialJitterBackoff();
    const xs = Array.from({ length: 200 }, () => b(3));
    expect(Math.min(...xs)).to.be.at.least(0);
    expect(Math.max(...xs)).to.be.below(8);
    expect(new Set(xs).size).to.be.greaterThan(1);
  });

  it("exponential without jitter, capped; constant; linear", () => {
    const e = exponentialBackoff({ baseSeconds: 0.25, capSeconds: 1 });
    expect([0, 1, 2, 3, 40].map(e)).to.deep.equal([0.25, 0.5, 1, 1, 1]);
    expect([0, 1, 2].map(constantBackoff(2))).to.deep.equal([2, 2, 2]);
    expect([0, 1, 2, 3].map(linearBackoff(0.5, 1.2))).to.deep.equal([0.5, 1, 1.2, 1.2]);
  });

  it("rejects invalid parameters", () => {
    expect(() => constantBackoff(-1)).to.throw(RangeError);
    expect(() => constantBackoff(Number.NaN)).to.throw(RangeError);
    expect(() => exponentialJitterBackoff({ capSeconds: -1 })).to.throw(RangeError);
    expect(() => linearBackoff(1, -1)).to.throw(RangeError);
  });

  it("sleepSeconds resolves after the delay and rejects promptly when aborted", async () => {
    await sleepSeconds(0);
    const c = new AbortController();
    const reason = new Error("stop");
    const p = sleepSeconds(60, c.signal);
    c.abort(reason);
    try {
      await p;
      expect.fail("expected rejection");
    } catch (e) {
      expect(e).to.equal(reason);
    }
    const already = new AbortController();
    already.abort(reason);
    try {
      await sleepSeconds(60, already.signal);
      expect.fail("expected rejection");
    } catch (e) {
      expect(e).to.equal(reason);
    }
  });
});
