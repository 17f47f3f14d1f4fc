/**
 * `openarmature conform [--spec DIR]... [--capability NAME]... [--grep RE] [--json FILE]`
 *
 * Runs conformance fixtures without mocha's CLI: a progress bar on a terminal, failures as they
 * happen, and a per-capability table (passed / failed / skipped / seconds) at the end. Exits 1
 * when any case failed, 2 on a usage error — which includes a command line that selects no
 * fixture (a root without capability folders, an unknown `--capability`, a `--grep` matching
 * nothing) and a `--json` file that cannot be written, all checked before anything runs.
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../conformance/package-root.ts";
import { loadConformance } from "../conformance/setup.ts";
import { discoverFixtures, resolveRoots } from "../conformance/discovery.ts";
import { fixtureErrorResult, prepareFixtureWith, runCaseToResult, caseTitle, type CaseResult } from "../conformance/run.ts";
import { formatCategories, formatDeprecations, formatSummary, writeJsonReport } from "../conformance/report.ts";
import { STRICT_VOCABULARY_ENV, strictVocabularyFromEnv } from "../conformance/deprecation.ts";
import { ADAPTER_VERSION, PACKAGE_VERSION } from "../conformance/version.ts";
import { DEFAULT_MAX_FIXTURE_BYTES } from "../conformance/errors.ts";
import { Progress } from "./progress.ts";
import { escapeForTerminal } from "./terminal.ts";
import { directivesCommand } from "./directives.ts";
import { checkCapabilities, checkSomethingFound, checkWritable, parseCount, surveyRoots, UsageError } from "./request.ts";

const PROJECT_SPEC = join(PACKAGE_ROOT, "spec");
/** `openarmature --help`: the commands users want first, then the conformance tooling. */
const OVERVIEW = `usage: openarmature <command> [options]   (openarmature <command> --help for its options)

  openarmature agent [--form FILE] [model options] PROMPT
                     send one prompt to a model, print the reply
  openarmature chat [--session ID] [--database FILE] [model options]
                     a terminal chat (stdin may be a pipe)
  openarmature serve [--port N] [--host H] [--token T] [--database FILE] [model options]
                     the HTTP harness with a web chat page
  model options      --provider NAME, --base-url URL, --model ID, --script FILE. Without them the
                     provider whose key is set (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY);
                     with no key chat and serve run the offline demo, agent exits 2

  openarmature conform [--spec DIR]... [--capability NAME]... [--grep RE] [--json FILE] ...
                     run conformance fixtures (the project's own spec/ by default)
  openarmature directives [--home NAME]... [--inventory] [--json | --markdown]
                     the fixture directives conform recognizes
  openarmature --version`;

