/**
 * The prompt-context forms the observability fixture headers define (conformance-adapter §3.2: a
 * header comment block is a per-directory harness note, §5's second definition home): fixture 106's
 * note (`renders_prompt` makes the rendered prompt the one a call uses), 126 / 129 / 131's notes
 * (`prompt_backend` declares the prompts, each with an optional `token_budget` the backend surfaces
 * on `Prompt.token_budget`; `renders_prompt:` makes the prompt active so the typed events'
 * `token_budget` / `active_prompt` are populated) and 024's `prompt_backend.type` (whether the
 * backend attaches a Langfuse Prompt reference). Recognized only in the observability directory
 * (§5 Definition homes).
 *
 * The node's `renders_prompt` step renders through a real `PromptManager` (the library's render:
 * strict variables, `template_hash` / `rendered_hash`), and every call directive after it in the
 * node runs inside the library's `withPrompt` (harness/prompts/rendered.ts).
 */
import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext, JsonSchema } from "../../src/conformance/directive.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import type { BuildEnv, NodeAssembly } from "../../harness/graph/node-directive.ts";
import { PromptContextSlot, recordRender, type DeclaredPrompt, type PromptBackendType } from "../../harness/prompts/rendered.ts";
import { LangfuseCaptureSlot } from "../../harness/observability/langfuse.ts";

const HOME = "observability";

const PROMPT: JsonSchema = {
  type: "object",
  required: ["name", "version", "label", "template_hash"],
  additionalProperties: false,
  properties: {
    name: { type: "string", minLength: 1 },
    version: { type: "string", minLength: 1 },
    label: { type: "string", minLength: 1 },
    template: { type: "string" },
    chat_template: { type: "array", items: { type: "object" } },
    template_hash: { type: "string", minLength: 1 },
    sampling: { type: "object" },
    token_budget: { type: "object" },
    /** 024: the Langfuse Prompt entity the backend exposes (type mock_with_langfuse_reference). */
    langfuse_prompt_reference: { type: "string", minLength: 1 },
  },
};

interface BackendValue {
  readonly type: PromptBackendType;
  readonly prompts: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/**
 * `prompt_backend: {type, prompts: {<key>: {name, version, label, template | chat_template,
 * template_hash, sampling?, token_budget?, langfuse_prompt_reference?}}}` (observability 024, 126,
 * 129 notes): the prompts the case's backend serves, with the identity written (the fixtures pin
 * `version` and `template_hash`). `type: filesystem` serves them with no Langfuse Prompt reference;
 * `type: mock_with_langfuse_reference` registers each prompt's `langfuse_prompt_reference` as a
 * Prompt entity of the fake Langfuse project (conformance-adapter §6.4) and attaches the entity's
 * prompt client as its `observability_entities.langfuse_prompt` — what prompt-management §3 puts
 * there ("the Langfuse TypeScript SDK's" Prompt reference), the slot the library's Langfuse backend
 * fills. The recorded Generation then names the entity it links to (`prompt_entity_link`). Either
 * way the store is the library's in-memory backend.
 */
@directive({ name: "prompt_backend", at: "case", home: HOME, section: "observability 024 / 126 / 129 harness notes", summary: "the prompts renders_prompt renders (identity, template, token_budget, Langfuse reference)" })
export class PromptBackendDirective {
  readonly schema: JsonSchema = {
    type: "object",
    required: ["type", "prompts"],
    additionalProperties: false,
    properties: {
      type: { enum: ["filesystem", "mock_with_langfuse_reference"] },
      prompts: { type: "object", minProperties: 1, additionalProperties: PROMPT },
    },
  };
  configure(value: BackendValue, ctx: ConfigureContext): void {
    const prompts = new Map<string, DeclaredPrompt>();
    const lf = ctx.slot(LangfuseCaptureSlot).prompts;
    const seen = new Set<string>();
    for (const [key, p] of Object.entries(value.prompts)) {
      const at = (k: string): KeyPath => [...ctx.self.path, "prompts", key, k];
      if ((p["template"] === undefined) === (p["chat_template"] === undefined)) {
        throw new FixtureSchemaInvalid(`prompt '${key}' carries exactly one of template (a Text prompt) or chat_template (a Chat prompt)`, ctx.locate([...ctx.self.path, "prompts", key]));
      }
      const { langfuse_prompt_reference: ref, ...rest } = p;
      if (ref !== undefined && value.type !== "mock_with_langfuse_reference") {
        throw new FixtureSchemaInvalid(`prompt '${key}': a langfuse_prompt_reference needs prompt_backend type mock_with_langfuse_reference (a ${value.type} backend exposes none)`, ctx.locate(at("langfuse_prompt_reference")));
      }
      if (ref === undefined) {
        prompts.set(key, rest);
        continue;
      }
      const id = String(ref);
      if (seen.has(id)) throw new FixtureSchemaInvalid(`prompt '${key}': langfuse_prompt_reference '${id}' is already another prompt's Langfuse Prompt entity`, ctx.locate(at("langfuse_prompt_reference")));
      seen.add(id);
      const chat = rest["chat_template"] !== undefined;
      const client = lf.create(id, { name: String(rest["name"]), type: chat ? "chat" : "text", prompt: chat ? rest["chat_template"] : rest["template"], labels: [String(rest["label"])] });
      prompts.set(key, { ...rest, observability_entities: { langfuse_prompt: client } });
    }
    ctx.slot(PromptContextSlot).declared = { type: value.type, prompts, where: ctx.locate(ctx.self.path) };
  }
}

/** `render_variables: {<name>: <value>}` (observability 024, 106, 126 ...): the variables each `renders_prompt` render uses. */
@directive({ name: "render_variables", at: "case", home: HOME, section: "observability 024 / 106 / 126 harness notes", summary: "the variables renders_prompt renders with" })
export class RenderVariables {
  readonly schema: JsonSchema = { type: "object" };
  configure(value: Readonly<Record<string, unknown>>, ctx: ConfigureContext): void {
    ctx.slot(PromptContextSlot).variables = value;
  }
}

/**
 * `renders_prompt: <key>` (observability 106 / 126 notes): the node fetches and renders the
 * declared prompt through the case's `PromptManager` with `render_variables`; the call directives
 * after it in the node run with that result as the active prompt and, when they carry no content of
 * their own, take their messages / input / query from it. A render failure is the node's error.
 */
@directive({ name: "renders_prompt", at: "node", home: HOME, section: "observability 106 / 126 harness notes", summary: "the node renders a declared prompt; later calls in the node run in its prompt context" })
export class RendersPrompt {
  readonly schema: JsonSchema = { type: "string", minLength: 1 };
  contribute(value: string, node: NodeAssembly, env: BuildEnv, at: KeyPath): void {
    const where = env.locate(at);
    const state = env.slot(PromptContextSlot);
    const declared = state.declared?.prompts.get(value);
    if (declared === undefined) {
      const known = state.declared ? [...state.declared.prompts.keys()].join(", ") : "";
      throw new FixtureSchemaInvalid(
        state.declared ? `renders_prompt: no prompt '${value}' is declared under prompt_backend.prompts (declared: ${known})` : "renders_prompt needs a case-level prompt_backend declaring the prompt",
        where,
      );
    }
    state.markRenders(node);
    node.steps.push(async (_s, ctx) => {
      const result = await state.manager(where).get(String(declared["name"]), { label: String(declared["label"]), variables: state.variables, signal: ctx.signal });
      state.record(ctx, result);
      recordRender(env.currentCall().observation, { node: node.name, result });
    });
  }
}
