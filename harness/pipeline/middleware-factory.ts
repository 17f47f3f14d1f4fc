/**
 * Middleware entries of the pipeline-utilities fixtures (`middleware:` blocks, a node's own
 * `middleware:` list), each `{type: ..., ...}`, built into real middleware:
 *
 * - the canonical ones map to the library: `retry` (§6.1), `timing` (§6.2), `failure_isolation`
 *   (§6.3), with the harness seams the note requires (deterministic backoff, the case clock, named
 *   test classifiers, capture of timing records, recording of callable degraded updates). Every
 *   field of the §6.1–§6.3 configuration records is accepted, each callable through a declarative
 *   stand-in: `classifier` (`default`, `category_set` mirroring the default's depth, the named
 *   test seams), `on_retry` / `on_caught` (`{capture_to: <name>}`, read by `callback_records`),
 *   `predicate` (`{matches_category}`), `catch`; an optional mapping-valued field written `null`
 *   means unset (§8.4's null rule);
 * - the fixture-only test middlewares the note (fixture 001's header) defines: `trace_recorder`,
 *   `short_circuit`, `error_recovery`, `error_raiser`, `state_inspector`.
 *
 * Records go to the running call's observation (`call()`), as the facets of `./facets.ts`.
 */
import { FixtureDirectiveUnknown, FixtureSchemaInvalid, type FixtureLocation } from "../../src/conformance/errors.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import type { Middleware, StateRecord } from "../../src/graph/index.ts";
import {
  CategorizedError,
  categoryOf,
  chainClassifier,
  classifyCause,
  constantBackoff,
  defaultClassifier,
  failureIsolation,
  isCancellation,
  isControlSignal,
  retry,
  timing,
  timingForGraph,
  type RetryClassifier,
  type TimingRecord,
} from "../../src/pipeline/middleware/index.ts";
import { isCarrier } from "../../src/internal.ts";
import { valuesEqual } from "../graph/values.ts";
import type { CaseClock, MiddlewareConfig, MiddlewareSite } from "./case-state.ts";
import { CallbackCaptures, DegradedCalls, perCall, TimingCaptures, TraceRecords, type CallbackRecord, type TraceRecord } from "./facets.ts";

/** What building a middleware needs from the case. */
export interface MiddlewareEnv {
  /** The running call's observation. */
  readonly call: () => Observation;
  readonly clock: CaseClock;
  readonly locate: (path: KeyPath) => FixtureLocation;
  /** Declared middleware are recorded here (claims read the configuration). */
  readonly configs: MiddlewareConfig[];
}

export type MiddlewareEntry = Readonly<Record<string, unknown>> & { readonly type: string };

const UPDATE = { type: "object" } as const;
const NAME = { type: "string", minLength: 1 } as const;
/** A callback's declarative stand-in: records what it received under a capture name (or `null`: no callback). */
const CAPTURE = { type: ["object", "null"], required: ["capture_to"], additionalProperties: false, properties: { capture_to: NAME } } as const;

/** Each entry type's keys (`type` included). */
const ENTRY_KEYS: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  retry: {
    max_attempts: { type: "integer", minimum: 1 },
    backoff: {
      type: ["object", "null"],
      required: ["type"],
      additionalProperties: false,
      properties: { type: { enum: ["deterministic"] }, seconds: { type: "number", minimum: 0 } },
    },
    classifier: {
      type: ["object", "null"],
      required: ["type"],
      additionalProperties: false,
      properties: {
        type: { type: "string" },
        categories: { type: "array", items: NAME },
        depth: { enum: ["single_level", "full_chain"] },
      },
    },
    on_retry: CAPTURE,
  },
  timing: {
    node_name: NAME,
    on_complete: { type: "object", required: ["capture_to"], additionalProperties: false, properties: { capture_to: NAME } },
  },
  failure_isolation: {
    degraded_update: UPDATE,
    event_name: NAME,
    predicate: { type: ["object", "null"], required: ["matches_category"], additionalProperties: false, properties: { matches_category: NAME } },
    catch: { type: ["array", "null"], items: NAME },
    on_caught: CAPTURE,
  },
  trace_recorder: { name: NAME, pre_marker: { type: "string" }, post_marker: { type: "string" } },
  short_circuit: { name: NAME, partial_update: UPDATE },
  error_recovery: { name: NAME, partial_update: UPDATE },
  error_raiser: { name: NAME, message: { type: "string" }, category: { type: ["string", "null"] } },
  state_inspector: { name: NAME },
};
const REQUIRED: Readonly<Record<string, readonly string[]>> = {
  timing: ["on_complete"],
  failure_isolation: ["degraded_update", "event_name"],
  short_circuit: ["partial_update"],
  error_recovery: ["partial_update"],
  error_raiser: ["message"],
};

