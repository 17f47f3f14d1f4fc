/**
 * The directive registry (conformance-adapter §5 *Definition homes*).
 *
 * `@directive({ name, at, home })` registers a class in a tsyringe container under a token per
 * (position, home, name). Lookup for a fixture under capability directory `dir`:
 * - a per-directory definition is recognized only for fixtures under its own directory;
 * - where a general and a per-directory definition share a name, the general one governs: the
 *   per-directory class must refine it (extend its class), and then the refinement is used.
 */
import "reflect-metadata";
import { fileURLToPath } from "node:url";
import { container as rootContainer, Lifecycle, type DependencyContainer } from "tsyringe";
import type { Directive, DirectiveMeta, Home, Position } from "./directive.ts";
import type { Retirement } from "./deprecation.ts";
import type { KeyPath } from "./source.ts";

export type DirectiveClass = new () => object;

interface Registration {
  readonly meta: DirectiveMeta;
  readonly cls: DirectiveClass;
  readonly token: string;
  readonly source: string | undefined;
}

/** One registration as listings see it. */
export interface RegistrationInfo {
  readonly meta: DirectiveMeta;
  readonly className: string;
  /** The file that registered it (absolute path), when the call stack showed it. */
  readonly source: string | undefined;
  /** The JSON Schema the directive validates its value with, if any. */
  readonly schema: unknown;
  /** Which of the contract's methods the class implements (`configure`, `check`, `contribute`). */
  readonly methods: ReadonlyArray<string>;
}

export interface Lookup {
  readonly directive: Directive;
  readonly meta: DirectiveMeta;
  readonly groups: Readonly<Record<string, string>>;
}

/**
 * An older form of a directive's value the corpus still writes (the `legacy` bundle): `rewrite`
 * returns the value in its current form, with where each retired use sits below the key, or
 * undefined when the value does not use the form. The interpreter applies it before the value is
 * validated, counts each use as a deprecation, and under `--strict-vocabulary` refuses the key as
 * fixture_directive_unknown naming the replacement.
 */
export interface LegacyForm {
  /** The position and directive key whose value may use the form. */
  readonly at: Position | ReadonlyArray<Position>;
  readonly key: string;
  /** `general`, or the one capability directory the form is read in. */
  readonly home: Home;
  /** What the deprecation record names, e.g. `fan_out.inner_subgraph`. */
  readonly form: string;
  readonly retirement: Retirement;
  rewrite(value: unknown): { readonly value: unknown; readonly uses: ReadonlyArray<KeyPath> } | undefined;
}

export class DirectiveRegistry {
  private readonly legacy: LegacyForm[] = [];
  private readonly exact = new Map<string, Registration>(); // `${at}\0${home}\0${name}`
  private readonly patterns: Registration[] = [];
  private readonly all: Registration[] = [];

  constructor(readonly container: DependencyContainer = rootContainer.createChildContainer()) {}

  register(meta: DirectiveMeta, cls: DirectiveClass, source?: string): void {
    const positions: ReadonlyArray<Position> = typeof meta.at === "string" ? [meta.at] : meta.at;
    for (const at of positions) {
      const nameKey = typeof meta.name === "string" ? meta.name : `/${meta.name.source}/`;
      const token = `directive:${at}:${meta.home}:${nameKey}`;
      if (this.container.isRegistered(token)) {
        const prev = this.exact.get(key(at, meta.home, nameKey)) ?? this.patterns.find((p) => p.token === token);
        if (prev?.cls === cls) continue;
        throw new Error(`directive '${nameKey}' at '${at}' is registered twice for home '${meta.home}' (${prev?.cls.name} and ${cls.name})`);
      }
      if (meta.home !== "general" && typeof meta.name === "string") {
        const general = this.exact.get(key(at, "general", meta.name));
        if (general && !(cls.prototype instanceof general.cls)) {
          throw new Error(
            `per-directory directive '${meta.name}' (${meta.home}) must refine the general definition: make ${cls.name} extend ${general.cls.name}`,
          );
        }
      }
      this.container.register(token, { useClass: cls }, { lifecycle: Lifecycle.Singleton });
      const reg: Registration = { meta: { ...meta, at }, cls, token, source };
      this.all.push(reg);
      if (typeof meta.name === "string") this.exact.set(key(at, meta.home, meta.name), reg);
      else this.patterns.push(reg);
    }
  }