const USAGE = `usage: openarmature conform [--spec DIR]... [--capability NAME]... [--grep RE] [--json FILE] [--max-failures N] [--quiet]
                           [--strict-vocabulary] [--max-fixture-bytes N]

  --spec DIR         a fixture root holding <capability>/conformance/*.yaml (repeatable);
                     default: $OA_SPEC_ROOTS (':'-separated), else the project's own spec/
  --capability NAME  only fixtures of this capability directory (repeatable)
  --grep RE          only fixtures whose id (<capability>/<NNN-name>) matches RE
  --json FILE        write one record per case to FILE
  --max-failures N   print at most N failure details (default 40; the table always prints)
  --quiet            no per-failure details
  --max-fixture-bytes N
                     a fixture file larger than N bytes fails with fixture_too_large before it is
                     read, and the run goes on with the others (default ${DEFAULT_MAX_FIXTURE_BYTES}, 4 MiB)
  --strict-vocabulary
                     refuse the retired 0.109 vocabulary the legacy bundle checks through its
                     replacement (otel_spans, parent_trace, contains_exactly_n_events_of_type,
                     does_not_contain_event_of_type, observer behavior otel) as
                     fixture_directive_unknown naming the replacement; default: $${STRICT_VOCABULARY_ENV}=1.
                     Without it each use is counted as a deprecation in the table and --json

exit status: 0 every case passed or was skipped, 1 a case failed, 2 a usage error (including a
command line that selects no fixture, or a --json file that cannot be written)`;

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "--version" || command === "-v") {
    process.stdout.write(`openarmature ${PACKAGE_VERSION} (conformance-adapter ${ADAPTER_VERSION})\n`);
    return 0;
  }
  if (command === "directives") return directivesCommand(rest);
  // Loaded on demand: the agent command pulls in the provider registry, which conform never needs.
  if (command === "agent") return (await import("./agent.ts")).agentCommand(rest);
  if (command === "chat") return (await import("./chat.ts")).chatCommand(rest);
  if (command === "serve") return (await import("./chat.ts")).serveCommand(rest);
  if (command === "--help" || command === "-h" || command === "help") {
    process.stdout.write(`${OVERVIEW}\n`);
    return 0;
  }
  if (command !== "conform") {
    process.stderr.write(`${command === undefined ? "" : `openarmature: unknown command '${command}'\n`}${OVERVIEW}\n`);
    return 2;
  }
  let args;
  try {
    args = parseArgs({
      args: rest,
      options: {
        spec: { type: "string", multiple: true, default: [] },
        capability: { type: "string", multiple: true, default: [] },
        grep: { type: "string" },
        json: { type: "string" },
        "max-failures": { type: "string", default: "40" },
        quiet: { type: "boolean", default: false },
        "strict-vocabulary": { type: "boolean", default: false },
        "max-fixture-bytes": { type: "string", default: String(DEFAULT_MAX_FIXTURE_BYTES) },
        help: { type: "boolean", default: false },
      },
      strict: true,
    }).values;
  } catch (err) {
    process.stderr.write(`openarmature conform: ${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  let maxFailures: number;
  let maxFixtureBytes: number;
  let grep: RegExp | undefined;
  let roots: string[];
  let fixtures;
  try {
    maxFailures = parseCount("--max-failures", args["max-failures"]);
    maxFixtureBytes = parseCount("--max-fixture-bytes", args["max-fixture-bytes"]);
    if (args.json !== undefined) checkWritable("--json", args.json);
    try {
      grep = args.grep !== undefined ? new RegExp(args.grep) : undefined;
    } catch (err) {
      throw new UsageError(`--grep: ${(err as Error).message}`);
    }
    roots = resolveRoots(args.spec, process.env.OA_SPEC_ROOTS, PROJECT_SPEC);
    const fromEnv = args.spec.length === 0 && (process.env.OA_SPEC_ROOTS ?? "").trim() !== "";
    const known = surveyRoots(roots, fromEnv ? "from $OA_SPEC_ROOTS" : undefined);
    checkCapabilities(args.capability, known, roots);
    const capabilities = args.capability.length > 0 ? args.capability : undefined;
    fixtures = discoverFixtures(roots, { capabilities, grep });
    checkSomethingFound(
      fixtures,
      { roots, capabilities: args.capability, known, grep },
      () => discoverFixtures(roots, { capabilities }).map((f) => f.id),
    );
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`openarmature conform: ${escapeForTerminal(err.message, { multiline: true })}\n(see openarmature conform --help)\n`);
    return 2;
  }
  const strictVocabulary = args["strict-vocabulary"] || strictVocabularyFromEnv();
  const registry = await loadConformance();
  const prepared = fixtures.map((f) => prepareFixtureWith(f, { maxFixtureBytes }));
  const total = prepared.reduce((n, p) => n + Math.max(1, p.cases.length), 0);
  process.stdout.write(`openarmature conform: ${fixtures.length} fixtures, ${total} cases from ${escapeForTerminal(roots.join(", "))}\n`);

  const progress = new Progress(total, process.stderr);
  const results: CaseResult[] = [];
  let shown = 0;
  const report = (r: CaseResult): void => {
    results.push(r);
    progress.tick(r);
    if (r.status === "failed" && !args.quiet && shown < maxFailures) {
      shown++;
      // The title stays on one line; the message keeps its lines. Progress.log escapes the rest.
      const title = escapeForTerminal(caseTitle(r.fixture, r.case));
      progress.log(`✗ ${title}\n    ${(r.message ?? "").trimEnd().split("\n").slice(0, 12).join("\n    ")}\n`);
    }
  };
  for (const p of prepared) {
    if (p.error !== null) {
      report(fixtureErrorResult(p.fixture, p.error));
      continue;
    }
    for (const c of p.cases) report(await runCaseToResult(c, registry, { strictVocabulary }));
  }
  progress.done();
  const failed = results.filter((r) => r.status === "failed").length;
  if (failed > shown && !args.quiet) process.stdout.write(`(${failed - shown} more failures not shown; see --json or --max-failures)\n`);
  // Capability names (folder names), categories and key paths come from the fixtures: escaped too.
  const block = (text: string): string => escapeForTerminal(text, { multiline: true });
  process.stdout.write(`\n${block(formatSummary(results))}\n`);
  if (failed > 0) process.stdout.write(`\nfailures by category:\n${block(formatCategories(results))}\n`);
  const deprecated = formatDeprecations(results);
  if (deprecated !== "") process.stdout.write(`\n${block(deprecated)}\n`);
  if (args.json !== undefined) {
    try {
      writeJsonReport(args.json, results, strictVocabulary);
    } catch (err) {
      process.stderr.write(`openarmature conform: could not write --json '${args.json}': ${(err as Error).message}\n`);
      return 2;
    }
    process.stdout.write(`\nwrote ${results.length} records to ${args.json}\n`);
  }
  return failed > 0 ? 1 : 0;
}
