/**
 * The prompt-management case directives (the directory's harness note, in 001's header, and
 * conformance-adapter §6.8): `backends:` (preloaded mock / caching / unavailable backends),
 * `manager:` (composition order, `default_cache_ttl_seconds`) and `calls:` (operations in order,
 * each with its inputs, an optional `capture_as` label and its own `expected:`).
 */
import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { Expected } from "../general/expected.ts";
import { PROMPT_CALL_EXPECTED } from "../general/expected-raises.ts";
import { CALL_INPUT, PROMPT_CASE, promptExecutor } from "../../harness/prompts/case.ts";

const HOME = "prompt-management";
/** Position of the keys inside a `calls[]` entry. */
export const CALL_POSITION = "prompt_call";
/** Position of the keys inside a call's `expected:`. */
export const CALL_EXPECTED = PROMPT_CALL_EXPECTED;

const tpl = { type: "string" } as const;
const block = {
  oneOf: [
    { type: "object", required: ["type", "text"], additionalProperties: false, properties: { type: { const: "text" }, text: tpl } },
    {
      type: "object",
      required: ["type", "source"],
      additionalProperties: false,
      properties: {
        type: { const: "image" },
        source: {
          oneOf: [
            { type: "object", required: ["type", "url"], additionalProperties: false, properties: { type: { const: "url" }, url: tpl } },
            { type: "object", required: ["type", "base64_data"], additionalProperties: false, properties: { type: { const: "inline" }, base64_data: tpl } },
          ],
        },
        media_type: tpl,
        detail: { enum: ["auto", "low", "high"] },
      },
    },
  ],
} as const;
/** A §3.1 content segment; the role is any string so a non-authoring role reaches render (§11). */
const contentSegment = {
  type: "object",
  required: ["role", "content"],
  additionalProperties: false,
  properties: { role: { type: "string" }, content: { oneOf: [tpl, { type: "array", items: block }] } },
} as const;
/** A §3.1 placeholder segment; the name is any string so a malformed one reaches render (§11). */
const placeholderSegment = { type: "object", required: ["placeholder"], additionalProperties: false, properties: { placeholder: { type: "string" } } } as const;

const promptEntry = {
  type: "object",
  required: ["name", "label", "version"],
  properties: {
    name: { type: "string" },
    label: { type: "string" },
    version: { type: "string" },
    template: { type: "string" },
    chat_template: { type: "array", items: { oneOf: [contentSegment, placeholderSegment] } },
    template_hash: { type: "string" },
    sampling: { type: "object" },
    token_budget: { type: "object" },
    observability_entities: { type: "object" },
    metadata: { type: "object" },
  },
  additionalProperties: false,
  oneOf: [{ required: ["template"] }, { required: ["chat_template"] }],
} as const;

/** `backends: [{name, prompts, caching?, simulate_unavailable?}, ...]`. */
@directive({ name: "backends", at: "case", home: HOME, summary: "the prompt backends, preloaded" })
export class Backends {
  readonly schema = {
    type: "array",
    items: {
      type: "object",
      required: ["name", "prompts"],
      additionalProperties: false,
      properties: {
        name: { type: "string", minLength: 1 },
        prompts: { type: "array", items: promptEntry },
        caching: { type: "boolean" },
        simulate_unavailable: { type: "boolean" },
      },
    },
  };
  configure(value: { name: string; prompts: Record<string, unknown>[]; caching?: boolean; simulate_unavailable?: boolean }[], ctx: ConfigureContext): void {
    const state = ctx.slot(PROMPT_CASE);
    for (const [i, b] of value.entries()) {
      state.backends.push({
        decl: { name: b.name, prompts: b.prompts, caching: b.caching === true, unavailable: b.simulate_unavailable === true },
        path: [...ctx.self.path, i],
      });
    }
  }
}

/** `manager: {backends?: [<name>, ...], default_cache_ttl_seconds?}` — absent backends: all declared, in order. */
@directive({ name: "manager", at: "case", home: HOME, summary: "the PromptManager over the declared backends" })
export class Manager {
  readonly schema = {
    type: "object",
    additionalProperties: false,
    properties: {
      backends: { type: "array", minItems: 1, items: { type: "string" } },
      // null: no manager default, as when absent (§6.8).
      default_cache_ttl_seconds: { type: ["integer", "null"] },
    },
  };
  configure(value: { backends?: string[]; default_cache_ttl_seconds?: number | null }, ctx: ConfigureContext): void {
    const { default_cache_ttl_seconds: ttl, ...rest } = value;
    ctx.slot(PROMPT_CASE).manager = { ...rest, ...(ttl !== undefined && ttl !== null ? { default_cache_ttl_seconds: ttl } : {}), path: ctx.self.path };
  }
}

