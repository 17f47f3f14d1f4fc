import { directive } from "../../../src/conformance/registry.ts";
import { FirstAndResumedInvocationIdsDiffer } from "./first-and-resumed-invocation-ids-differ.ts";

/** `resumed_invocation_id_differs_from_original` (fixture 025; §10.4 step 4): the resumed run has its own invocation id. */
@directive({ name: "resumed_invocation_id_differs_from_original", at: "invariant", home: "pipeline-utilities" })
export class ResumedInvocationIdDiffersFromOriginal extends FirstAndResumedInvocationIdsDiffer {}
