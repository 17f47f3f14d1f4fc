/**
 * The directive plugin contract (conformance-adapter §5).
 *
 * A directive is one class, registered with `@directive({ name, at, home })`. What it does is
 * given by the methods it implements:
 * - `configure(value, ctx)` translates the fixture key into setup (a graph part, an observer, an
 *   invocation input). It runs before anything executes.
 * - `check(value, observation, ctx)` is an assertion: it reads what a call produced and reports
 *   mismatches through `ctx`.
 * A directive may implement both (a container such as `expected` configures its children).
 * `schema` is a JSON Schema (ajv) for the value; a violation is `fixture_schema_invalid`.
 */
import type { FixtureLocation } from "./errors.ts";
import type { CaseSpec, Entry } from "./fixture-model.ts";
import type { KeyPath } from "./source.ts";
import type { Observation } from "./observation.ts";
import type { InvocationPlan } from "./invocation-plan.ts";
import type { Retirement } from "./deprecation.ts";

/** JSON Schema for a directive's value (kept loose: ajv checks it). */
export type JsonSchema = Readonly<Record<string, unknown>> | boolean;

/**
 * Where a key sits in a fixture. The core dispatches `document`, `case`, `invocation` and whatever
 * position a container directive asks for (`expected`, `node`, `edge`, `observer`, `invariant`, ...).
 */
export type Position =
  | "document"
  | "case"
  | "subgraph"
  | "invocation"
  | "expected"
  | "resume"
  | "node"
  | "edge"
  | "observer"
  | "invariant"
  | "claim"
  | (string & {});

/** `general` (conformance-adapter §5) or a capability directory whose harness note defines it. */
export type Home = "general" | (string & {});

export interface DirectiveMeta {
  /** The YAML key, or a pattern for families such as `<node>_node_events_count`. */
  readonly name: string | RegExp;
  readonly at: Position | ReadonlyArray<Position>;
  readonly home: Home;
  /** One line for listings and docs. */
  readonly summary?: string;
  /**
   * The spec section(s) the directive exercises, e.g. `conformance-adapter §5.8`. When omitted,
   * listings take the `§` references of the class's doc comment.
   */
  readonly section?: string;
  /**
   * Retired vocabulary (the `legacy` bundle): the seed retires this key and names its replacement.
   * Each use counts as a deprecation; `--strict-vocabulary` refuses it as fixture_directive_unknown.
   */
  readonly retired?: Retirement;
}

export interface Directive {
  readonly schema?: JsonSchema;
}

/** A directive matched to a fixture key. */
export interface Resolved<D extends Directive = Directive> {
  readonly directive: D;
  readonly meta: DirectiveMeta;
  readonly key: string;
  readonly value: unknown;
  readonly path: KeyPath;
  readonly position: Position;
  /** Named groups when the directive's name is a pattern. */
  readonly groups: Readonly<Record<string, string>>;
  /** Keys listed in a sibling `<key>_absent_keys` (§8.4 Absence), if one was written. */
  readonly absentKeys?: ReadonlyArray<string>;
}

export interface ConfigureContext {
  readonly caseSpec: CaseSpec;
  /** The capability directory of the fixture. */
  readonly capability: string;
  /** The invocation plan directives at this point configure (the case's own, or an invocation's). */
  readonly plan: InvocationPlan;
  /** The key being configured. */
  readonly self: Resolved;
  locate(path: KeyPath): FixtureLocation;
  /** Resolve (and schema-check) every key of a mapping at `position`; unknown keys are collected. */
  resolve(position: Position, value: Readonly<Record<string, unknown>>, path: KeyPath): Resolved[];
  /** Run `configure` of resolved directives with another plan (e.g. an invocation's). */
  configureAll(resolved: ReadonlyArray<Resolved>, plan?: InvocationPlan): Promise<void>;
  /** Typed case-wide slots shared by directives of one case (a graph spec, an observer list, ...). */
  slot<T>(key: SlotKey<T>): T;
  /** Declare who runs this case. Exactly one executor per case. */
  setExecutor(executor: CaseExecutor): void;
  /** Create a new invocation plan (for `invocations:` entries, resume blocks, ...). */
  newPlan(name: string | null, path: KeyPath, kind?: string): InvocationPlan;
  /** Declare a capture_as label an `expected:` key in the same scope may assert (§5 Assertion positions). */
  declareLabel(label: string): void;
  /**
   * A retired form inside this directive's value (e.g. an observer `behavior: otel`): counted as a
   * deprecation (true: translate it), or — under `--strict-vocabulary` — refused (false: skip it;
   * the case fails as fixture_directive_unknown, with every other unknown key, once configured).
   */
  retiredForm(form: string, retirement: Retirement, path: KeyPath): boolean;
  /**
   * Run `fn` once every case-level key is configured, before the executor runs: for a directive
   * whose meaning depends on the rest of the case (e.g. `mapping`, which selects the wire mapping of
   * whichever provider the case configures, wherever that is written). Hooks run in the order they
   * were registered; an error they throw (e.g. `fixture_schema_invalid`) fails the case.
   */
  whenConfigured(fn: () => void | Promise<void>): void;
}

