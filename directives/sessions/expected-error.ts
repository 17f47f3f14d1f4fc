import { directive } from "../../src/conformance/registry.ts";
import { causeSchema, ExpectedError } from "../general/expected-error.ts";

const base = new ExpectedError().schema;

/**
 * `expected_error:` as the sessions fixtures write it (013): the general definition (its `carries`,
 * §5.13, and `cause`, §5.8) with the sessions note's `cause: {exception_type}` beside
 * `raised_by_mock` — the exception preserved as the categorized error's cause has that type (its
 * `name`, e.g. Python's `KeyError`).
 */
@directive({ name: "expected_error", at: ["case", "invocation", "expected"], home: "sessions", summary: "the case raised this categorized error" })
export class SessionsExpectedError extends ExpectedError {
  override readonly schema = { ...base, properties: { ...base.properties, cause: causeSchema(true) } };
}
