/**
 * Builds real engine graphs from a case's graph specification: the state schema from `state`,
 * one engine node per `nodes` entry assembled from its directives, the `edges`, the `entry`, then
 * `compile()`. Subgraph declarations are built once per case, by name, on first use.
 */
import { ConformanceError, FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import {
  END,
  GraphBuilder,
  stateSchema,
  subgraphNode,
  type CompiledGraph,
  type CompileWarning,
  type Middleware,
  type NodeContext,
  type RouteTarget,
  type StateRecord,
  type StateSpec,
  type TypeNode,
} from "../../src/graph/index.ts";
import { collectRecordNames, parseTypeString } from "../../src/internal.ts";
import type { FixtureLocation } from "../../src/conformance/errors.ts";
import { didYouMean, editDistance, nearest } from "../../src/conformance/suggest.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import type { Resolved } from "../../src/conformance/directive.ts";
import type { GraphSpec, EdgeSpec } from "./graph-spec.ts";
import { NodeAssembly, isNodeDirective, type BuildEnv, type NodeStep } from "./node-directive.ts";
import { edgeCondition } from "./edge-conditions.ts";

export interface BuildOptions {
  readonly warnings: CompileWarning[];
  /** Per-graph middleware (outer to inner). */
  readonly middleware?: readonly Middleware[];
  /** Per-node middleware by node name (outer to inner), outside the node's own. */
  readonly nodeMiddleware?: (node: string) => readonly Middleware[];
}

/**
 * The engine state spec for a fixture `state:` block (conformance-adapter §5.2; `schema_version`,
 * pipeline-utilities §10.2). Fixture schemas are open (`extraFields: "allow"`): the fixture format
 * declares no openness, and the corpus is written against open schemas — graph-engine 020 seeds an
 * undeclared `target_node_name` and expects it in `pre_state`; pipeline-utilities 023 names an
 * `item_field` its worker never declares. The engine's own default is closed.
 *
 * User-defined record types (§5.2: a bareword, also as a `list<T>` element or a `dict<K,V>` value)
 * are the fixture's `state.records` entries. A bareword the fixture does not define names a record
 * the engine or a provider writes, whose shape a capability spec defines or leaves to the
 * implementation (`type: record` for a stored EmbeddingResponse, `list<error_entry>` for a
 * collect-mode errors field, §8.4): an open record type here, matched by the keys a fixture names.
 * A bareword one typo away from a type name (`strng`, `lsit`, `str`) is not taken for a record: it
 * is `fixture_schema_invalid` with the suggestion.
 */
export function toStateSpec(value: Readonly<Record<string, unknown>>, at: StateAt): StateSpec {
  const fields: Record<string, Record<string, unknown>> = {};
  for (const [name, raw] of Object.entries((value.fields ?? {}) as Record<string, Record<string, unknown>>)) {
    const { alt_reducer, reducer, ...rest } = raw;
    const f: Record<string, unknown> = { ...rest };
    if (alt_reducer !== undefined) f.reducers = [reducer ?? "last_write_wins", alt_reducer];
    else if (reducer !== undefined) f.reducer = reducer;
    fields[name] = f;
  }
  let records = value.records as StateSpec["records"] | undefined;
  const defined = new Set(Object.keys(records ?? {}));
  const open: string[] = [];
  for (const [name, f] of Object.entries(fields)) {
    if (typeof f["type"] !== "string") continue;
    let node: TypeNode;
    try {
      node = parseTypeString(f["type"]);
    } catch {
      continue; // the engine reports a malformed type string with its own category
    }
    for (const bare of collectRecordNames(node)) {
      if (defined.has(bare) || open.includes(bare)) continue;
      const near = TYPE_NAMES.filter((t) => editDistance(bare, t) <= Math.min(2, t.length - 2) || (bare.length >= 3 && t.startsWith(bare)));
      if (near.length > 0) {
        throw new FixtureSchemaInvalid(`state field '${name}' has type ${JSON.stringify(f["type"])}: '${bare}' is not a type name${didYouMean([...near, ...nearest(bare, defined)])}`, at.locate([...at.path, "fields", name, "type"]));
      }
      open.push(bare);
    }
  }
  if (open.length > 0) records = { ...records, ...Object.fromEntries(open.map((n) => [n, { fields: {} }])) };
  // `type: record` with a null default: a record written later, empty until then.
  for (const f of Object.values(fields)) if (f["type"] === "record" && f["default"] === null) f["nullable"] = true;
  const version = value.schema_version as string | undefined;
  return {
    fields: fields as unknown as StateSpec["fields"],
    extraFields: "allow",
    ...(records ? { records } : {}),
    ...(version !== undefined ? { schemaVersion: version } : {}),
  };
}

/** Where a `state:` block sits (for fixture errors). */
export interface StateAt {
  readonly locate: (path: KeyPath) => FixtureLocation;
  readonly path: KeyPath;
}

/** The §5.2 type names a bareword must not be a typo of. */
const TYPE_NAMES = ["string", "int", "float", "bool", "any", "list", "dict"];

export function buildGraph(spec: GraphSpec, env: BuildEnv, opts: BuildOptions): CompiledGraph {
  const where = (path: KeyPath) => env.locate(path);
  if (spec.state === undefined) throw new FixtureSchemaInvalid(`graph '${spec.name}' has no 'state'`, where(spec.path));
  const schema = stateSchema(toStateSpec(spec.state.value, { locate: where, path: spec.state.path }));
  const fieldNames = env.fieldNames;
  const genv = env;
  const builder = new GraphBuilder(schema);
  for (const node of spec.nodes) addNode(builder, node.name, node.path, node.directives, genv, opts.nodeMiddleware?.(node.name) ?? []);
  for (const edge of spec.edges) addEdge(builder, edge, genv, fieldNames);
  if (spec.entry !== undefined) builder.setEntry(spec.entry.value);
  if (opts.middleware && opts.middleware.length > 0) builder.use(...opts.middleware);
  return builder.compile({ name: spec.name, onWarning: (w) => opts.warnings.push(w), onObserverError: () => {} }) as unknown as CompiledGraph;
}

function addNode(
  builder: GraphBuilder,
  name: string,
  path: KeyPath,
  directives: ReadonlyArray<Resolved>,
  env: BuildEnv,
  outer: readonly Middleware[],
): void {
  const node = new NodeAssembly(name, path);
  node.middleware.push(...outer);
  // How many body steps precede the composite directive, in document order (§8.3).
  let stepsBeforeKind = 0;
  for (const d of directives) {
    if (!isNodeDirective(d.directive)) {
      throw new FixtureSchemaInvalid(`'${d.key}' cannot describe a node`, env.locate(d.path));
    }
    const hadKind = node.kind !== undefined;
    const before = node.steps.length;
    d.directive.contribute(d.value, node, env, d.path);
    if (!hadKind && node.kind !== undefined) stepsBeforeKind = before;
  }
  if (node.kind !== undefined) {
    const kind = node.kind.make(node.projection);
    const middleware = node.steps.length > 0 ? [...node.middleware, aroundComposite(node.steps, stepsBeforeKind, env)] : node.middleware;
    builder.addNode(name, kind, { middleware });
    return;
  }
  const stray = node.projectionKeys[0];
  if (stray) throw new FixtureSchemaInvalid(`'${stray.key}' applies only to a subgraph node`, env.locate(stray.path));
  builder.addNode(name, bodyOf(node.steps, env), { middleware: node.middleware });
}

/**
 * Body directives beside a composite (`subgraph`, `fan_out`, `parallel_branches`) on one node:
 * conformance-adapter §8.3 runs a node's sibling directives in document order, so the steps
 * written before the composite run before it dispatches and the steps written after run once it
 * returned, all inside the node's own execution (its context, metadata scope and span). As in a
 * plain node, every step reads the node's input state and the partial updates merge in document
 * order, the composite's contribution in its place. The innermost middleware: the node's own
 * middleware wraps the whole body, composite included.
 */
function aroundComposite(steps: readonly NodeStep[], before: number, env: BuildEnv): Middleware {
  const pre = steps.slice(0, before);
  const post = steps.slice(before);
  return async (state, next, ctx) => {
    try {
      let update: Record<string, unknown> = {};
      for (const step of pre) {
        const u = await step(state, ctx);
        if (u) update = { ...update, ...u };
      }
      const composite = await next();
      if (composite) update = { ...update, ...(composite as Record<string, unknown>) };
      for (const step of post) {
        const u = await step(state, ctx);
        if (u) update = { ...update, ...u };
      }
      return update;
    } catch (err) {
      if (err instanceof ConformanceError) env.currentCall().defects.push(err);
      throw err;
    }
  };
}

/**
 * A node body from node directives (e.g. a callable branch's `call:` block): body steps only; a
 * directive that makes a composite node or needs a projection is rejected.
 */
export function assembleBody(name: string, path: KeyPath, directives: ReadonlyArray<Resolved>, env: BuildEnv) {
  const node = new NodeAssembly(name, path);
  for (const d of directives) {
    if (!isNodeDirective(d.directive)) throw new FixtureSchemaInvalid(`'${d.key}' cannot describe a node body`, env.locate(d.path));
    d.directive.contribute(d.value, node, env, d.path);
  }
  if (node.kind !== undefined || node.projectionKeys.length > 0 || node.middleware.length > 0) {
    throw new FixtureSchemaInvalid(`'${name}' must hold only body directives (update, raises, ...)`, env.locate(path));
  }
  return bodyOf(node.steps, env);
}

/**
 * Run the steps in document order, merging their partial updates. A fixture defect a step raises
 * (a `ConformanceError`) is also recorded on the call: middleware that catches node errors (failure
 * isolation, a collect-mode fan-out) must not turn it into a passing degraded outcome.
 */
function bodyOf(steps: readonly NodeStep[], env: BuildEnv) {
  const run =
    steps.length === 1
      ? async (state: Readonly<StateRecord>, ctx: NodeContext) => (await (steps[0] as NodeStep)(state, ctx)) ?? {}
      : async (state: Readonly<StateRecord>, ctx: NodeContext) => {
          let update: Record<string, unknown> = {};
          for (const step of steps) {
            const u = await step(state, ctx);
            if (u) update = { ...update, ...u };
          }
          return update;
        };
  return async (state: Readonly<StateRecord>, ctx: NodeContext) => {
    try {
      return await run(state, ctx);
    } catch (err) {
      if (err instanceof ConformanceError) env.currentCall().defects.push(err);
      throw err;
    }
  };
}

function addEdge(builder: GraphBuilder, edge: EdgeSpec, env: BuildEnv, fields: ReadonlySet<string>): void {
  const target = (t: string): RouteTarget => (t === "END" ? END : t);
  if (edge.condition === undefined) {
    builder.addEdge(edge.from, target(edge.to as string));
    return;
  }
  const cond = edgeCondition(edge.condition, [...edge.path, "condition"], env, fields);
  const targets = [...cond.targets, ...(edge.to !== undefined ? [edge.to] : [])].map(target);
  builder.addConditionalEdge(edge.from, cond.fn, targets.length > 0 ? { targets } : {});
}

export { subgraphNode };
