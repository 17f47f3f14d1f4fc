/**
 * The fixture model: a parsed fixture normalized into runnable cases (conformance-adapter §4).
 *
 * The three shapes of §4 (single case, `cases:`, `invocations:`, and their combination) and the
 * `graph:` container all normalize to the same `CaseSpec`: an ordered list of case-level entries
 * plus the subgraph declarations in scope, resolved per §5.4 *Subgraph declaration placement*.
 */
import { FixtureSchemaInvalid } from "./errors.ts";
import type { FixtureSource, KeyPath } from "./source.ts";

/** One key of a mapping, with its value and its path in the document. */
export interface Entry {
  readonly key: string;
  readonly value: unknown;
  readonly path: KeyPath;
}

/** A subgraph body declared at one of the §5.4 sites. */
export interface SubgraphDeclaration {
  readonly name: string;
  readonly body: Readonly<Record<string, unknown>>;
  readonly path: KeyPath;
  readonly site: "document" | "case" | "graph";
  readonly form: "subgraph" | "subgraphs";
}

export interface FixtureFile {
  readonly source: FixtureSource;
  /** Capability directory the fixture lives under; decides which per-directory directives apply. */
  readonly capability: string;
  /** `<capability>/<NNN-name>`. */
  readonly id: string;
}

export interface CaseSpec {
  readonly fixture: FixtureFile;
  /** The case's `name:`, or null for the single-case form. */
  readonly name: string | null;
  /** Position in `cases:`, or null for the single-case form. */
  readonly index: number | null;
  /** Path of the case mapping in the document. */
  readonly path: KeyPath;
  /** Case-level entries in document order: shared document keys first, then the case's own. */
  readonly entries: ReadonlyArray<Entry>;
  /** Subgraph declarations in scope, innermost site winning. */
  readonly subgraphs: ReadonlyMap<string, SubgraphDeclaration>;
  /** Declarations an inner site's declaration of the same name overrides (still checked, never run). */
  readonly shadowed: ReadonlyArray<SubgraphDeclaration>;
}

/** Keys the normalizer consumes itself; they are never dispatched as directives. */
export const STRUCTURAL_KEYS = new Set(["cases", "conformance_version", "graph", "subgraph", "subgraphs"]);

