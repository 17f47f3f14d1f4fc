/** Test helpers for the prompt tests. */

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejection(p: Promise<unknown>): Promise<Error & { category?: string }> {
  try {
    await p;
  } catch (e) {
    return e as Error & { category?: string };
  }
  throw new Error("expected a rejection");
}
