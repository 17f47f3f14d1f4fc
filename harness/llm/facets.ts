/**
 * What the llm-provider harness records per call (conformance-adapter §5.11–§5.16), as a facet on
 * the call's observation: the real provider's result, every wire request the mock `fetch`
 * captured, the stream events, the retry sleeps, and snapshots proving the caller's inputs were
 * not mutated.
 */
import { Facet } from "../../src/conformance/observation.ts";
import type { Response, StreamEvent } from "../../src/llm/index.ts";

/** One outbound request as the mock received it. */
export interface WireCapture {
  readonly url: string;
  readonly method: string;
  /** Header entries as sent (names lower-cased by `Headers`). */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  /** The body bytes, decoded as UTF-8 (`undefined` for a GET). */
  readonly bodyText: string | undefined;
  /** The parsed body, or `undefined` when absent / not JSON. */
  readonly body: Record<string, unknown> | undefined;
  /** A member name repeated inside one JSON object of the body, if any (§5.16). */
  readonly repeatedMember: string | undefined;
}

export interface LlmCall {
  readonly operation: "complete" | "ready";
  /** The case's `mapping:` (`openai` by default). */
  readonly mapping: string;
  /** The call's index in `calls:` (0 for the single `call:` form). */
  readonly index: number;
  readonly response: Response | undefined;
  /** What the operation raised (`undefined`: it returned). */
  readonly error: unknown;
  readonly requests: ReadonlyArray<WireCapture>;
  /** Whether the provider's requests crossed a captured network edge (false: an in-process provider, e.g. scripted — `requests` is then empty, not observed). */
  readonly wireCaptured: boolean;
  readonly events: ReadonlyArray<StreamEvent>;
  /** Backoff sleeps the call-level retry asked for, in seconds. */
  readonly sleeps: ReadonlyArray<number>;
  /** The caller's messages / config as JSON before the call and after it. */
  readonly messagesBefore: string;
  readonly messagesAfter: string;
  readonly configBefore: string;
  readonly configAfter: string;
  /** The mock responses the call consumed, in order (for `raw_check`). */
  readonly served: ReadonlyArray<ServedResponse>;
  /** The call's inputs as the fixture wrote them. */
  readonly input: Readonly<Record<string, unknown>>;
  /** The spans the call produced when the case traces its calls (`llm_spans`; OTel `ReadableSpan`s). */
  readonly spans?: ReadonlyArray<unknown>;
}

export interface ServedResponse {
  readonly status: number;
  readonly body?: unknown;
  readonly streamBody?: ReadonlyArray<unknown>;
}

export const LlmCallFacet = new Facet<LlmCall>("llm provider call");
/** Every call of the case, in order (the case-level view of a `calls:` list). */
export const LlmCallsFacet = new Facet<ReadonlyArray<LlmCall>>("llm provider calls");
