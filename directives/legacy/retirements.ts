/**
 * The `legacy` bundle (issue 14): the 0.109 corpus vocabulary conformance-adapter 0.120.1 retires
 * or rules out, each checked through its replacement. Every directive here carries `retired` in its
 * registration: a use is counted as a deprecation in the run summary (the table's `deprecated`
 * column, `--json`, the mocha titles) and `--strict-vocabulary` refuses it as
 * fixture_directive_unknown naming the replacement (src/conformance/deprecation.ts).
 *
 * This file holds the retirements (what the seed says, what replaces each) and the one retired
 * form that is not a key of its own: OTel emission written as an observer behavior.
 */
import { SlotKey, type ConfigureContext } from "../../src/conformance/directive.ts";
import type { Retirement } from "../../src/conformance/deprecation.ts";
import type { KeyPath } from "../../src/conformance/source.ts";

/** conformance-adapter 0.120.1 §5.5: "They replace contains_exactly_n_events_of_type and does_not_contain_event_of_type, which are retired." */
export const EVENT_COUNT_RETIREMENT = (replacement: string): Retirement => ({ replacement, section: "conformance-adapter 0.120.1 §5.5" });

/** conformance-adapter 0.120.1 §5.8: "otel_spans and observability's parent_trace are retired. span_tree covers both." */
export const SPAN_TREE_RETIREMENT = (replacement: string): Retirement => ({ replacement, section: "conformance-adapter 0.120.1 §5.8" });

/**
 * conformance-adapter 0.120.1 §5.5: "OTel and Langfuse emission are NOT observer behaviors" — the
 * adapter composes the in-memory OTel capture as a harness primitive (§6.3) when a span assertion
 * is written.
 */
export const OTEL_BEHAVIOR_RETIREMENT: Retirement = {
  replacement: "no observer (span_tree / traces compose the §6.3 OTel capture themselves)",
  section: "conformance-adapter 0.120.1 §5.5",
};

/**
 * `type: str` (sessions fixtures 004, 006, 010, 011): no spec version defines it — §5.2's primitives
 * are `string`, `int`, `float`, `bool`, `any`, and a bareword is a record type the fixture defines.
 * Decided once for every directory: read as `string`, counted as a deprecation, refused under
 * `--strict-vocabulary`.
 */
export const STR_TYPE_RETIREMENT: Retirement = {
  replacement: "string",
  section: "conformance-adapter 0.120.1 §5.2 (primitives: string, int, float, bool, any)",
  neverDefined: true,
};

const STR = /(^|[<,\s])str(?=$|[>,\s])/g;

/**
 * A `state:` value with every `str` in a field's type string (`str`, `list<str>`, `dict<str,int>`,
 * in `fields` and in each `records.<name>.fields`) read as `string`, each use reported through
 * {@link STR_TYPE_RETIREMENT} (strict: refused — the case then fails as fixture_directive_unknown).
 */
export function legacyStringTypes(value: Record<string, unknown>, path: KeyPath, ctx: ConfigureContext): Record<string, unknown> {
  const rewrite = (fields: unknown, at: KeyPath): unknown => {
    if (fields === null || typeof fields !== "object") return fields;
    const out: Record<string, unknown> = {};
    for (const [name, f] of Object.entries(fields as Record<string, unknown>)) {
      const type = (f as { type?: unknown } | null)?.type;
      if (typeof type === "string" && new RegExp(STR.source).test(type)) {
        ctx.retiredForm("type: str", STR_TYPE_RETIREMENT, [...at, name, "type"]);
        out[name] = { ...(f as object), type: type.replace(STR, "$1string") };
      } else out[name] = f;
    }
    return out;
  };
  const records = value.records as Record<string, { fields?: unknown }> | undefined;
  return {
    ...value,
    fields: rewrite(value.fields, [...path, "fields"]),
    ...(records !== undefined && records !== null && typeof records === "object"
      ? { records: Object.fromEntries(Object.entries(records).map(([r, def]) => [r, def !== null && typeof def === "object" && "fields" in def ? { ...def, fields: rewrite(def.fields, [...path, "records", r, "fields"]) } : def])) }
      : {}),
  };
}

/** The names of the case's `observers:` entries written with the retired `behavior: otel`. */
export const LegacyOtelObservers = new SlotKey<Set<string>>("legacy OTel observers (behavior: otel)", () => new Set());

/**
 * An `observers:` entry `{name, behavior: otel}`: counted (or, strict, refused), then translated to
 * its replacement — the §6.3 OTel capture composed into the case's calls, under that observer name
 * for `otel_spans`. The capture is imported here, on use, so the general `observers` directive
 * does not need the optional OTel peer to load.
 */
export async function configureOtelObserverBehavior(name: string, path: KeyPath, ctx: ConfigureContext): Promise<void> {
  if (!ctx.retiredForm("observers[].behavior: otel", OTEL_BEHAVIOR_RETIREMENT, [...path, "behavior"])) return;
  ctx.slot(LegacyOtelObservers).add(name);
  const { useOtelCapture } = await import("../../harness/observability/capture.ts");
  useOtelCapture(ctx);
}