/** `calls: [...]` — operations run in order against the backends / manager. */
@directive({ name: "calls", at: "case", home: HOME, summary: "prompt-management operations in order" })
export class Calls {
  readonly schema = { type: "array", minItems: 1, items: { type: "object", required: ["target"] } };
  async configure(value: Record<string, unknown>[], ctx: ConfigureContext): Promise<void> {
    ctx.setExecutor(promptExecutor);
    const state = ctx.slot(PROMPT_CASE);
    for (const [i, call] of value.entries()) {
      const path = [...ctx.self.path, i];
      const plan = ctx.newPlan(`calls[${i}]`, path, "prompt_call");
      state.calls.push(plan);
      await ctx.configureAll(ctx.resolve(CALL_POSITION, call, path), plan);
    }
  }
}

/** One input key of a call, stored on the call's plan for the runner. */
abstract class CallInput {
  configure(value: unknown, ctx: ConfigureContext): void {
    const input = ctx.plan.input<Record<string, unknown>>(CALL_INPUT) ?? {};
    ctx.plan.setInput(CALL_INPUT, { ...input, [ctx.self.key]: value });
  }
}

const message = { type: "object", required: ["role"] } as const;

@directive({ name: "target", at: CALL_POSITION, home: HOME, summary: "{backend: <name>}, manager / {manager: true}, or construct_prompt_group" })
export class Target extends CallInput {
  readonly schema = {
    oneOf: [
      { enum: ["manager", "construct_prompt_group"] },
      { type: "object", required: ["backend"], additionalProperties: false, properties: { backend: { type: "string" } } },
      { type: "object", required: ["manager"], additionalProperties: false, properties: { manager: { const: true } } },
    ],
  };
}
@directive({ name: "operation", at: CALL_POSITION, home: HOME, summary: "fetch, render, get, advance_clock" })
export class Operation extends CallInput {
  readonly schema = { enum: ["fetch", "render", "get", "advance_clock"] };
}
@directive({ name: "name", at: CALL_POSITION, home: HOME, summary: "the prompt name (fetch / get)" })
export class Name extends CallInput {
  readonly schema = { type: "string" };
}
@directive({ name: "label", at: CALL_POSITION, home: HOME, summary: "the label (fetch / get)" })
export class Label extends CallInput {
  readonly schema = { type: "string" };
}
@directive({ name: "variables", at: CALL_POSITION, home: HOME, summary: "render variables" })
export class Variables extends CallInput {
  readonly schema = { type: "object" };
}
@directive({ name: "placeholders", at: CALL_POSITION, home: HOME, summary: "placeholder name → message list" })
export class Placeholders extends CallInput {
  readonly schema = { type: "object", additionalProperties: { type: "array", items: message } };
}
@directive({ name: "fetched_prompt", at: CALL_POSITION, home: HOME, summary: "render: fetch {name, label} through the manager first" })
export class FetchedPrompt extends CallInput {
  readonly schema = { type: "object", required: ["name"], additionalProperties: false, properties: { name: { type: "string" }, label: { type: "string" } } };
}
@directive({ name: "fetched_prompt_ref", at: CALL_POSITION, home: HOME, summary: "render: the Prompt an earlier call captured" })
export class FetchedPromptRef extends CallInput {
  readonly schema = { type: "string" };
}
/**
 * `cache_ttl_seconds` on a fetch (conformance-adapter §6.8, prompt-management §5 / §6): an integer
 * (a negative one is rejected by the library), or null — the default, treated exactly as omitted
 * (§6: an explicit unset and an omitted argument MUST be treated identically).
 */
@directive({ name: "cache_ttl_seconds", at: CALL_POSITION, home: HOME, summary: "per-fetch cache control (§5; null = omitted; negative rejected by the library)" })
export class CacheTtlSeconds extends CallInput {
  readonly schema = { type: ["integer", "null"] };
}
@directive({ name: "seconds", at: CALL_POSITION, home: HOME, summary: "advance_clock: seconds to advance the caching backend's clock" })
export class Seconds extends CallInput {
  readonly schema = { type: "number", minimum: 0 };
}
@directive({ name: "group_name", at: CALL_POSITION, home: HOME, summary: "construct_prompt_group: the group name" })
export class GroupName extends CallInput {
  readonly schema = { type: "string" };
}
@directive({ name: "members_refs", at: CALL_POSITION, home: HOME, summary: "construct_prompt_group: capture labels of the members" })
export class MembersRefs extends CallInput {
  readonly schema = { type: "array", items: { type: "string" } };
}

/** `capture_as: <label>` — binds the call's outcome to a label an `expected:` key may assert. */
@directive({ name: "capture_as", at: CALL_POSITION, home: HOME, summary: "bind this call's outcome to a label" })
export class CaptureAs extends CallInput {
  readonly schema = { type: "string", minLength: 1 };
  override configure(value: string, ctx: ConfigureContext): void {
    ctx.declareLabel(value);
    super.configure(value, ctx);
  }
}

/** `expected:` inside a `calls[]` entry: assertions on that call, at the call-expected position. */
@directive({ name: "expected", at: CALL_POSITION, home: HOME, summary: "assertions on this call" })
export class CallExpected extends Expected {
  override async configure(value: Record<string, unknown>, ctx: ConfigureContext): Promise<void> {
    await ctx.configureAll(ctx.resolve(CALL_EXPECTED, value, ctx.self.path));
  }
}
