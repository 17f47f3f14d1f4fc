/**
 * The conformance entry: every discovered fixture case becomes one mocha test named
 * `<capability>/<NNN-name> › <case>`. Roots: $OA_SPEC_ROOTS (':'-separated) or the project's spec/.
 * A capability-gated case the adapter does not meet is a skip with its reason; nothing else is.
 */
import { fileURLToPath } from "node:url";
import { loadConformance } from "../src/conformance/setup.ts";
import { discoverFixtures, resolveRoots } from "../src/conformance/discovery.ts";
import { caseTitle, fixtureErrorResult, prepareFixture, runCaseToResult } from "../src/conformance/run.ts";
import { surveyRoots } from "../src/cli/request.ts";

const projectSpec = fileURLToPath(new URL("../spec", import.meta.url));
const roots = resolveRoots([], process.env.OA_SPEC_ROOTS, projectSpec);
const registry = await loadConformance();

describe("conformance fixtures", function () {
  const discovered = discoverFixtures(roots);
  if (discovered.length === 0) {
    // A root that holds nothing is a mistake to report, not an empty green run.
    it("discovers at least one fixture", () => {
      surveyRoots(roots, process.env.OA_SPEC_ROOTS ? "from $OA_SPEC_ROOTS" : undefined);
      throw new Error(`no *.yaml fixture under ${roots.join(", ")}`);
    });
  }
  for (const prepared of discovered.map(prepareFixture)) {
    const { fixture, cases, error } = prepared;
    if (error !== null) {
      it(caseTitle(fixture.id, null), function () {
        const r = fixtureErrorResult(fixture, error);
        throw new Error(`[${r.category}] ${r.message}`);
      });
      continue;
    }
    for (const spec of cases) {
      it(caseTitle(fixture.id, spec.name), async function () {
        const r = await runCaseToResult(spec, registry);
        if (r.status === "skipped") {
          if (this.test) this.test.title += ` (skipped: ${r.message})`;
          this.skip();
        }
        if (r.status === "failed") throw new Error(`[${r.category}] ${r.message}`);
      });
    }
  }
});