  /** The directive for `name` at `at` in a fixture under directory `dir`, or undefined. */
  lookup(at: Position, name: string, dir: string): Lookup | undefined {
    const local = this.exact.get(key(at, dir, name));
    const general = this.exact.get(key(at, "general", name));
    const chosen = local ?? general;
    if (chosen) return { directive: this.container.resolve<Directive>(chosen.token), meta: chosen.meta, groups: {} };
    for (const homeWanted of [dir, "general"] as const) {
      for (const p of this.patterns) {
        if (p.meta.at !== at || p.meta.home !== homeWanted) continue;
        const m = (p.meta.name as RegExp).exec(name);
        if (m && m[0] === name) {
          return { directive: this.container.resolve<Directive>(p.token), meta: p.meta, groups: { ...(m.groups ?? {}) } };
        }
      }
    }
    return undefined;
  }

  /** Register an older value form of a directive (see {@link LegacyForm}). */
  registerLegacyForm(form: LegacyForm): void {
    if (!this.legacy.includes(form)) this.legacy.push(form);
  }

  /** The legacy forms that apply to `key` at `at` in a fixture under directory `dir`, in registration order. */
  legacyForms(at: Position, key: string, dir: string): LegacyForm[] {
    return this.legacy.filter((f) => f.key === key && (f.home === "general" || f.home === dir) && (typeof f.at === "string" ? f.at === at : f.at.includes(at)));
  }

  /** The names (and pattern families) recognized at `at` for a fixture under directory `dir`. */
  namesAt(at: Position, dir: string): Array<string | RegExp> {
    return this.all.filter((r) => r.meta.at === at && (r.meta.home === "general" || r.meta.home === dir)).map((r) => r.meta.name);
  }

  /** Every registration (one per position), in registration order, for listings and docs. */
  list(): ReadonlyArray<RegistrationInfo> {
    return this.all.map((r) => {
      const instance = this.container.resolve<Directive>(r.token);
      const methods = ["configure", "check", "contribute"].filter((m) => typeof (instance as Record<string, unknown>)[m] === "function");
      return { meta: r.meta, className: r.cls.name, source: r.source, schema: instance.schema, methods };
    });
  }

  homes(): Set<Home> {
    return new Set(this.all.map((r) => r.meta.home));
  }
}

function key(at: Position, home: Home, name: string): string {
  return `${at}\0${home}\0${name}`;
}

/** The registry the `@directive` decorator writes to; bundles populate it when imported. */
export const defaultRegistry = new DirectiveRegistry();

/** Make a decorator bound to a registry (tests use their own). */
export function directiveDecorator(registry: DirectiveRegistry) {
  return function directive(meta: DirectiveMeta) {
    const source = callerFile();
    return function <C extends DirectiveClass>(cls: C): C {
      registry.register(meta, cls, source);
      return cls;
    };
  };
}

/** The file that called `@directive(...)`: the first stack frame outside this module. */
function callerFile(): string | undefined {
  const here = fileURLToPath(import.meta.url);
  for (const line of (new Error().stack ?? "").split("\n").slice(1)) {
    const m = /\(?((?:file:\/\/)?\/[^()]*?):\d+:\d+\)?\s*$/.exec(line);
    if (m === null) continue;
    const file = m[1]!.startsWith("file://") ? fileURLToPath(m[1]!) : m[1]!;
    if (file !== here) return file;
  }
  return undefined;
}

/** Register a directive class in the default registry. */
export const directive = directiveDecorator(defaultRegistry);

/** Register an older value form in the default registry (the `legacy` bundle). */
export function legacyForm(form: LegacyForm): void {
  defaultRegistry.registerLegacyForm(form);
}
