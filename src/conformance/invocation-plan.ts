/**
 * An invocation plan: what one invoke() call (or the case scope) is configured with, and the
 * assertions that read it. Directives at `invocation` / `case` positions write inputs into it;
 * `expected` blocks attach their assertions to it.
 */
import type { Resolved } from "./directive.ts";
import type { KeyPath } from "./source.ts";

export class InvocationPlan {
  /** Inputs by directive-defined key (`initial_state`, `session_id`, `drain`, ...). */
  private readonly inputs = new Map<string, unknown>();
  /** Assertions to check against this plan's call(s). */
  readonly assertions: Resolved[] = [];

  constructor(
    readonly name: string | null,
    readonly path: KeyPath,
    /** `case`, `invocation`, or a directive-defined kind (`resume`, `first_run`, ...). */
    readonly kind: string,
  ) {}

  setInput<T>(key: string, value: T): void {
    this.inputs.set(key, value);
  }
  input<T>(key: string): T | undefined {
    return this.inputs.get(key) as T | undefined;
  }
  hasInput(key: string): boolean {
    return this.inputs.has(key);
  }
}
