/**
 * The interpreter: runs one normalized case (conformance-adapter §8.2–§8.4).
 *
 * 1. gate on `requires_capability` (§5.17);
 * 2. resolve every case-level key against the registry (unknown keys are collected and raised
 *    together as `fixture_directive_unknown`), validate each value with ajv, and run `configure`
 *    in document order;
 * 3. hand the configured case to its executor, which makes the real calls;
 * 4. check every assertion against the call(s) its block reads, resolving binding tokens jointly
 *    across the whole case, and raise `assertion_failed` with every mismatch.
 */
import {
  AssertionFailed,
  CapabilitySkip,
  FixtureDirectiveUnknown,
  FixtureSchemaInvalid,
  formatLocation,
  formatPath,
  type FixtureLocation,
} from "./errors.ts";
import {
  isAsserts,
  isConfigures,
  type CallRecord,
  type CaseExecutor,
  type CheckContext,
  type ConfigureContext,
  type Position,
  type Resolved,
  type RunContext,
  type SlotKey,
} from "./directive.ts";
import { isMapping, STRUCTURAL_KEYS, type CaseSpec } from "./fixture-model.ts";
import { InvocationPlan } from "./invocation-plan.ts";
import { Observation } from "./observation.ts";
import type { DirectiveRegistry } from "./registry.ts";
import { validateDirectiveValue } from "./schema-check.ts";
import type { KeyPath } from "./source.ts";
import { unmetCapability, ADAPTER_CAPABILITIES } from "./capabilities.ts";
import { checkOrigin, createCaseMatcher, type CaseMatcher } from "./case-matcher.ts";
import { nearest, patternCandidates } from "./suggest.ts";
import { refusal, type DeprecationUse, type Retirement } from "./deprecation.ts";
import { IMPLEMENTATION_NAME, IMPLEMENTATION_VERSION } from "../observability/attributes.ts";

/**
 * The §5.10 `harness_parameterized` values the adapter injects by default: this implementation's
 * own identity (observability §5.1), which fixture 058 compares span attributes against.
 */
export const HARNESS_PARAMETERS: Readonly<Record<string, unknown>> = Object.freeze({
  implementation_name: IMPLEMENTATION_NAME,
  implementation_version: IMPLEMENTATION_VERSION,
});

/** Case keys the interpreter handles itself. */
export const META_KEYS = new Set(["name", "description", "requires_capability"]);

/** The pseudo-directive name a capture_as label resolves to at an `expected` position. */
export const CAPTURE_LABEL = "<capture_as label>";

export interface RunCaseOptions {
  readonly capabilities?: Readonly<Record<string, boolean>>;
  /** Values for `harness_parameterized` (§5.10). */
  readonly parameters?: Readonly<Record<string, unknown>>;
  /** Aborted when the case must stop (e.g. it ran past its time limit); executors pass it on. */
  readonly signal?: AbortSignal;
  /** Refuse retired vocabulary (the `legacy` bundle) as fixture_directive_unknown naming its replacement. */
  readonly strictVocabulary?: boolean;
  /** Where each use of retired vocabulary is recorded (when not strict). */
  readonly deprecations?: DeprecationUse[];
}

export async function runCase(spec: CaseSpec, registry: DirectiveRegistry, options: RunCaseOptions = {}): Promise<void> {
  const run = new CaseRun(spec, registry, options);
  await run.execute();
}

interface UnknownKey {
  name: string;
  position: string;
  location: FixtureLocation;
  suggestions: string[];
  retired?: string;
}

class CaseRun {
  private readonly slots = new Map<SlotKey<unknown>, unknown>();
  private readonly unknown: UnknownKey[] = [];
  private readonly labels = new Set<string>();
  private readonly plans: InvocationPlan[] = [];
  private executor: CaseExecutor | null = null;
  /** `whenConfigured` hooks; null once they ran (a hook registered later is an adapter defect). */
  private deferred: Array<() => void | Promise<void>> | null = [];
  readonly casePlan: InvocationPlan;
  private readonly matcher: CaseMatcher;

