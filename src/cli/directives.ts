/**
 * `openarmature directives [--json] [--home NAME]... [--markdown]`: every directive the adapter
 * recognizes — name or pattern, positions, definition home, spec section, value forms — read from
 * the registry the run uses, so the listing cannot drift from what `conform` accepts.
 */
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { loadConformance } from "../conformance/setup.ts";
import { vocabulary, type VocabularyEntry } from "../conformance/vocabulary.ts";
import { renderVocabularyMarkdown } from "./vocabulary-doc.ts";
import { didYouMean, nearest } from "../conformance/suggest.ts";

const PROJECT_ROOT = fileURLToPath(new URL("../..", import.meta.url));

export const DIRECTIVES_USAGE = `usage: openarmature directives [--home NAME]... [--json | --markdown]

  --home NAME   only directives of this definition home: general, or a capability directory
                (repeatable)
  --json        one JSON record per directive: name, pattern, positions, home, sections, forms,
                summary, kind, className, source
  --markdown    the docs/vocabulary.md document (the recognized vocabulary and the seed §5
                inventory)`;

export async function directivesCommand(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      options: {
        home: { type: "string", multiple: true, default: [] },
        json: { type: "boolean", default: false },
        markdown: { type: "boolean", default: false },
        help: { type: "boolean", default: false },
      },
      strict: true,
    }).values;
    if (args.json && args.markdown) throw new Error("--json and --markdown are exclusive");
  } catch (err) {
    process.stderr.write(`openarmature directives: ${(err as Error).message}\n${DIRECTIVES_USAGE}\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(`${DIRECTIVES_USAGE}\n`);
    return 0;
  }
  const registry = await loadConformance();
  const all = vocabulary(registry, PROJECT_ROOT);
  const homes = [...new Set(all.map((e) => e.home))];
  const unknown = args.home.filter((h) => !homes.includes(h));
  if (unknown.length > 0) {
    const lines = unknown.map((h) => `--home '${h}' is no definition home${didYouMean(nearest(h, homes))}`);
    process.stderr.write(`openarmature directives: ${lines.join("\n")}\n  homes: ${homes.join(", ")}\n`);
    return 2;
  }
  if (args.markdown) {
    if (args.home.length > 0) {
      process.stderr.write("openarmature directives: --markdown renders the whole vocabulary; drop --home\n");
      return 2;
    }
    process.stdout.write(renderVocabularyMarkdown(all, registry));
    return 0;
  }
  const entries = args.home.length > 0 ? all.filter((e) => args.home.includes(e.home)) : all;
  process.stdout.write(args.json ? `${JSON.stringify(entries, null, 2)}\n` : formatListing(entries));
  return 0;
}

/** Plain text: one block per home, one line per directive. */
export function formatListing(entries: ReadonlyArray<VocabularyEntry>): string {
  const out: string[] = [];
  const homes = [...new Set(entries.map((e) => e.home))];
  for (const home of homes) {
    const mine = entries.filter((e) => e.home === home);
    out.push(`${home} (${mine.length} directive${mine.length === 1 ? "" : "s"})`);
    const nameW = Math.min(48, Math.max(...mine.map((e) => e.name.length)));
    const posW = Math.max(...mine.map((e) => e.positions.join(",").length));
    for (const e of mine) {
      const section = e.sections.length > 0 ? e.sections.join(", ") : "(no section documented)";
      out.push(`  ${e.name.padEnd(nameW)}  ${e.positions.join(",").padEnd(posW)}  ${e.forms}  — ${section}`);
    }
    out.push("");
  }
  out.push(`${entries.length} directives in ${homes.length} homes`);
  return `${out.join("\n")}\n`;
}
