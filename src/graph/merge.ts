/**
 * Merging a node's partial update into state (graph-engine §2 *Reducers*, §4 `reducer_error` /
 * `state_validation_error`): each written field goes through the graph's effective reducer, then
 * every changed field is validated against the schema. One implementation serves the execution
 * loop and the public {@link CompiledGraph.mergeUpdate}.
 */
import { NodeException, ReducerError, StateValidationError, type ValidationIssue } from "./errors.ts";
import { deepFreeze, deepFreezeElements, freezeShallow } from "./freeze.ts";
import type { GraphRuntime } from "./internals.ts";
import type { Locator } from "./routing.ts";
import { append, lastWriteWins, reducerNameOf } from "./reducers.ts";
import type { StateRecord } from "./state-types.ts";

type State = Readonly<StateRecord>;

function describeValue(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "object") {
    const name = (Object.getPrototypeOf(v) as { constructor?: { name?: unknown } } | null)?.constructor?.name;
    return typeof name === "string" && name !== "" ? `a ${name}` : "a non-plain object";
  }
  return typeof v;
}

/** A plain object (`{...}` or `Object.create(null)`): the only update shape whose own keys are its fields. */
function isPlainObject(v: object): boolean {
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * @internal Merge `update` (what node `nodeName` returned) into `prior`. Returns `prior` itself when
 * nothing was written. Throws — unowned — `node_exception` for an update that is not a plain object
 * (a list, a scalar, a `Map`, a class instance), `reducer_error`
 * when a reducer raises, `state_validation_error` when a merged field fails its type; `where` locates
 * the error (asked only on failure). `built`: `prior` is a state the schema built (the engine's own
 * states, not a caller's object), so the schema's generated copier may copy it (state-copy.ts).
 */
export function mergeInto(
  rt: Pick<GraphRuntime, "schema" | "reducers">,
  prior: State,
  update: unknown,
  nodeName: string,
  where: Locator,
  built = false,
): State {
  if (update === undefined || update === null) return prior;
  // A Map or class instance would read as an empty update (its entries are not own keys): refuse it.
  if (typeof update !== "object" || Array.isArray(update) || !isPlainObject(update)) {
    throw new NodeException(
      new TypeError(`node "${nodeName}" returned ${describeValue(update)}; a node must return a plain object of field updates`),
      where.locate(prior),
    );
  }
  const u = update as Record<string, unknown>;
  const schema = rt.schema;
  let next: Record<string, unknown> | undefined;
  let issues: ValidationIssue[] | undefined;
  for (const key in u) {
    if (!Object.prototype.hasOwnProperty.call(u, key)) continue;
    const value = u[key];
    if (value === undefined) continue;
    const reducer = rt.reducers.get(key) ?? lastWriteWins;
    let merged: unknown;
    // `append` keeps the update's elements, not its list (it copies them into a new list, or returns
    // the update itself, frozen below, when the prior is empty): freeze the elements only.
    if (reducer === append && Array.isArray(value)) deepFreezeElements(value);
    else deepFreeze(value);
    if (reducer === lastWriteWins) merged = value;
    else {
      try {
        merged = (reducer as (p: unknown, u: unknown) => unknown)(prior[key], value);
      } catch (cause) {
        throw new ReducerError(key, reducerNameOf(reducer), cause, where.locate(prior));
      }
      freezeShallow(merged);
    }
    if (next === undefined) next = built ? schema.copyState(prior) : { ...prior };
    next[key] = merged;
    // `append` concatenates two lists and a list type constrains only its elements, so with the
    // prior value valid (every state is), the merged list is valid exactly when the appended part
    // is: validate the update, not the whole (ever longer) list — and report an invalid part
    // against the merged list, so issue paths index it.
    let is = schema.validateField(key, reducer === append ? value : merged);
    if (is.length && reducer === append) is = schema.validateField(key, merged);
    if (is.length) (issues ??= []).push(...is);
  }
  if (next === undefined) return prior;
  Object.freeze(next);
  if (issues) {
    throw new StateValidationError(issues, { ...where.locate(prior), invalidState: next, boundary: `merge of node "${nodeName}"` });
  }
  return next;
}