export function isMapping(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

export function entriesOf(value: Record<string, unknown>, path: KeyPath): Entry[] {
  return Object.keys(value).map((key) => ({ key, value: value[key], path: [...path, key] }));
}

/** Normalize a parsed fixture into its cases. */
export function normalizeFixture(fixture: FixtureFile): CaseSpec[] {
  const { source } = fixture;
  const doc = source.data;
  if (!isMapping(doc)) {
    throw new FixtureSchemaInvalid("a fixture document must be a mapping", source.locate([]));
  }
  const docDecls = declarationsAt(fixture, doc, [], "document");

  if (!("cases" in doc)) {
    // The single-case form: the document is the one case, so it may carry the graph: container.
    const scope = new Map(docDecls);
    const shadowed: SubgraphDeclaration[] = [];
    const entries = caseEntries(fixture, doc, [], scope, shadowed, new Set(["conformance_version"]));
    return [{ fixture, name: null, index: null, path: [], entries, subgraphs: scope, shadowed }];
  }
  if ("graph" in doc) {
    throw new FixtureSchemaInvalid(
      "'graph' is a case's container (§4.2): in a 'cases:' fixture each case carries its own graph specification; a specification every case shares goes beside 'cases' unwrapped",
      source.locate(["graph"]),
    );
  }
  const shared = entriesOf(doc, []).filter((e) => !STRUCTURAL_KEYS.has(e.key));
  const cases = doc.cases;
  if (!Array.isArray(cases) || cases.length === 0) {
    throw new FixtureSchemaInvalid("'cases' must be a non-empty list of case mappings", source.locate(["cases"]));
  }
  const seen = new Set<string>();
  return cases.map((c, index): CaseSpec => {
    const path: KeyPath = ["cases", index];
    if (!isMapping(c)) throw new FixtureSchemaInvalid("each entry of 'cases' must be a mapping", source.locate(path));
    const name = c.name;
    if (typeof name !== "string" || name === "") {
      throw new FixtureSchemaInvalid("a case needs a non-empty string 'name'", source.locate([...path, "name"]));
    }
    if (seen.has(name)) throw new FixtureSchemaInvalid(`case name '${name}' is used twice`, source.locate([...path, "name"]));
    seen.add(name);

    const scope = new Map(docDecls);
    const shadowed: SubgraphDeclaration[] = [];
    for (const [n, d] of declarationsAt(fixture, c, path, "case")) declare(scope, shadowed, n, d);
    const flattened = caseEntries(fixture, c, path, scope, shadowed, new Set());
    const ownKeys = new Set(flattened.map((e) => e.key));
    const entries = [...shared.filter((e) => !ownKeys.has(e.key)), ...flattened];
    return { fixture, name, index, path, entries, subgraphs: scope, shadowed };
  });
}

/** §4.2: what a `graph:` container holds — the graph specification and nothing else. */
const GRAPH_SPECIFICATION_KEYS = new Set(["state", "entry", "nodes", "edges", "subgraph", "subgraphs"]);

/** Bind `name` in `scope` to an inner site's declaration, keeping the outer one it shadows. */
function declare(scope: Map<string, SubgraphDeclaration>, shadowed: SubgraphDeclaration[], name: string, d: SubgraphDeclaration): void {
  const outer = scope.get(name);
  if (outer !== undefined) shadowed.push(outer);
  scope.set(name, d);
}

/**
 * A case's own entries in document order, its `graph:` container flattened in place (§4.2: the two
 * forms are equivalent); the container's subgraph declarations join `scope` as the innermost site
 * (§5.4). The declaration keys are consumed here; any other key — `consumed` excepted — is an
 * entry the interpreter dispatches (a misplaced `cases:` or `conformance_version:` is then unknown
 * at the case position rather than dropped).
 */
function caseEntries(
  fixture: FixtureFile,
  c: Record<string, unknown>,
  path: KeyPath,
  scope: Map<string, SubgraphDeclaration>,
  shadowed: SubgraphDeclaration[],
  consumed: ReadonlySet<string>,
): Entry[] {
  const { source } = fixture;
  const out: Entry[] = [];
  for (const e of entriesOf(c, path)) {
    if (e.key === "subgraph" || e.key === "subgraphs" || consumed.has(e.key)) continue;
    if (e.key !== "graph") {
      out.push(e);
      continue;
    }
    const graph = e.value;
    if (!isMapping(graph)) throw new FixtureSchemaInvalid("'graph' must be a mapping holding the graph specification", source.locate(e.path));
    for (const g of entriesOf(graph, e.path)) {
      if (!GRAPH_SPECIFICATION_KEYS.has(g.key)) {
        throw new FixtureSchemaInvalid(
          `'${g.key}' cannot sit inside 'graph', which holds the graph specification and nothing else (state, entry, nodes, edges, subgraph declarations; §4.2): make it a sibling of 'graph'`,
          source.locate(g.path),
        );
      }
      if (g.key === "subgraph" || g.key === "subgraphs") continue;
      if (g.key in c) throw new FixtureSchemaInvalid(`'${g.key}' is given both inside 'graph' and beside it`, source.locate(g.path));
      out.push(g);
    }
    for (const [n, d] of declarationsAt(fixture, graph, e.path, "graph")) declare(scope, shadowed, n, d);
  }
  return out;
}

/**
 * The declarations at one site. `subgraphs:` beats `subgraph:` for the same name at one site,
 * since it names the binding explicitly (§5.4).
 */
export function declarationsAt(
  fixture: FixtureFile,
  site: Record<string, unknown>,
  path: KeyPath,
  siteName: SubgraphDeclaration["site"],
): Map<string, SubgraphDeclaration> {
  const out = new Map<string, SubgraphDeclaration>();
  const single = site.subgraph;
  if (single !== undefined) {
    const p = [...path, "subgraph"];
    if (!isMapping(single)) throw new FixtureSchemaInvalid("a 'subgraph' declaration must be a mapping with a 'name'", fixture.source.locate(p));
    if (typeof single.name !== "string" || single.name === "") {
      throw new FixtureSchemaInvalid("a 'subgraph' declaration needs a non-empty string 'name'", fixture.source.locate(p));
    }
    const { name: _name, ...body } = single;
    out.set(single.name, { name: single.name, body, path: p, site: siteName, form: "subgraph" });
  }
  const many = site.subgraphs;
  if (many !== undefined) {
    const p = [...path, "subgraphs"];
    if (!isMapping(many)) throw new FixtureSchemaInvalid("'subgraphs' must be a mapping of name to subgraph body", fixture.source.locate(p));
    for (const [name, body] of Object.entries(many)) {
      if (!isMapping(body)) throw new FixtureSchemaInvalid(`subgraph '${name}' must be a mapping`, fixture.source.locate([...p, name]));
      out.set(name, { name, body, path: [...p, name], site: siteName, form: "subgraphs" });
    }
  }
  return out;
}
