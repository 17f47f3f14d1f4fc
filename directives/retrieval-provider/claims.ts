/**
 * The §5.15 pre-send-reject invariants and the named claims of the retrieval-provider fixtures
 * (conformance-adapter §5 *Named claims*): each is checked against the real calls — what the
 * provider returned or raised, the requests the mock captured and the bodies it served.
 */
import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { RetrievalCallsFacet } from "../../harness/retrieval/facets.ts";
import { CLAIM_FAMILIES, CLAIMS, type Test } from "./claim-table.ts";

const GENERAL_CLAIMS = new Set(["no_embed_request_issued", "no_rerank_request_issued"]);

function register(name: string | RegExp, test: Test, summary: string): void {
  class NamedClaim {
    readonly schema = { type: "boolean" };
    check(value: boolean, obs: Observation, ctx: CheckContext): void {
      const calls = obs.tryGet(RetrievalCallsFacet) ?? [];
      const why = calls.length === 0 ? "the case made no retrieval provider call" : test(calls[calls.length - 1]!, ctx.self.key);
      if (value && why !== null) ctx.fail(`${ctx.self.key} does not hold: ${why}`);
      if (!value && why === null) ctx.fail(`${ctx.self.key} holds, but the fixture asserts it does not`);
    }
  }
  Object.defineProperty(NamedClaim, "name", { value: `Claim_${typeof name === "string" ? name : name.source}` });
  // §5.15's pre-send-reject invariants are §5 directives (general); the rest are this directory's fixture prose.
  directive({ name, at: "invariant", home: typeof name === "string" && GENERAL_CLAIMS.has(name) ? "general" : "retrieval-provider", summary })(NamedClaim);
}

for (const [name, test] of Object.entries(CLAIMS)) register(name, test, "named claim (fixture prose)");
for (const [pattern, make] of CLAIM_FAMILIES) register(pattern, (c, key) => make(pattern.exec(key)?.groups ?? {})(c, key), "named claim family (fixture prose)");