/**
 * JSON Schema of one entry: a `type` discriminator; a known type's keys are checked strictly
 * (an unknown type is reported by {@link buildMiddleware} as `fixture_directive_unknown`).
 */
export const MIDDLEWARE_ENTRY_SCHEMA = {
  type: "object",
  required: ["type"],
  properties: { type: { type: "string", minLength: 1 } },
  allOf: Object.entries(ENTRY_KEYS).map(([t, keys]) => ({
    if: { properties: { type: { const: t } }, required: ["type"] },
    then: { additionalProperties: false, required: [...(REQUIRED[t] ?? [])], properties: { type: true, ...keys } },
  })),
} as const;

/** A snapshot of a (frozen) state or update, safe to keep after the call. */
function snapshot<T>(v: T): T {
  return structuredClone(v);
}

/** The error an `error_raiser` raises (uncategorized unless the entry gives a category). */
export class MiddlewareRaisedError extends Error {
  override name = "MiddlewareRaisedError";
}

function traceList(v: unknown): unknown[] {
  if (v === undefined || v === null) return [];
  return Array.isArray(v) ? v : [v];
}

/** Build one entry (declared at `site`, written at `path`) into a real middleware. */
export function buildMiddleware(entry: MiddlewareEntry, site: MiddlewareSite, env: MiddlewareEnv, path: KeyPath): Middleware {
  const where = (k?: string): FixtureLocation => env.locate(k === undefined ? path : [...path, k]);
  const recordsOf = (recName: string): TraceRecord[] => {
    const byName = perCall(env.call(), TraceRecords, () => new Map());
    let list = byName.get(recName);
    if (!list) byName.set(recName, (list = []));
    return list;
  };
  const made = ((): Middleware => {
    switch (entry.type) {
      case "retry":
        return retryOf(entry, env, where);
      case "timing": {
        const capture = (entry.on_complete as { capture_to: string }).capture_to;
        const onComplete = (r: TimingRecord): void => {
          const byName = perCall(env.call(), TimingCaptures, () => new Map());
          let list = byName.get(capture);
          if (!list) byName.set(capture, (list = []));
          list.push(r);
        };
        const nodeName = entry.node_name as string | undefined;
        return nodeName !== undefined ? timing({ nodeName, onComplete, clock: env.clock.now }) : timingForGraph({ onComplete, clock: env.clock.now });
      }
      case "failure_isolation":
        return failureIsolationOf(entry, env, where);
      case "trace_recorder": {
        const recName = entry.name as string | undefined;
        const pre = entry.pre_marker as string | undefined;
        const post = entry.post_marker as string | undefined;
        return async (state, next) => {
          const rec: TraceRecord = { state_in: snapshot(state), pre_seen: true, post_seen: false };
          if (recName !== undefined) recordsOf(recName).push(rec); // out of band: kept even if next raises
          const inner = (await next(state)) as Record<string, unknown>;
          rec.post_seen = true;
          rec.state_seen_in_post_phase = snapshot(state);
          const out = pre === undefined && post === undefined
            ? inner
            : { ...inner, trace: [...(pre !== undefined ? [pre] : []), ...traceList(inner.trace), ...(post !== undefined ? [post] : [])] };
          rec.partial_update_returned = snapshot(out);
          return out;
        };
      }
      case "short_circuit": {
        const u = entry.partial_update as Record<string, unknown>;
        return () => snapshot(u);
      }
      case "error_recovery": {
        const u = entry.partial_update as Record<string, unknown>;
        return async (state, next) => {
          try {
            return await next(state);
          } catch (e) {
            if (isControlSignal(e)) throw e;
            return snapshot(u);
          }
        };
      }
      case "error_raiser": {
        const message = entry.message as string;
        const category = entry.category as string | null | undefined;
        return () => {
          throw typeof category === "string" && category.length > 0 ? new CategorizedError(category, message) : new MiddlewareRaisedError(message);
        };
      }
      case "state_inspector": {
        const recName = entry.name as string | undefined;
        return async (state, next) => {
          const before = snapshot(state);
          const rec: TraceRecord = { state_in: before, pre_seen: true, post_seen: false };
          if (recName !== undefined) recordsOf(recName).push(rec);
          const out = await next(state);
          rec.post_seen = true;
          rec.state_unchanged = valuesEqual(before, state);
          rec.state_seen_in_post_phase = snapshot(state);
          rec.partial_update_returned = snapshot(out as Record<string, unknown>);
          return out;
        };
      }
      default:
        throw new FixtureDirectiveUnknown([{ name: `middleware type: ${entry.type}`, position: "middleware", location: where("type") }]);
    }
  })();
  env.configs.push({ ...site, type: entry.type, entry });
  return made;
}

