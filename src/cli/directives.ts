/**
 * `openarmature directives [--json] [--home NAME]... [--markdown]`: every directive the adapter
 * recognizes — name or pattern, positions, definition home, spec section, value forms — read from
 * the registry the run uses, so the listing cannot drift from what `conform` accepts.
 */
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { loadConformance } from "../conformance/setup.ts";
import { vocabulary, type VocabularyEntry } from "../conformance/vocabulary.ts";
import { countRows, inventory, perCapability, renderVocabularyMarkdown, type Counts } from "./vocabulary-doc.ts";
import type { DirectiveRegistry } from "../conformance/registry.ts";
import { didYouMean, nearest } from "../conformance/suggest.ts";

const PROJECT_ROOT = fileURLToPath(new URL("../..", import.meta.url));

export const DIRECTIVES_USAGE = `usage: openarmature directives [--home NAME]... [--inventory] [--json | --markdown]

  --home NAME   only directives of this definition home: general, or a capability directory
                (repeatable)
  --json        one JSON record per directive: name, pattern, positions, home, sections, forms,
                summary, kind, className, source
  --inventory   the seed §5 inventory instead of the listing: each row's status (implemented /
                partly / not yet), overall and per capability directory (with --json: one record
                per row, and the counts)
  --markdown    the docs/vocabulary.md document (the recognized vocabulary and the seed §5
                inventory)

The plain listing ends with the inventory's counts, overall and per capability directory.`;

export async function directivesCommand(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      options: {
        home: { type: "string", multiple: true, default: [] },
        json: { type: "boolean", default: false },
        markdown: { type: "boolean", default: false },
        inventory: { type: "boolean", default: false },
        help: { type: "boolean", default: false },
      },
      strict: true,
    }).values;
    if (args.json && args.markdown) throw new Error("--json and --markdown are exclusive");
    if (args.inventory && (args.markdown || args.home.length > 0)) throw new Error("--inventory takes neither --markdown nor --home");
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
  if (args.inventory) {
    process.stdout.write(args.json ? `${JSON.stringify(inventoryRecord(registry), null, 2)}\n` : formatInventory(registry));
    return 0;
  }
  const entries = args.home.length > 0 ? all.filter((e) => args.home.includes(e.home)) : all;
  if (args.json) process.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
  else process.stdout.write(formatListing(entries) + (args.home.length > 0 ? "" : `\n${inventorySummary(registry)}`));
  return 0;
}

const counted = (c: Counts): string => `implemented ${c.implemented}, partly ${c.partly}, not yet ${c["not yet"]}`;

/** The inventory's counts: overall, and each capability directory's. */
export function inventorySummary(registry: DirectiveRegistry): string {
  const rows = inventory(registry);
  const lines = [
    `seed §5 inventory (docs/vocabulary.md): ${rows.length} rows — ${counted(countRows(rows))}`,
    ...perCapability(registry).map((c) => `  ${c.capability}: ${c.rows.length} rows — ${counted(c.counts)}`),
  ];
  return `${lines.join("\n")}\n`;
}

/** Plain text: every inventory row with its status, then the counts. */
export function formatInventory(registry: DirectiveRegistry): string {
  const rows = inventory(registry);
  const nameW = Math.min(56, Math.max(...rows.map((r) => r.row.name.length)));
  const out = rows.map((r) => `  §${r.row.section.padEnd(5)} ${r.row.name.padEnd(nameW)}  ${r.status.padEnd(11)}  ${r.note}`.trimEnd());
  return `${out.join("\n")}\n\n${inventorySummary(registry)}`;
}

/** JSON: every row (section, name, positions, home, status, note), the counts, and the per-capability split. */
export function inventoryRecord(registry: DirectiveRegistry): object {
  const rows = inventory(registry);
  return {
    counts: countRows(rows),
    byCapability: Object.fromEntries(perCapability(registry).map((c) => [c.capability, { rows: c.rows.length, ...c.counts }])),
    rows: rows.map((r) => ({ section: r.row.section, name: r.row.name, positions: r.row.at ?? [], home: r.row.home ?? "general", status: r.status, note: r.note })),
  };
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
