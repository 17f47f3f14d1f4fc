import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { ExpectedError } from "../general/expected-error.ts";

interface Value {
  from_version?: string | null;
  to_version?: string | null;
  raised_at?: "registration";
}

const VERSION = { type: ["string", "null"] };

/**
 * `expected_chain_ambiguity_error: {from_version?, to_version?, raised_at?}` (conformance-adapter
 * 0.120.1 §5.8 position table: beside `expected:` — at the case or an invocation — or inside
 * `resume:`; defined by the pipeline-utilities note, which this snapshot lacks, so its shape is the
 * error's exposed surface pipeline-utilities §10.10 fixes): the call (or the registration before it,
 * with `raised_at: registration`) raised `checkpoint_state_migration_chain_ambiguous` by the §5.8
 * category rule, carrying the offending `(from_version, to_version)` pair — the duplicate-registered
 * pair (§10.12.1) or the endpoints of a chain with several shortest paths (§10.12.2). Either version
 * may be `null` (the spec lets a detection site lack it). It is `expected_error` with that category
 * and those `carries`: one implementation.
 */
@directive({ name: "expected_chain_ambiguity_error", at: ["case", "invocation"], home: "pipeline-utilities", summary: "the migration registry's chain was ambiguous (§10.12)" })
export class ExpectedChainAmbiguityError {
  readonly schema = {
    type: "object",
    additionalProperties: false,
    properties: { from_version: VERSION, to_version: VERSION, raised_at: { enum: ["registration"] } },
  };
  check(value: Value, obs: Observation, ctx: CheckContext): void {
    const carries: Record<string, unknown> = {};
    if (value.from_version !== undefined) carries["from_version"] = value.from_version;
    if (value.to_version !== undefined) carries["to_version"] = value.to_version;
    new ExpectedError().check(
      {
        category: "checkpoint_state_migration_chain_ambiguous",
        ...(value.raised_at !== undefined ? { raised_at: value.raised_at } : {}),
        ...(Object.keys(carries).length > 0 ? { carries } : {}),
      },
      obs,
      ctx,
    );
  }
}