interface ClassifierSpec {
  readonly type: string;
  readonly categories?: readonly string[];
  readonly depth?: "single_level" | "full_chain";
}

/**
 * `{type: category_set, categories: [...]}`: the §6.1 default classifier's shape with a caller's
 * category set — retryable when the surface error's category (or, for a graph-engine §4 carrier,
 * its direct cause's) is in the set, single-level like the default; `depth: full_chain` reads the
 * §6.4 derived category instead. Cancellation is never retryable.
 */
function categorySetClassifier(categories: readonly string[], depth: "single_level" | "full_chain"): RetryClassifier {
  if (depth === "full_chain") return chainClassifier(categories);
  const set = new Set(categories);
  return (error) => {
    if (isCancellation(error)) return false;
    const at = isCarrier(error) ? (error as { cause?: unknown }).cause : error;
    if (at === error && isCarrier(error)) return false;
    const category = isCarrier(at) ? null : categoryOf(at);
    return category !== null && set.has(category);
  };
}

/** The record a callback stand-in keeps for `error`: its §6.4 derived category and message. */
function callbackRecord(callback: CallbackRecord["callback"], error: unknown, attemptIndex?: number): CallbackRecord {
  const c = classifyCause(error);
  return { callback, ...(attemptIndex !== undefined ? { attempt_index: attemptIndex } : {}), category: c.category, message: c.message };
}

/** A `{capture_to}` stand-in as a real callback appending to the call's capture list. */
function captureCallback(spec: unknown, env: MiddlewareEnv): ((r: CallbackRecord) => void) | undefined {
  if (spec === undefined || spec === null) return undefined;
  const name = (spec as { capture_to: string }).capture_to;
  return (r) => {
    const byName = perCall(env.call(), CallbackCaptures, () => new Map());
    let list = byName.get(name);
    if (!list) byName.set(name, (list = []));
    list.push(r);
  };
}

