import { directive } from "../../src/conformance/registry.ts";
import { ExpectedError } from "./expected-error.ts";

/**
 * `first_run_expected_error: {category, raised_from}` (conformance-adapter §5.6, §5.8), beside
 * `resume:`: the error that ends the first run of a resume case (a failure mock fails and the
 * engine surfaces this category from the named node). Read from the first run's call, with
 * `expected_error`'s sub-keys and the §5.8 category rule.
 */
@directive({ name: "first_run_expected_error", at: "case", home: "general", summary: "the error that ends a resume case's first run" })
export class FirstRunExpectedError extends ExpectedError {}
