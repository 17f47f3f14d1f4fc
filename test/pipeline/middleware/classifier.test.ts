import { expect } from "chai";
import { NodeException, ReducerError } from "../../../src/graph/index.ts";
import {
  CategorizedError,
  chainClassifier,
  defaultClassifier,
  isCancellation,
  isControlSignal,
  isTransientError,
  NON_TRANSIENT_CATEGORIES,
  TRANSIENT_CATEGORIES,
} from "../../../src/pipeline/middleware/index.ts";
import { GraphInterrupt } from "../../../src/graph/index.ts";

const cat = (category: string, message = category, transient?: boolean) =>
  new CategorizedError(category, message, transient === undefined ? {} : { transient });

class BranchFailed extends Error {
  readonly category = "parallel_branches_branch_failed";
  readonly isCarrier = true;
}

describe("pipeline/middleware: default transient classifier (§6.1)", () => {
  it("retries exactly the llm-provider §7 transient categories", () => {
    for (const c of ["provider_unavailable", "provider_rate_limit", "provider_model_not_loaded"]) {
      expect(isTransientError(cat(c)), c).to.equal(true);
      expect(TRANSIENT_CATEGORIES.has(c)).to.equal(true);
    }
    expect([...TRANSIENT_CATEGORIES]).to.have.length(3);
  });

  it("does not retry the non-transient categories, even when marked transient", () => {
    for (const c of [
      "provider_authentication",
      "provider_invalid_model",
      "provider_invalid_request",
      "provider_invalid_response",
      "provider_unsupported_content_block",
      "structured_output_invalid",
      "reducer_error",
      "routing_error",
      "state_validation_error",
      "edge_exception",
      "fan_out_empty",
    ]) {
      expect(isTransientError(cat(c)), c).to.equal(false);
      expect(isTransientError(cat(c, c, true)), `${c} marked transient`).to.equal(false);
      expect(NON_TRANSIENT_CATEGORIES.has(c)).to.equal(true);
    }
  });

  it("honours a carrying spec's transient marking for other categories", () => {
    expect(isTransientError(cat("session_save_failed", "x", true))).to.equal(true);
    expect(isTransientError(cat("session_save_failed"))).to.equal(false);
    expect(isTransientError(Object.assign(new Error("x"), { transient: true }))).to.equal(true);
    expect(isTransientError(Object.assign(new Error("x"), { transient: "yes" }))).to.equal(false);
  });

  it("uncategorized errors and non-errors are not transient", () => {
    expect(isTransientError(new Error("boom"))).to.equal(false);
    expect(isTransientError("provider_unavailable")).to.equal(false);
    expect(isTransientError(undefined)).to.equal(false);
  });

  it("a node_exception carrier is transient when its direct cause is (single level)", () => {
    expect(isTransientError(new NodeException(cat("provider_rate_limit")))).to.equal(true);
    expect(isTransientError(new NodeException(cat("provider_authentication")))).to.equal(false);
    expect(isTransientError(new NodeException(new Error("bare")))).to.equal(false);
    expect(isTransientError(new BranchFailed("b", { cause: cat("provider_unavailable") }))).to.equal(true);
  });

  it("a transient two carriers deep is NOT transient by default — but is under chainClassifier", () => {
    const deep = new NodeException(new NodeException(cat("provider_unavailable")));
    expect(isTransientError(deep)).to.equal(false);
    expect(chainClassifier()(deep, {})).to.equal(true);
    expect(chainClassifier(["provider_invalid_response"])(deep, {})).to.equal(false);
    expect(chainClassifier(["provider_invalid_response"])(new NodeException(new NodeException(cat("provider_invalid_response"))), {})).to.equal(true);
  });

  it("a non-carrier engine error is classified by its own category, not its cause", () => {
    expect(isTransientError(new ReducerError("f", "append", cat("provider_unavailable")))).to.equal(false);
  });

  it("the default classifier ignores state", () => {
    expect(defaultClassifier(cat("provider_unavailable"), { anything: true })).to.equal(true);
    expect(defaultClassifier(cat("provider_invalid_request"), { retry: true })).to.equal(false);
  });

  it("cancellation is never transient, also through carriers", () => {
    const abort = Object.assign(cat("provider_unavailable", "aborted"), { name: "AbortError" });
    const cancelled = Object.assign(new Error("sibling failed"), { name: "CancelledError" });
    const domAbort = new DOMException("aborted", "AbortError");
    for (const e of [abort, cancelled, domAbort, new NodeException(cancelled), Object.assign(new Error("x"), { code: "ABORT_ERR" })]) {
      expect(isCancellation(e)).to.equal(true);
      expect(isTransientError(e)).to.equal(false);
      expect(chainClassifier()(e, {})).to.equal(false);
    }
    expect(isCancellation(new Error("x", { cause: cancelled }))).to.equal(false);
    expect(isControlSignal(new GraphInterrupt({}))).to.equal(true);
    expect(isControlSignal(new Error("x"))).to.equal(false);
  });

  it("CategorizedError validates its category", () => {
    expect(() => new CategorizedError("", "x")).to.throw(TypeError);
    const e = new CategorizedError("provider_unavailable", "down", { cause: new Error("inner"), transient: true });
    expect(e.category).to.equal("provider_unavailable");
    expect(e.transient).to.equal(true);
    expect((e.cause as Error).message).to.equal("inner");
    expect(e).to.be.instanceOf(Error);
  });
});
