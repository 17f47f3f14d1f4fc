/** Test helpers for the prompt tests. */
import { expect } from "chai";
import { TemplateFailure } from "../../src/prompts/index.ts";

/** The TemplateFailure `fn` throws (fails the test when it returns or throws anything else). */
export function failure(fn: () => unknown): TemplateFailure {
  try {
    fn();
  } catch (e) {
    expect(e).to.be.instanceOf(TemplateFailure);
    return e as TemplateFailure;
  }
  throw new Error("expected a TemplateFailure");
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejection(p: Promise<unknown>): Promise<Error & { category?: string }> {
  try {
    await p;
  } catch (e) {
    return e as Error & { category?: string };
  }
  throw new Error("expected a rejection");
}
