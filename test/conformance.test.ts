/**
 * The conformance entry: every discovered fixture case becomes one mocha test named
 * `<capability>/<NNN-name> › <case>`. Roots: $OA_SPEC_ROOTS (':'-separated) or the project's spec/.
 * A capability-gated case the adapter does not meet is a skip with its reason; nothing else is.
 * `OA_STRICT_VOCABULARY=1` refuses the retired vocabulary of the legacy bundle (as
 * `conform --strict-vocabulary` does); otherwise each use is named in the case's title and counted
 * at the end of the run.
 */
import { fileURLToPath } from "node:url";
import { loadConformance } from "../src/conformance/setup.ts";
import { discoverFixtures, resolveRoots } from "../src/conformance/discovery.ts";
import { caseTitle, fixtureErrorResult, prepareFixture, runCaseToResult } from "../src/conformance/run.ts";
import { surveyRoots } from "../src/cli/request.ts";
import { strictVocabularyFromEnv } from "../src/conformance/deprecation.ts";
import { formatDeprecations } from "../src/conformance/report.ts";
import type { CaseResult } from "../src/conformance/run.ts";

const projectSpec = fileURLToPath(new URL("../spec", import.meta.url));
const roots = resolveRoots([], process.env.OA_SPEC_ROOTS, projectSpec);
const registry = await loadConformance();
const strictVocabulary = strictVocabularyFromEnv();
const results: CaseResult[] = [];

describe("conformance fixtures", function () {
  after(function () {
    const deprecated = formatDeprecations(results);
    if (deprecated !== "") process.stdout.write(`\n  ${deprecated.split("\n").join("\n  ")}\n`);
  });
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
        const r = await runCaseToResult(spec, registry, { strictVocabulary });
        results.push(r);
        if (r.deprecations.length > 0 && this.test) {
          this.test.title += ` (deprecated: ${r.deprecations.map((d) => `${d.directive} → ${d.replacement}`).join(", ")})`;
        }
        if (r.status === "skipped") {
          if (this.test) this.test.title += ` (skipped: ${r.message})`;
          this.skip();
        }
        if (r.status === "failed") throw new Error(`[${r.category}] ${r.message}`);
      });
    }
  }
});