  constructor(
    readonly spec: CaseSpec,
    private readonly registry: DirectiveRegistry,
    private readonly options: RunCaseOptions,
  ) {
    this.casePlan = new InvocationPlan(spec.name, spec.path, "case");
    this.matcher = createCaseMatcher({ ...HARNESS_PARAMETERS, ...options.parameters }, this.locate, this.locate(spec.path));
  }

  locate = (path: KeyPath): FixtureLocation => this.spec.fixture.source.locate(path);

  async execute(): Promise<void> {
    const gate = this.spec.entries.find((e) => e.key === "requires_capability");
    if (gate) {
      const reason = unmetCapability(gate.value, this.locate(gate.path), this.options.capabilities ?? ADAPTER_CAPABILITIES);
      if (reason !== null) throw new CapabilitySkip(reason);
    }
    for (const e of this.spec.entries) {
      if ((e.key === "name" || e.key === "description") && typeof e.value !== "string") {
        throw new FixtureSchemaInvalid(`'${e.key}' must be a string`, this.locate(e.path));
      }
    }
    const caseLevel: Record<string, unknown> = {};
    for (const e of this.spec.entries) if (!META_KEYS.has(e.key)) caseLevel[e.key] = e.value;
    // Entries carry their own paths (shared document keys live at the root), so resolve one by one.
    const resolved: Resolved[] = [];
    for (const e of this.spec.entries) {
      if (META_KEYS.has(e.key)) continue;
      const parentPath = e.path.slice(0, -1);
      resolved.push(...this.resolve("case", { [e.key]: e.value }, parentPath, caseLevel));
    }
    await this.configureAll(resolved, this.casePlan);
    this.throwIfUnknown();
    const deferred = this.deferred ?? [];
    this.deferred = null;
    for (const fn of deferred) await fn();
    if (this.executor === null) {
      throw new FixtureSchemaInvalid(
        "nothing in this case says what to run (no graph, call or other executable block was configured)",
        this.locate(this.spec.path),
      );
    }
    const calls = await this.executor.run(this.runContext());
    await this.checkAssertions(calls);
  }

  private runContext(): RunContext {
    return {
      caseSpec: this.spec,
      casePlan: this.casePlan,
      invocations: this.plans.filter((p) => p.kind === "invocation"),
      followUps: this.plans.filter((p) => p.kind !== "invocation"),
      signal: this.options.signal ?? new AbortController().signal,
      slot: (k) => this.slot(k),
      locate: this.locate,
      resolve: (pos, value, path) => this.resolve(pos, value, path),
      configureAll: (r, plan) => this.configureAll(r, plan),
      throwIfUnknown: () => this.throwIfUnknown(),
    };
  }

  slot<T>(key: SlotKey<T>): T {
    let v = this.slots.get(key as SlotKey<unknown>);
    if (v === undefined) {
      v = key.create();
      this.slots.set(key as SlotKey<unknown>, v);
    }
    return v as T;
  }

  throwIfUnknown(): void {
    if (this.unknown.length > 0) throw new FixtureDirectiveUnknown(this.unknown.splice(0));
  }

