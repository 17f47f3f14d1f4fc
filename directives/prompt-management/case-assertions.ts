/**
 * Case-level prompt-management assertions: `capture_as` labels and the comparisons under the case's
 * `expected:` (`result_equivalence`, `rendered_hash_equal` / `_different`), and the blocks beside it
 * (`expected_backend_state` of conformance-adapter §6.8, `expected_shared_prefix` /
 * `expected_message_equal` of the directory's note, fixture 032).
 */
import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import { CAPTURE_LABEL } from "../../src/conformance/interpreter.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { canonicalJson } from "../../src/prompts/index.ts";
import { capturedValue, caseRecord, matchPromptRecord } from "../../harness/prompts/reading.ts";

const HOME = "prompt-management";

/** `<label>: {...}` under the case's `expected:` — the captured Prompt / PromptResult, by named keys. */
@directive({ name: CAPTURE_LABEL, at: "expected", home: HOME, summary: "what the call captured under this label returned" })
export class CapturedAssertion {
  readonly schema = { type: "object", minProperties: 1 };
  check(value: Record<string, unknown>, obs: Observation, ctx: CheckContext): void {
    const v = capturedValue(caseRecord(obs, ctx), ctx.self.key, ctx);
    if (v !== undefined) matchPromptRecord(value, v, ctx);
  }
}

const same = (a: unknown, b: unknown): boolean => canonicalJson(a) === canonicalJson(b);

function field(v: unknown, f: string): unknown {
  const x = typeof v === "object" && v !== null ? (v as Record<string, unknown>)[f] : undefined;
  return x instanceof Date ? x.toISOString() : x;
}

/** The PromptResult fields a comparison may name (§4). */
const RESULT_FIELDS = new Set([
  "name", "version", "label", "template_hash", "rendered_hash", "messages", "variables",
  "fetched_at", "rendered_at", "sampling", "token_budget", "observability_entities",
]);

/**
 * `result_equivalence: {of: [<label>, ...], fields_must_match: [...], fields_may_differ: [...]}` —
 * every listed result agrees on each must-match field (byte-identical canonical JSON). The may-differ
 * fields are exempt and asserted nothing about; a field in both lists is a fixture error.
 */
@directive({ name: "result_equivalence", at: "expected", home: HOME, summary: "captured results agree on the named fields" })
export class ResultEquivalence {
  readonly schema = {
    type: "object",
    required: ["of", "fields_must_match"],
    additionalProperties: false,
    properties: {
      of: { type: "array", minItems: 2, items: { type: "string" } },
      fields_must_match: { type: "array", minItems: 1, items: { type: "string" } },
      fields_may_differ: { type: "array", items: { type: "string" } },
    },
  };
  check(value: { of: string[]; fields_must_match: string[]; fields_may_differ?: string[] }, obs: Observation, ctx: CheckContext): void {
    for (const f of [...value.fields_must_match, ...(value.fields_may_differ ?? [])]) {
      if (!RESULT_FIELDS.has(f)) throw new FixtureSchemaInvalid(`'${f}' is not a PromptResult field`, ctx.locate(ctx.self.path));
      if (value.fields_must_match.includes(f) && value.fields_may_differ?.includes(f)) {
        throw new FixtureSchemaInvalid(`'${f}' is listed both as must-match and may-differ`, ctx.locate(ctx.self.path));
      }
    }
    const rec = caseRecord(obs, ctx);
    const values = value.of.map((l) => capturedValue(rec, l, ctx, `${ctx.label}.of`));
    if (values.some((v) => v === undefined)) return;
    const [first, ...rest] = values;
    for (const f of value.fields_must_match) {
      for (const [i, other] of rest.entries()) {
        if (field(first, f) === undefined) {
          ctx.fail(`'${value.of[0]}' has no field '${f}'`, { path: `${ctx.label}.${f}` });
        } else if (!same(field(first, f), field(other, f))) {
          ctx.fail(`'${value.of[0]}' and '${value.of[i + 1]}' differ on '${f}'`, { path: `${ctx.label}.${f}`, expected: field(first, f), actual: field(other, f) });
        }
      }
    }
  }
}

abstract class HashPairs {
  abstract readonly equal: boolean;
  readonly schema = { type: "array", minItems: 1, items: { type: "array", minItems: 2, items: { type: "string" } } };
  check(value: string[][], obs: Observation, ctx: CheckContext): void {
    const rec = caseRecord(obs, ctx);
    for (const [i, group] of value.entries()) {
      const hashes = group.map((l) => field(capturedValue(rec, l, ctx, `${ctx.label}[${i}]`), "rendered_hash"));
      if (hashes.some((h) => typeof h !== "string" || h === "")) {
        ctx.fail(`every result in ${JSON.stringify(group)} needs a rendered_hash`, { path: `${ctx.label}[${i}]`, actual: hashes });
        continue;
      }
      const distinct = new Set(hashes).size;
      if (this.equal && distinct !== 1) ctx.fail(`expected ${group.join(", ")} to share one rendered_hash`, { path: `${ctx.label}[${i}]`, expected: "equal", actual: hashes });
      if (!this.equal && distinct !== hashes.length) ctx.fail(`expected ${group.join(", ")} to have distinct rendered_hash values`, { path: `${ctx.label}[${i}]`, expected: "distinct", actual: hashes });
    }
  }
}

