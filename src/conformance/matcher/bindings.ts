/**
 * §5.10 binding tokens: binding environments and the token inventory of expected values.
 *
 * An environment maps each exact token string (e.g. `"<trace_id_parent>"`) to the observed value
 * it is bound to and the expected-side path of the occurrence that bound it.
 */
import { isReservedKey } from "./absence.ts";
import { Shaped, ValueMatcher } from "./expected.ts";
import { parseToken } from "./tokens.ts";
import { TypedValue, isMapping, stableKey } from "./values.ts";

/** A token's bound value and the expected-side path of the occurrence that bound it. */
export interface Binding {
  readonly value: unknown;
  readonly path: string;
}

/** An immutable binding environment (token string → binding). */
export type Env = ReadonlyMap<string, Binding>;

/** The empty environment. */
export const EMPTY_ENV: Env = new Map();

/** A stable key for an environment (order-independent), used for memoization and de-duplication. */
export function envKey(env: Env): string {
  if (env.size === 0) return "";
  return [...env.entries()]
    .map(([t, b]) => `${t}=${stableKey(b.value)}`)
    .sort()
    .join("\u0001");
}

/** `env` restricted to `tokens`. */
export function project(env: Env, tokens: ReadonlySet<string>): Env {
  if (env.size === 0 || tokens.size === 0) return EMPTY_ENV;
  const out = new Map<string, Binding>();
  for (const t of tokens) {
    const b = env.get(t);
    if (b) out.set(t, b);
  }
  return out;
}

/** The bindings of `extended` that `base` does not have. */
export function delta(base: Env, extended: Env): Env {
  if (extended.size === base.size) return EMPTY_ENV;
  const out = new Map<string, Binding>();
  for (const [t, b] of extended) if (!base.has(t)) out.set(t, b);
  return out;
}

/** `env` extended by `more` (whose tokens `env` does not bind). */
export function merge(env: Env, more: Env): Env {
  if (more.size === 0) return env;
  if (env.size === 0) return more;
  const out = new Map(env);
  for (const [t, b] of more) out.set(t, b);
  return out;
}

/** The plain token → value view of an environment. */
export function valuesOf(env: Env): ReadonlyMap<string, unknown> {
  return new Map([...env].map(([t, b]) => [t, b.value]));
}

const NONE: ReadonlySet<string> = new Set();
const objectTokens = new WeakMap<object, ReadonlySet<string>>();
const stringTokens = new Map<string, ReadonlySet<string>>();
const MAX_STRING_CACHE = 10_000;

/**
 * The binding tokens an expected value contains, at any depth. Absence lists are parameter lists
 * and contribute none. A string that looks like encoded JSON is searched too (a JSON-encoded
 * position may hold tokens once decoded); over-approximating is safe.
 */
export function tokensOf(e: unknown): ReadonlySet<string> {
  if (typeof e === "string") return tokensOfString(e);
  if (typeof e !== "object" || e === null) return NONE;
  if (e instanceof ValueMatcher || e instanceof TypedValue || e instanceof Date) return NONE;
  const cached = objectTokens.get(e);
  if (cached) return cached;
  let out: Set<string> | undefined;
  const add = (s: ReadonlySet<string>): void => {
    if (s.size === 0) return;
    out ??= new Set();
    for (const t of s) out.add(t);
  };
  if (e instanceof Shaped) add(tokensOf(e.value));
  else if (Array.isArray(e)) for (const x of e) add(tokensOf(x));
  else if (isMapping(e)) {
    for (const [k, v] of Object.entries(e)) if (!isReservedKey(k)) add(tokensOf(v));
  }
  const result = out ?? NONE;
  objectTokens.set(e, result);
  return result;
}

function tokensOfString(s: string): ReadonlySet<string> {
  const tok = parseToken(s);
  if (tok) return tok.kind === "binding" ? new Set([s]) : NONE;
  if (!s.includes("<")) return NONE;
  const t = s.trimStart()[0];
  if (t !== "{" && t !== "[" && t !== '"') return NONE;
  const cached = stringTokens.get(s);
  if (cached) return cached;
  let result = NONE;
  try {
    result = tokensOf(JSON.parse(s) as unknown);
  } catch {
    result = NONE;
  }
  if (stringTokens.size < MAX_STRING_CACHE) stringTokens.set(s, result);
  return result;
}

/** True when an expected value contains a binding token at any depth. */
export function hasTokens(e: unknown): boolean {
  return tokensOf(e).size > 0;
}
