/**
 * Errors raised while the case's observers / clients were stood up (conformance-adapter §5.5 /
 * §5.8 `expected_construction_error`). A bundle that constructs an observer or client for the case
 * records what its construction raised here, so the assertion can tell a construction (or
 * first-use) error from one a node raised.
 */
import { Facet } from "../../src/conformance/observation.ts";

/** What standing up the case's observers / clients raised during this call (empty: nothing). */
export const ConstructionErrors = new Facet<readonly Error[]>("observer / client construction errors (§5.8 expected_construction_error)");