/** Named test classifiers (fixture 016): supplied by name, wired by the harness; `null` is the default. */
function classifierOf(c: ClassifierSpec | null | undefined, where: (k?: string) => FixtureLocation): RetryClassifier | undefined {
  if (c === undefined || c === null) return undefined;
  if (c.type !== "category_set" && (c.categories !== undefined || c.depth !== undefined)) {
    throw new FixtureSchemaInvalid(`classifier type '${c.type}' takes no 'categories' / 'depth' (only category_set does)`, where("classifier"));
  }
  switch (c.type) {
    case "default":
      return defaultClassifier;
    case "category_set":
      if (c.categories === undefined) throw new FixtureSchemaInvalid("a category_set classifier needs 'categories'", where("classifier"));
      return categorySetClassifier(c.categories, c.depth ?? "single_level");
    case "state_aware_max_retries_remaining":
      // Retries while state.max_retries_remaining > 0, whatever the error (fixture 016).
      return (_error, state) => Number((state as StateRecord)["max_retries_remaining"] ?? 0) > 0;
    default:
      throw new FixtureDirectiveUnknown([{ name: `classifier type: ${c.type}`, position: "middleware", location: where("classifier") }]);
  }
}

function retryOf(entry: MiddlewareEntry, env: MiddlewareEnv, where: (k?: string) => FixtureLocation): Middleware {
  const backoff = entry.backoff as { type: "deterministic"; seconds?: number } | null | undefined;
  const classifier = classifierOf(entry.classifier as ClassifierSpec | null | undefined, where);
  const capture = captureCallback(entry.on_retry, env);
  return retry({
    ...(entry.max_attempts !== undefined ? { maxAttempts: entry.max_attempts as number } : {}),
    ...(backoff !== undefined && backoff !== null ? { backoff: constantBackoff(backoff.seconds ?? 0) } : {}),
    ...(classifier !== undefined ? { classifier } : {}),
    ...(capture !== undefined ? { onRetry: (error: unknown, attemptIndex: number) => capture(callbackRecord("on_retry", error, attemptIndex)) } : {}),
  });
}

const TEMPLATE_REF = /\{\{\s*state\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** `{callable: state_derived, template, target_field}`: `{<target_field>: <template over state>}`. */
function stateDerived(spec: Record<string, unknown>, where: (k?: string) => FixtureLocation): (state: Readonly<StateRecord>) => Record<string, unknown> {
  const { template, target_field: target, callable: _c, ...rest } = spec;
  const stray = Object.keys(rest)[0];
  if (typeof template !== "string" || typeof target !== "string" || stray !== undefined) {
    throw new FixtureSchemaInvalid(
      stray !== undefined ? `degraded_update callable has an unknown key '${stray}'` : "a state_derived degraded_update needs a string 'template' and 'target_field'",
      where("degraded_update"),
    );
  }
  return (state) => ({ [target]: template.replace(TEMPLATE_REF, (_m, f: string) => String(state[f])) });
}

function failureIsolationOf(entry: MiddlewareEntry, env: MiddlewareEnv, where: (k?: string) => FixtureLocation): Middleware {
  const eventName = entry.event_name as string;
  const written = entry.degraded_update as Record<string, unknown>;
  let degradedUpdate: Record<string, unknown> | ((state: Readonly<StateRecord>) => Record<string, unknown>) = written;
  if (typeof written.callable === "string") {
    if (written.callable !== "state_derived") {
      throw new FixtureDirectiveUnknown([{ name: `degraded_update callable: ${written.callable}`, position: "middleware", location: where("degraded_update") }]);
    }
    const fn = stateDerived(written, where);
    degradedUpdate = (state) => {
      const returned = fn(state);
      perCall(env.call(), DegradedCalls, () => []).push({ eventName, state: snapshot(state), returned: snapshot(returned) });
      return returned;
    };
  }
  const predicate = entry.predicate as { matches_category: string } | null | undefined;
  const capture = captureCallback(entry.on_caught, env);
  return failureIsolation({
    eventName,
    degradedUpdate,
    ...(predicate !== undefined && predicate !== null ? { predicate: (error: unknown) => categoryOf(error) === predicate.matches_category } : {}),
    ...(entry.catch !== undefined && entry.catch !== null ? { catch: entry.catch as string[] } : {}),
    ...(capture !== undefined ? { onCaught: (error: unknown) => capture(callbackRecord("on_caught", error)) } : {}),
  });
}