export interface Configures<V = unknown> extends Directive {
  configure(value: V, ctx: ConfigureContext): void | Promise<void>;
}

export interface CheckContext {
  /** The assertion's own path, e.g. `expected.final_state` (mismatch paths start here). */
  readonly label: string;
  readonly self: Resolved;
  readonly caseSpec: CaseSpec;
  /** Compare `expected` with `actual` by the §8.4 rules (`shape` describes the position). */
  match(expected: unknown, actual: unknown, shape: unknown, label?: string): void;
  /** Report a mismatch directly. */
  fail(message: string, detail?: { path?: string; expected?: unknown; actual?: unknown }): void;
  locate(path: KeyPath): FixtureLocation;
  /** Check nested resolved directives (invariant blocks, containers) against the same observation. */
  checkAll(resolved: ReadonlyArray<Resolved>, observation: Observation): Promise<void>;
  /** Resolve a mapping's keys at a position (for containers resolved at check time). */
  resolve(position: Position, value: Readonly<Record<string, unknown>>, path: KeyPath): Resolved[];
}

export interface Asserts<V = unknown> extends Directive {
  /**
   * `call`: reads one call's output, so it may not sit in a case-level block of a multi-invocation
   * case (§8.4 What an assertion reads). `any` (default): reads whatever the block's scope holds.
   */
  readonly scope?: "call" | "any";
  check(value: V, observation: Observation, ctx: CheckContext): void | Promise<void>;
}

/** A typed slot in the case context. */
export class SlotKey<T> {
  constructor(readonly name: string, readonly create: () => T) {}
}

/** One invoke() call's record as the executor reports it. */
export interface CallRecord {
  readonly plan: InvocationPlan;
  readonly observation: Observation;
}

export interface RunContext {
  readonly caseSpec: CaseSpec;
  /** The case's own plan (single-invocation form: the call; multi-invocation form: case scope). */
  readonly casePlan: InvocationPlan;
  /** `invocations:` entries in order; empty in the single-invocation form. */
  readonly invocations: ReadonlyArray<InvocationPlan>;
  /** Other plans directives created (resume blocks, ...), in creation order. */
  readonly followUps: ReadonlyArray<InvocationPlan>;
  /** Aborted when the case must stop (time limit): pass it to every call the executor makes. */
  readonly signal: AbortSignal;
  slot<T>(key: SlotKey<T>): T;
  locate(path: KeyPath): FixtureLocation;
  resolve(position: Position, value: Readonly<Record<string, unknown>>, path: KeyPath): Resolved[];
  /** Run configure of resolved directives (for bodies resolved at run time, e.g. subgraphs). */
  configureAll(resolved: ReadonlyArray<Resolved>, plan?: InvocationPlan): Promise<void>;
  /** Throw collected unknown-directive errors now (after resolving late bodies). */
  throwIfUnknown(): void;
}

/** Runs a configured case and reports one record per call it made. */
export interface CaseExecutor {
  readonly name: string;
  run(ctx: RunContext): Promise<CallRecord[]>;
}

export function isConfigures(d: Directive): d is Configures {
  return typeof (d as Partial<Configures>).configure === "function";
}
export function isAsserts(d: Directive): d is Asserts {
  return typeof (d as Partial<Asserts>).check === "function";
}

export type { Entry };
