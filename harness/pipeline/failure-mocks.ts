/**
 * Errors the failure mocks raise (conformance-adapter §5.1 *Failure-mock directives*, `cause`):
 * a categorized error is the library's `CategorizedError` (what application code would raise), an
 * uncategorized one a plain `Error` subclass with no `category`; `transient` marks the error for
 * the retry classifier; `cause` chains an originating error through `Error.cause`, recursively.
 */
import { CategorizedError } from "../../src/pipeline/middleware/index.ts";

/** An uncategorized error a failure mock raises (no `category`, optionally marked transient). */
export class FailureMockError extends Error {
  override name = "FailureMockError";
  readonly transient: boolean | undefined;
  constructor(message: string, transient: boolean | undefined, options?: ErrorOptions) {
    super(message, options);
    this.transient = transient;
  }
}

/** The `cause:` mapping (recursive). */
export interface CauseSpec {
  readonly category?: string | null;
  readonly message?: string | null;
  readonly cause?: CauseSpec;
}

/** A `failure_sequence` entry. */
export interface FailureSpec extends CauseSpec {
  readonly transient?: boolean;
}

/** The `cause:` schema, nested up to `depth` links (ajv here shares one instance: no `$id` recursion). */
function causeSchema(depth: number): Record<string, unknown> {
  return {
    type: "object",
    additionalProperties: false,
    properties: {
      category: { type: ["string", "null"] },
      message: { type: ["string", "null"] },
      ...(depth > 1 ? { cause: causeSchema(depth - 1) } : {}),
    },
  };
}

export const CAUSE_SCHEMA = causeSchema(8);

export const FAILURE_ENTRY_SCHEMA = {
  type: "object",
  additionalProperties: false,
  properties: {
    transient: { type: "boolean" },
    category: { type: ["string", "null"] },
    message: { type: ["string", "null"] },
    cause: CAUSE_SCHEMA,
  },
} as const;

/**
 * A mock's failure spec with the mock-level `cause` (§5.1: any failure a flaky* mock raises MAY
 * carry one), for the mocks whose failures are not written entry by entry.
 */
export function withCause(spec: FailureSpec, cause: CauseSpec | undefined): FailureSpec {
  return cause !== undefined ? { ...spec, cause } : spec;
}

/** Build the error (and its cause chain) a failure mock raises. */
export function mockFailure(spec: FailureSpec, fallbackMessage: string): Error {
  const cause = spec.cause !== undefined ? mockFailure(spec.cause, "originating cause") : undefined;
  const message = spec.message ?? fallbackMessage;
  const options = cause !== undefined ? { cause } : undefined;
  if (typeof spec.category === "string" && spec.category.length > 0) {
    return new CategorizedError(spec.category, message, { ...options, ...(spec.transient !== undefined ? { transient: spec.transient } : {}) });
  }
  return new FailureMockError(message, spec.transient, options);
}

/**
 * The success update of a failure mock: a string value naming a declared state field is read from
 * that field; any other value is a literal (§5.1).
 */
export function successUpdate(
  written: Readonly<Record<string, unknown>> | undefined,
  state: Readonly<Record<string, unknown>>,
  fields: ReadonlySet<string>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(written ?? {})) out[k] = typeof v === "string" && fields.has(v) ? state[v] : structuredClone(v);
  return out;
}
