import { directive } from "../../../src/conformance/registry.ts";
import { ResumedCorrelationIdMatchesOriginal } from "./resumed-correlation-id-matches-original.ts";

/** `resumed_run_correlation_id_matches_first` (fixture 031; §10.4 step 3): the resumed run keeps the first run's correlation id. */
@directive({ name: "resumed_run_correlation_id_matches_first", at: "invariant", home: "pipeline-utilities" })
export class ResumedRunCorrelationIdMatchesFirst extends ResumedCorrelationIdMatchesOriginal {}