  /**
   * Resolve every key of `value` at `position`. `siblings` (default: `value`) is the mapping the
   * keys sit in, used to pair `<key>_absent_keys` with its key.
   */
  resolve(position: Position, value: Readonly<Record<string, unknown>>, path: KeyPath, siblings = value): Resolved[] {
    if (!isMapping(value)) {
      throw new FixtureSchemaInvalid(`expected a mapping of directives at position '${position}'`, this.locate(path));
    }
    const dir = this.spec.fixture.capability;
    const out: Resolved[] = [];
    keys: for (const key of Object.keys(value)) {
      const keyPath = [...path, key];
      let v = value[key];
      // Older forms of the value (the legacy bundle): read through the current form, each use
      // counted; under the strict vocabulary the key is refused (collected as unknown).
      for (const form of this.registry.legacyForms(position, key, dir)) {
        const r = form.rewrite(v);
        if (r === undefined) continue;
        const uses = r.uses.length > 0 ? r.uses : [[]];
        if (!uses.map((sub) => this.retiredUse(form.form, form.retirement, [...keyPath, ...sub], position)).every(Boolean)) {
          // Refused (strict): say so now — the rest of the case may depend on the value it would have had.
          this.throwIfUnknown();
          continue keys;
        }
        v = r.value;
      }
      const hit = this.registry.lookup(position, key, dir);
      if (hit?.meta.retired !== undefined && !this.retiredUse(key, hit.meta.retired, keyPath, position)) continue;
      if (hit) {
        validateDirectiveValue(hit.directive, v, keyPath, this.spec.fixture.source, key);
        const absent = siblings[`${key}_absent_keys`];
        out.push({
          directive: hit.directive,
          meta: hit.meta,
          key,
          value: v,
          path: keyPath,
          position,
          groups: hit.groups,
          ...(absent !== undefined ? { absentKeys: this.absentList(absent, [...path, `${key}_absent_keys`]) } : {}),
        });
        continue;
      }
      if (key.endsWith("_absent_keys")) {
        const stem = key.slice(0, -"_absent_keys".length);
        if (stem in siblings) continue; // consumed by the stem's directive (§8.4 Absence)
      }
      if (position === "expected" && this.labels.has(key)) {
        const label = this.registry.lookup(position, CAPTURE_LABEL, dir);
        if (label) {
          out.push({ directive: label.directive, meta: label.meta, key, value: v, path: keyPath, position, groups: { label: key } });
          continue;
        }
      }
      this.unknown.push({ name: key, position, location: this.locate(keyPath), suggestions: this.suggest(key, position) });
    }
    return out;
  }

  /**
   * A use of retired vocabulary: recorded as a deprecation (true: go on and check it through its
   * replacement), or under the strict vocabulary collected as unknown, naming the replacement (false).
   */
  private retiredUse(name: string, retirement: Retirement, path: KeyPath, position: Position): boolean {
    const location = this.locate(path);
    if (this.options.strictVocabulary === true) {
      this.unknown.push({ name, position, location, suggestions: [], retired: refusal(retirement) });
      return false;
    }
    const at = formatLocation(location);
    // A container may resolve the same key more than once (configure, then check): one use, one record.
    const sink = this.options.deprecations;
    if (sink !== undefined && !sink.some((d) => d.directive === name && d.location === at)) sink.push({ directive: name, ...retirement, location: at });
    return true;
  }

  /** Known names at `position` near a key no directive recognizes (for "did you mean"). */
  private suggest(key: string, position: Position): string[] {
    const candidates = this.registry
      .namesAt(position, this.spec.fixture.capability)
      .flatMap((n) => (typeof n !== "string" ? patternCandidates(key, n) : n === CAPTURE_LABEL ? [] : [n]));
    if (position === "expected") candidates.push(...this.labels);
    if (position === "case") candidates.push(...META_KEYS, ...STRUCTURAL_KEYS); // keys the interpreter and fixture model handle
    return nearest(key, candidates);
  }

  private absentList(value: unknown, path: KeyPath): string[] {
    if (!Array.isArray(value) || value.some((k) => typeof k !== "string")) {
      throw new FixtureSchemaInvalid("an _absent_keys list must be a list of key names", this.locate(path));
    }
    return value as string[];
  }

  async configureAll(resolved: ReadonlyArray<Resolved>, plan: InvocationPlan = this.casePlan): Promise<void> {
    for (const r of resolved) {
      if (isConfigures(r.directive)) await r.directive.configure(r.value, this.configureContext(r, plan));
      if (isAsserts(r.directive)) plan.assertions.push(r);
      if (!isConfigures(r.directive) && !isAsserts(r.directive)) {
        throw new Error(`directive class for '${r.key}' implements neither configure() nor check()`);
      }
    }
  }

