/**
 * A middleware chain around a composite node's unit of work — a fan-out instance (§9.7 instance
 * middleware) or a parallel branch (§11.7 branch middleware): outer to inner, each middleware
 * calling `next` to run the rest of the chain and, at the inner end, the unit itself.
 */
import type { Middleware, NodeExecutionContext, StateRecord } from "../graph/index.ts";

export function runWrappingChain(
  chain: readonly Middleware<StateRecord, StateRecord>[],
  input: Readonly<StateRecord>,
  invoke: (s: Readonly<StateRecord>) => Promise<StateRecord>,
  ctx: NodeExecutionContext<StateRecord>,
): Promise<StateRecord> {
  const step = (i: number, s: Readonly<StateRecord>): Promise<StateRecord> => {
    const m = chain[i];
    if (m === undefined) return invoke(s);
    return Promise.resolve(m(s, (next?: Readonly<StateRecord>) => step(i + 1, next ?? s), ctx)).then((u) => (u ?? {}) as StateRecord);
  };
  return step(0, input);
}
