/**
 * The bounds on one template render. Template text is untrusted (it comes from remote stores and
 * shared folders), so parsing and rendering are bounded in source size, nesting, evaluation steps,
 * output size and `range()` length; exceeding any is a {@link TemplateFailure} naming the limit.
 */
import { TemplateFailure } from "./failure.ts";

export interface TemplateLimits {
  /** Evaluation steps per render (each node evaluated, loop iteration, and per 64 characters or item a filter touches). */
  readonly maxSteps: number;
  /** Characters (UTF-16 code units) of output per render, and of any string built while rendering. */
  readonly maxOutputLength: number;
  /** Characters of template source. */
  readonly maxSourceLength: number;
  /** Nesting depth: of expressions and blocks when parsing, of macro calls and data walked when rendering. */
  readonly maxDepth: number;
  /** Items one `range()` call may produce. */
  readonly maxRangeLength: number;
}

export const DEFAULT_TEMPLATE_LIMITS: TemplateLimits = Object.freeze({
  maxSteps: 1_000_000,
  maxOutputLength: 4 * 1024 * 1024,
  maxSourceLength: 4 * 1024 * 1024,
  maxDepth: 100,
  maxRangeLength: 100_000,
});

export type TemplateLimitName = keyof TemplateLimits;

/** `limits` completed with the defaults; a limit that is not a positive integer is a `RangeError`. */
export function resolveLimits(limits: Partial<TemplateLimits> | undefined): TemplateLimits {
  if (limits === undefined) return DEFAULT_TEMPLATE_LIMITS;
  const out: Record<string, number> = { ...DEFAULT_TEMPLATE_LIMITS };
  for (const key of Object.keys(DEFAULT_TEMPLATE_LIMITS) as TemplateLimitName[]) {
    const v = limits[key];
    if (v === undefined) continue;
    if (typeof v !== "number" || !Number.isSafeInteger(v) || v <= 0) throw new RangeError(`template limit ${key} must be a positive integer, got ${String(v)}`);
    out[key] = v;
  }
  return out as unknown as TemplateLimits;
}

/**
 * What is left of the step and output allowance. One budget may be shared by several renders (a
 * chat prompt's segments draw on one budget), so the bound holds per prompt render.
 */
export class RenderBudget {
  readonly limits: TemplateLimits;
  #steps: number;
  #output: number;

  constructor(limits?: Partial<TemplateLimits>) {
    this.limits = resolveLimits(limits);
    this.#steps = this.limits.maxSteps;
    this.#output = this.limits.maxOutputLength;
  }

  /** Spend `n` steps; throws when the budget is exhausted. */
  step(n = 1): void {
    this.#steps -= n;
    if (this.#steps < 0) {
      this.#steps = 0;
      throw new TemplateFailure(`the render exceeded its step budget (maxSteps ${this.limits.maxSteps}): a loop, macro or filter ran too long`, [], { limit: "maxSteps" });
    }
  }

  /** Spend `n` characters of output. */
  output(n: number): void {
    this.#output -= n;
    if (this.#output < 0) {
      this.#output = 0;
      throw new TemplateFailure(`the render's output exceeded maxOutputLength (${this.limits.maxOutputLength} characters)`, [], { limit: "maxOutputLength" });
    }
  }

  /** Refuse to build a string of `length` characters (checked before allocating it). */
  checkString(length: number): void {
    if (length > this.limits.maxOutputLength) {
      throw new TemplateFailure(`a string of ${length} characters would exceed maxOutputLength (${this.limits.maxOutputLength} characters)`, [], { limit: "maxOutputLength" });
    }
    this.step(1 + (length >> 6));
  }
}
