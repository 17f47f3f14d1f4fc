/**
 * The adapter's directive vocabulary as data: every directive the registry recognizes, with its
 * positions, definition home, the spec section(s) it exercises and the value forms it accepts.
 * `openarmature directives` prints it; docs/vocabulary.md is generated from it.
 */
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import type { DirectiveRegistry, RegistrationInfo } from "./registry.ts";

export interface VocabularyEntry {
  /** The YAML key, or for a pattern family its display form (`<node>_node_events_count`). */
  readonly name: string;
  /** The pattern's source, for a family; null for a plain name. */
  readonly pattern: string | null;
  readonly positions: ReadonlyArray<string>;
  readonly home: string;
  /** Spec section references, e.g. `conformance-adapter §5.8`; empty when none is documented. */
  readonly sections: ReadonlyArray<string>;
  /** The value forms its schema accepts, e.g. `mapping {category?, message?}`. */
  readonly forms: string;
  readonly summary: string;
  /** What the class implements: `configure` (setup), `check` (assertion), `contribute` (node body), joined by ` + `. */
  readonly kind: string;
  readonly className: string;
  /** The defining file, relative to the project root; null when unknown. */
  readonly source: string | null;
}

/** Every directive of the registry, one entry per class and name (positions merged), sorted by home then name. */
export function vocabulary(registry: DirectiveRegistry, projectRoot: string): VocabularyEntry[] {
  const byKey = new Map<string, { info: RegistrationInfo; positions: string[] }>();
  for (const info of registry.list()) {
    const nameKey = typeof info.meta.name === "string" ? info.meta.name : `/${info.meta.name.source}/`;
    const key = `${info.meta.home}\0${nameKey}\0${info.className}\0${info.source ?? ""}`;
    const at = info.meta.at as string;
    const hit = byKey.get(key);
    if (hit) hit.positions.push(at);
    else byKey.set(key, { info, positions: [at] });
  }
  const entries = [...byKey.values()].map(({ info, positions }) => entryOf(info, positions, projectRoot));
  return entries.sort((a, b) => homeOrder(a.home, b.home) || a.name.localeCompare(b.name) || a.positions.join().localeCompare(b.positions.join()));
}

function homeOrder(a: string, b: string): number {
  if (a === b) return 0;
  if (a === "general") return -1;
  if (b === "general") return 1;
  return a.localeCompare(b);
}

function entryOf(info: RegistrationInfo, positions: string[], projectRoot: string): VocabularyEntry {
  const { meta } = info;
  const doc = info.source !== undefined ? docComment(info.source, info.className) : "";
  const defaultDoc = meta.home === "general" ? "conformance-adapter" : meta.home;
  return {
    name: typeof meta.name === "string" ? meta.name : displayPattern(meta.name),
    pattern: typeof meta.name === "string" ? null : meta.name.source,
    positions,
    home: meta.home,
    sections: meta.section !== undefined ? [meta.section] : sectionsOrFallback(sectionRefs(doc, defaultDoc), positions),
    forms: describeSchema(info.schema),
    summary: meta.summary ?? firstSentence(doc),
    kind: info.methods.join(" + ") || "none",
    className: info.className,
    source: info.source !== undefined ? relative(projectRoot, info.source).split("\\").join("/") : null,
  };
}

/** An invariant predicate with no documented section is one of §5.9's (general or fixture-specific). */
function sectionsOrFallback(found: string[], positions: ReadonlyArray<string>): string[] {
  return found.length === 0 && positions.includes("invariant") ? ["conformance-adapter §5.9"] : found;
}

/** `(?<node>.+)_node_events_count` → `<node>_node_events_count`; `invoke(?:_with)?` → `invoke[_with]`. */
export function displayPattern(re: RegExp): string {
  return re.source
    .replace(/\(\?<([A-Za-z_]\w*)>(?:[^()]|\([^()]*\))*\)/g, "<$1>")
    .replace(/\(\?:([^()]*)\)\?/g, "[$1]")
    .replace(/\(\?:([^()]*)\)/g, "($1)")
    .replace(/\\d\+/g, "<n>")
    .replace(/\\/g, "");
}

const fileCache = new Map<string, string>();

/** A directive module's text; for a compiled `.js`, the TypeScript source it came from when present. */
function readSource(file: string): string {
  let text = fileCache.get(file);
  if (text !== undefined) return text;
  const candidates = /\.m?js$/.test(file)
    ? [file.replace(/([/\\])dist([/\\])/, "$1").replace(/\.m?js$/, ".ts"), file.replace(/\.m?js$/, ".ts"), file]
    : [file];
  text = "";
  for (const c of candidates) {
    try {
      text = readFileSync(c, "utf8");
      break;
    } catch {
      /* try the next */
    }
  }
  fileCache.set(file, text);
  return text;
}

