/**
 * Render (prompt-management §6 `render`, §8, §11): a `Prompt` plus variables (and, for a Chat
 * prompt, placeholder message lists) to a `PromptResult`. Synchronous and deterministic (§13): the
 * only non-content field that varies is `rendered_at`.
 */
import { contentHash } from "./hash.ts";
import { PromptRenderError } from "./errors.ts";
import type { ContentBlock, PromptMessage } from "./messages.ts";
import { isChatPrompt, isPlaceholderSegment, type ContentBlockTemplate, type Prompt } from "./prompt.ts";
import type { PromptResult } from "./result.ts";
import { RenderBudget, renderTemplate, TemplateFailure, type TemplateLimits } from "./template.ts";

export interface RenderOptions {
  /** Strict undefined (§8). Default `true`; `false` renders an undefined value as "". */
  readonly strict?: boolean;
  /**
   * Redact variable values on the result and in errors (§4 / §11 allow it; keys always stay).
   * Receives the variable name and value; returns what to record.
   */
  readonly redact?: (name: string, value: unknown) => unknown;
  /** The clock for `rendered_at` (default: now). */
  readonly now?: () => Date;
  /**
   * Bounds on the render (steps, output characters, source size, nesting, `range()` length); the
   * defaults are `DEFAULT_TEMPLATE_LIMITS`. One render of a prompt — all its chat segments and
   * blocks together — draws on one step and output allowance. Exceeding one is a `prompt_render_error`.
   */
  readonly templateLimits?: Partial<TemplateLimits>;
}

export type Placeholders = Readonly<Record<string, ReadonlyArray<PromptMessage>>>;

/** §3.1: placeholder names are ASCII identifiers. */
export const PLACEHOLDER_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function renderPrompt(
  prompt: Prompt,
  variables: Readonly<Record<string, unknown>> = {},
  placeholders?: Placeholders | null,
  options: RenderOptions = {},
): PromptResult {
  const recorded = options.redact ? Object.fromEntries(Object.entries(variables).map(([k, v]) => [k, options.redact!(k, v)])) : { ...variables };
  const fail = (description: string, cause?: unknown): never => {
    throw new PromptRenderError(prompt.name, prompt.version, prompt.label, recorded, description, cause === undefined ? undefined : { cause });
  };
  const strict = options.strict ?? true;
  const budget = new RenderBudget(options.templateLimits);
  const text = (source: unknown, where: string): string => {
    if (typeof source !== "string") return fail(`${where}: the template must be a string, got ${JSON.stringify(source)}`);
    try {
      return renderTemplate(source, variables, { strict, budget });
    } catch (e) {
      if (e instanceof TemplateFailure) return fail(`${where}: ${e.message}`, e);
      throw e;
    }
  };

  let messages: PromptMessage[];
  if (!isChatPrompt(prompt)) {
    // §6.render: a Text prompt is one user message; `placeholders` is ignored.
    messages = [{ role: "user", content: text(prompt.template, "template") }];
  } else {
    messages = [];
    const template = prompt.chat_template;
    if (!Array.isArray(template)) fail("chat_template must be a list of segments");
    const seen = new Set<string>();
    for (const [i, seg] of template.entries()) {
      if (seg !== null && typeof seg === "object" && isPlaceholderSegment(seg)) {
        const name = seg.placeholder;
        if (typeof name !== "string" || !PLACEHOLDER_NAME.test(name)) {
          fail(`chat_template[${i}]: placeholder name ${JSON.stringify(name)} is not an identifier ([A-Za-z_][A-Za-z0-9_]*)`);
        }
        if (seen.has(name)) fail(`chat_template[${i}]: placeholder '${name}' appears more than once`);
        seen.add(name);
      }
    }
    for (const [i, seg] of template.entries()) {
      const where = `chat_template[${i}]`;
      if (seg === null || typeof seg !== "object") fail(`${where}: a segment must be a mapping`);
      if (isPlaceholderSegment(seg)) {
        const injected = placeholders?.[seg.placeholder];
        if (injected === undefined || injected === null) {
          fail(`${where}: placeholder '${seg.placeholder}' was not supplied (pass placeholders['${seg.placeholder}'], [] for none)`);
        } else if (!Array.isArray(injected)) {
          fail(`${where}: placeholders['${seg.placeholder}'] must be a list of messages`);
        } else {
          for (const m of injected) messages.push(m);
        }
        continue;
      }
      const role = seg.role;
      if (role !== "system" && role !== "user" && role !== "assistant") {
        fail(`${where}: role ${JSON.stringify(role)} is not an authoring role (system, user, assistant)`);
      }
      if (typeof seg.content === "string") {
        const rendered = text(seg.content, `${where} (${role})`);
        if (rendered === "") fail(`${where} (${role}): the segment rendered to an empty string`);
        messages.push({ role, content: rendered } as PromptMessage);
        continue;
      }
      if (!Array.isArray(seg.content)) fail(`${where}: content must be a template string or a list of content blocks`);
      const blocks = seg.content as ReadonlyArray<ContentBlockTemplate>;
      if (blocks.length === 0) fail(`${where} (${role}): the content-blocks list is empty`);
      const out: ContentBlock[] = [];
      for (const [j, block] of blocks.entries()) {
        const at = `${where}.content[${j}]`;
        if (block?.type === "text") {
          const t = text(block.text, `${at}.text`);
          if (t === "") fail(`${at}: the text block rendered to an empty string`);
          out.push({ type: "text", text: t });
        } else if (block?.type === "image") {
          if (role !== "user") fail(`${at}: an image block is only allowed in a user segment, not '${role}'`);
          const src = block.source as { type?: unknown; url?: unknown; base64_data?: unknown };
          const extra: { media_type?: string; detail?: "auto" | "low" | "high" } = {};
          if (block.detail !== undefined) extra.detail = block.detail;
          if (src?.type === "url") {
            if (block.media_type !== undefined) extra.media_type = block.media_type;
            out.push({ type: "image", source: { type: "url", url: text(src.url, `${at}.source.url`) }, ...extra });
          } else if (src?.type === "inline") {
            const data = text(src.base64_data, `${at}.source.base64_data`);
            extra.media_type = text(block.media_type, `${at}.media_type`);
            out.push({ type: "image", source: { type: "inline", base64_data: data }, ...extra });
          } else {
            fail(`${at}.source: an image source must be {type: url, url} or {type: inline, base64_data}`);
          }
        } else {
          fail(`${at}: unknown content block type ${JSON.stringify((block as { type?: unknown })?.type)}`);
        }
      }
      messages.push({ role, content: out } as PromptMessage);
    }
    if (messages.length === 0) fail("the render produced an empty messages list (every placeholder injected an empty list)");
  }

  const result: Record<string, unknown> = {
    name: prompt.name,
    version: prompt.version,
    label: prompt.label,
    template_hash: prompt.template_hash,
    rendered_hash: contentHash(messages),
    messages,
    variables: recorded,
    fetched_at: prompt.fetched_at,
    rendered_at: options.now?.() ?? new Date(),
  };
  if (prompt.sampling !== undefined) result["sampling"] = prompt.sampling;
  if (prompt.token_budget !== undefined) result["token_budget"] = prompt.token_budget;
  if (prompt.observability_entities !== undefined) result["observability_entities"] = prompt.observability_entities;
  return Object.freeze(result) as unknown as PromptResult;
}