/** `rendered_hash_equal: [[<label>, <label>, ...], ...]` — each group shares one rendered_hash. */
@directive({ name: "rendered_hash_equal", at: "expected", home: HOME, summary: "each group of results shares one rendered_hash" })
export class RenderedHashEqual extends HashPairs {
  readonly equal = true;
}
/** `rendered_hash_different: [[<label>, <label>, ...], ...]` — the results of each group hash apart. */
@directive({ name: "rendered_hash_different", at: "expected", home: HOME, summary: "each group of results has pairwise distinct rendered_hash values" })
export class RenderedHashDifferent extends HashPairs {
  readonly equal = false;
}

/** `expected_backend_state: {<backend>: {source_read_count: <int>}}` (conformance-adapter §6.8). */
@directive({ name: "expected_backend_state", at: "case", home: HOME, summary: "caching backends' cumulative source reads" })
export class ExpectedBackendState {
  readonly schema = {
    type: "object",
    minProperties: 1,
    additionalProperties: {
      type: "object",
      required: ["source_read_count"],
      additionalProperties: false,
      properties: { source_read_count: { type: "integer", minimum: 0 } },
    },
  };
  check(value: Record<string, { source_read_count: number }>, obs: Observation, ctx: CheckContext): void {
    const rec = caseRecord(obs, ctx);
    for (const [name, want] of Object.entries(value)) {
      const at = `${ctx.label}.${name}.source_read_count`;
      if (!rec.caching.has(name)) ctx.fail(`'${name}' is not a declared caching backend (caching: true)`, { path: at });
      else ctx.match(want.source_read_count, rec.sourceReads[name], null, at);
    }
  }
}

/** The text of message `index` of a captured PromptResult (reporting a mismatch when there is none). */
function messageOf(obs: Observation, ctx: CheckContext, label: string, index: number): unknown {
  const v = capturedValue(caseRecord(obs, ctx), label, ctx, `${ctx.label}.between`);
  if (v === undefined) return undefined;
  const messages = field(v, "messages");
  if (!Array.isArray(messages) || index >= messages.length) {
    ctx.fail(`'${label}' has no message ${index}`, { path: `${ctx.label}`, actual: messages });
    return undefined;
  }
  return messages[index];
}

/**
 * `expected_shared_prefix: {between: [<label>, ...], message_index, prefix}` (§13) — the content of
 * message `message_index` of every listed result starts with `prefix`, byte for byte.
 */
@directive({ name: "expected_shared_prefix", at: "case", home: HOME, summary: "renders share a byte-identical prefix" })
export class ExpectedSharedPrefix {
  readonly schema = {
    type: "object",
    required: ["between", "message_index", "prefix"],
    additionalProperties: false,
    properties: {
      between: { type: "array", minItems: 2, items: { type: "string" } },
      message_index: { type: "integer", minimum: 0 },
      prefix: { type: "string", minLength: 1 },
    },
  };
  check(value: { between: string[]; message_index: number; prefix: string }, obs: Observation, ctx: CheckContext): void {
    for (const label of value.between) {
      const m = messageOf(obs, ctx, label, value.message_index);
      if (m === undefined) continue;
      const content = field(m, "content");
      if (typeof content !== "string" || !content.startsWith(value.prefix)) {
        ctx.fail(`'${label}'.messages[${value.message_index}] does not start with the shared prefix`, { path: `${ctx.label}.prefix`, expected: value.prefix, actual: content });
      }
    }
  }
}

/**
 * `expected_message_equal: {between: [<label>, ...], message_indices: [<int>, ...]}` (§13) — the
 * listed messages are byte-identical (canonical JSON) across every listed result.
 */
@directive({ name: "expected_message_equal", at: "case", home: HOME, summary: "renders have byte-identical messages at the given indices" })
export class ExpectedMessageEqual {
  readonly schema = {
    type: "object",
    required: ["between", "message_indices"],
    additionalProperties: false,
    properties: {
      between: { type: "array", minItems: 2, items: { type: "string" } },
      message_indices: { type: "array", minItems: 1, items: { type: "integer", minimum: 0 } },
    },
  };
  check(value: { between: string[]; message_indices: number[] }, obs: Observation, ctx: CheckContext): void {
    for (const index of value.message_indices) {
      const [first, ...rest] = value.between.map((l) => messageOf(obs, ctx, l, index));
      if (first === undefined) continue;
      for (const [i, m] of rest.entries()) {
        if (m !== undefined && !same(first, m)) {
          ctx.fail(`messages[${index}] of '${value.between[0]}' and '${value.between[i + 1]}' differ`, { path: `${ctx.label}.message_indices`, expected: first, actual: m });
        }
      }
    }
  }
}