/** The `/** ... *\/` block right before `class <name>` (and its decorators) in `file`, as plain text. */
export function docComment(file: string, className: string): string {
  const text = readSource(file);
  // A generated class name (a claim family's pattern) may hold regex syntax: match it literally.
  const name = className.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const decl = new RegExp(`^(?:export\\s+)?(?:abstract\\s+)?class\\s+${name}\\b|^(?:let|var|const)\\s+${name}\\s*=\\s*class\\b`, "m").exec(text);
  if (decl === null) return "";
  const before = text.slice(0, decl.index);
  const end = before.lastIndexOf("*/");
  const start = before.lastIndexOf("/**", end);
  if (end < 0 || start < 0) return "";
  const between = before.slice(end + 2);
  // Only decorators may sit between the comment and the class.
  if (/^\s*(?:@[\s\S]*)?$/.test(between) === false || /\bclass\s|\bfunction\s|^\s*(?:export|const|let)\s/m.test(between)) return "";
  return before
    .slice(start + 3, end)
    .split("\n")
    .map((l) => l.replace(/^\s*\* ?/, ""))
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * The `§` references of a doc comment, each qualified by the last document named before it
 * (`(conformance-adapter §5.5, §6.1)` → `conformance-adapter §5.5`, `conformance-adapter §6.1`);
 * before any document is named, a reference belongs to `defaultDoc`.
 */
export function sectionRefs(doc: string, defaultDoc: string): string[] {
  const out: string[] = [];
  const re = /(?:\b([a-z][a-z0-9]*(?:-[a-z0-9]+)*)\s+)?§\s?(\d+(?:\.\d+)*)/g;
  let current = defaultDoc;
  for (let m = re.exec(doc); m !== null; m = re.exec(doc)) {
    if (m[1] !== undefined && KNOWN_DOCS.has(m[1])) current = m[1];
    const ref = `${current} §${m[2]}`;
    if (!out.includes(ref)) out.push(ref);
  }
  return out;
}

/** The documents a `§` reference may name. */
const KNOWN_DOCS = new Set([
  "conformance-adapter",
  "graph-engine",
  "pipeline-utilities",
  "suspension",
  "sessions",
  "observability",
  "llm-provider",
  "retrieval-provider",
  "prompt-management",
  "harness-chat",
]);

function firstSentence(doc: string): string {
  const s = doc.replace(/`/g, "").split(/(?<=\.)\s/)[0] ?? "";
  return s.length > 140 ? `${s.slice(0, 137)}...` : s;
}

/** A short description of the values a JSON Schema accepts, e.g. `mapping {fields, extra?}`. */
export function describeSchema(schema: unknown, depth = 0): string {
  if (schema === undefined || schema === true || schema === null) return "any";
  if (schema === false) return "nothing";
  if (typeof schema !== "object") return "any";
  const s = schema as Record<string, unknown>;
  const alts = (s.oneOf ?? s.anyOf) as unknown[] | undefined;
  if (Array.isArray(alts) && s.type === undefined) return alts.map((a) => describeSchema(a, depth)).join(" | ");
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (s.const !== undefined) return JSON.stringify(s.const);
  const types = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === "string" ? [s.type] : [];
  if (types.length === 0) return Array.isArray(alts) ? alts.map((a) => describeSchema(a, depth)).join(" | ") : "any";
  return types.map((t) => describeType(t, s, depth)).join(" | ");
}

function describeType(t: string, s: Record<string, unknown>, depth: number): string {
  switch (t) {
    case "object": {
      const props = s.properties as Record<string, unknown> | undefined;
      const required = new Set((s.required as string[] | undefined) ?? []);
      if (props && Object.keys(props).length > 0) {
        const keys = Object.keys(props).map((k) => (required.has(k) ? k : `${k}?`));
        const more = s.additionalProperties === false ? "" : ", ...";
        return `mapping {${keys.join(", ")}${more}}`;
      }
      if (s.additionalProperties !== undefined && s.additionalProperties !== false && s.additionalProperties !== true && depth < 1) {
        return `mapping of name → ${describeSchema(s.additionalProperties, depth + 1)}`;
      }
      return "mapping";
    }
    case "array":
      return s.items !== undefined && depth < 1 ? `list of ${describeSchema(s.items, depth + 1)}` : "list";
    case "integer":
      return typeof s.minimum === "number" ? `integer ≥ ${s.minimum}` : "integer";
    case "number":
      return typeof s.minimum === "number" ? `number ≥ ${s.minimum}` : "number";
    case "string":
      return "string";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    default:
      return t;
  }
}