  private configureContext(self: Resolved, plan: InvocationPlan): ConfigureContext {
    return {
      caseSpec: this.spec,
      capability: this.spec.fixture.capability,
      plan,
      self,
      locate: this.locate,
      resolve: (pos, value, path) => this.resolve(pos, value, path),
      configureAll: (r, p) => this.configureAll(r, p ?? plan),
      slot: (k) => this.slot(k),
      setExecutor: (e) => {
        if (this.executor !== null && this.executor.name !== e.name) {
          throw new FixtureSchemaInvalid(
            `'${self.key}' needs the '${e.name}' runner but this case is already run by '${this.executor.name}'`,
            this.locate(self.path),
          );
        }
        this.executor = e;
      },
      newPlan: (name, path, kind = "invocation") => {
        const p = new InvocationPlan(name, path, kind);
        this.plans.push(p);
        return p;
      },
      declareLabel: (label) => {
        if (label === "absent_keys" || label.endsWith("_absent_keys")) {
          throw new FixtureSchemaInvalid(`capture_as label '${label}' uses a reserved absence key name`, this.locate(self.path));
        }
        this.labels.add(label);
      },
      retiredForm: (form, retirement, path) => this.retiredUse(form, retirement, path, self.position),
      whenConfigured: (fn) => {
        if (this.deferred === null) throw new Error(`'${self.key}' asked for a whenConfigured hook after the case was configured`);
        this.deferred.push(fn);
      },
    };
  }

  private async checkAssertions(calls: ReadonlyArray<CallRecord>): Promise<void> {
    if ([this.casePlan, ...this.plans].every((p) => p.assertions.length === 0)) {
      throw new FixtureSchemaInvalid("the case asserts nothing: a case needs at least one assertion", this.locate(this.spec.path));
    }
    const multi = this.plans.some((p) => p.kind === "invocation");
    for (const plan of [this.casePlan, ...this.plans]) {
      if (plan.assertions.length === 0) continue;
      const mine = calls.filter((c) => c.plan === plan).map((c) => c.observation);
      if (plan === this.casePlan && multi) {
        for (const a of plan.assertions) {
          if (isAsserts(a.directive) && a.directive.scope === "call") {
            throw new FixtureSchemaInvalid(
              `'${a.key}' reads one call's output, so it cannot sit in the case-level block of a multi-invocation case`,
              this.locate(a.path),
            );
          }
        }
        await this.checkList(plan.assertions, Observation.aggregate(calls.map((c) => c.observation)));
        continue;
      }
      if (mine.length === 0) {
        throw new FixtureSchemaInvalid(
          `the block at ${formatPath(plan.path) || "the case"} has assertions but the run made no call for it`,
          this.locate(plan.path),
        );
      }
      for (const obs of mine) await this.checkList(plan.assertions, obs);
    }
    const mismatches = this.matcher.resolve();
    const first = mismatches[0];
    if (first !== undefined) throw new AssertionFailed(mismatches.map((m) => m.text), first.location);
  }

  private async checkList(assertions: ReadonlyArray<Resolved>, obs: Observation): Promise<void> {
    for (const a of assertions) {
      if (!isAsserts(a.directive)) continue;
      await a.directive.check(a.value, obs, this.checkContext(a));
    }
  }

  private checkContext(self: Resolved): CheckContext {
    const origin = checkOrigin(self.path, this.spec.path);
    const label = origin.label;
    return {
      label,
      self,
      caseSpec: this.spec,
      match: (expected, actual, shape, sub) => this.matcher.check(sub ?? label, expected, actual, shape, origin),
      fail: (message, detail) => this.matcher.fail(detail?.path ?? label, message, origin),
      locate: this.locate,
      checkAll: (resolved, observation) => this.checkList(resolved, observation),
      resolve: (pos, value, path) => {
        const r = this.resolve(pos, value, path);
        this.throwIfUnknown();
        return r;
      },
    };
  }
}
