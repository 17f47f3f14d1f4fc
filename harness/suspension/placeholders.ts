/**
 * Input placeholders for `resume_invocation` (conformance-adapter §5.7, §6.5): a value written
 * `<...>` refers to an earlier call's outcome and is resolved — from that outcome's
 * `invocation_id`, never from the caller's inputs — before the call is made.
 *
 * The placeholder text is read for three things, each optional: the name of an earlier
 * invocation (`<from tx_initial_suspends suspended outcome>`), the outcome kind it must have
 * (`suspended`, `completed`, `errored`), and otherwise "previous" — the most recent earlier call
 * that matches. So `<from previous suspended outcome>` is the latest earlier suspended call, and
 * `<invocation_id from initial completed invoke>` the latest earlier completed one. A literal
 * (no angle brackets) is used verbatim. No match is `fixture_schema_invalid`.
 */
import { FixtureSchemaInvalid, type FixtureLocation } from "../../src/conformance/errors.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import * as F from "../graph/facets.ts";

const KINDS = ["suspended", "completed", "errored"] as const;

/** Is `raw` a placeholder (rather than a literal id)? */
export function isPlaceholder(raw: string): boolean {
  return raw.startsWith("<") && raw.endsWith(">");
}

/** Resolve `raw` against the earlier calls of the case (see the module comment). */
export function resolveInvocationPlaceholder(raw: string, previous: readonly Observation[], where: FixtureLocation): string {
  if (!isPlaceholder(raw)) return raw;
  const text = raw.slice(1, -1);
  const words = new Set(text.split(/[^A-Za-z0-9_-]+/).filter((w) => w.length > 0));
  const kind = KINDS.find((k) => words.has(k));
  const named = previous.filter((o) => o.label !== null && words.has(o.label));
  const pool = named.length > 0 ? named : previous;
  for (let i = pool.length - 1; i >= 0; i--) {
    const o = pool[i]!;
    const r = o.tryGet(F.Result);
    if (r === undefined) continue;
    if (kind !== undefined && r.kind !== kind) continue;
    const id = o.tryGet(F.InvocationId);
    if (typeof id === "string") return id;
  }
  throw new FixtureSchemaInvalid(
    `cannot resolve '${raw}': no earlier call${named.length > 0 ? ` named ${named.map((o) => o.label).join(", ")}` : ""}${kind ? ` with a ${kind} outcome` : ""} produced an invocation id`,
    where,
  );
}
