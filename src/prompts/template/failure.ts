import type { TemplateLimitName } from "./limits.ts";

/** A template that failed to parse, render, find a variable, or stay within its limits: the message says which. */
export class TemplateFailure extends Error {
  override name = "TemplateFailure";
  /** The limit that was exceeded, when that is why the template failed. */
  readonly limit: TemplateLimitName | undefined;
  constructor(
    message: string,
    /** Variable names the template reads that were not supplied (strict mode). */
    readonly missing: readonly string[] = [],
    options?: ErrorOptions & { readonly limit?: TemplateLimitName },
  ) {
    super(message, options);
    this.limit = options?.limit;
  }
}
