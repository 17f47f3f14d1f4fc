/** What a prompt-management call produced, for the assertions to read. */
import { Facet } from "../../src/conformance/observation.ts";

export interface PromptCallRecord {
  /** `fetch`, `render`, `get`, `advance_clock`, `construct_prompt_group`. */
  readonly operation: string;
  /** What the call returned (a Prompt, a PromptResult, a PromptGroup), when it returned. */
  readonly value?: unknown;
  /** What the call raised, when it raised. */
  readonly error?: unknown;
  /** Fetches each declared backend received so far (cumulative), by backend name. */
  readonly backendCalls: Readonly<Record<string, number>>;
}

/** One call's record. */
export const PromptCall = new Facet<PromptCallRecord>("prompt-management call");

export interface PromptCaseRecord {
  /** `capture_as` label → the call's record. */
  readonly captures: ReadonlyMap<string, PromptCallRecord>;
  /** Source reads of each caching backend (conformance-adapter §6.8), by backend name. */
  readonly sourceReads: Readonly<Record<string, number>>;
  readonly backendCalls: Readonly<Record<string, number>>;
  /** Declared backend names, caching or not. */
  readonly caching: ReadonlySet<string>;
}

/** The whole case: captures and backend counters after every call ran. */
export const PromptCase = new Facet<PromptCaseRecord>("prompt-management case");

/** One line saying what a call did, for mismatch messages. */
export function describeCall(r: PromptCallRecord): string {
  if (r.error !== undefined) {
    const e = r.error as { category?: unknown; message?: unknown };
    return `the ${r.operation} raised ${typeof e.category === "string" ? e.category : "an uncategorized error"}: ${String(e.message ?? e)}`;
  }
  return `the ${r.operation} returned without raising`;
}
