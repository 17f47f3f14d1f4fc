/**
 * Thin typing over LangGraph.js for graphs built in loops (its builder types track every node name
 * as a literal, which a loop over `n0 … n99` cannot express). Runtime behaviour is LangGraph's own:
 * these are casts, not wrappers.
 */
import { END, START, StateGraph, type AnnotationRoot, type BaseCheckpointSaver, type StateDefinition } from "@langchain/langgraph";

export { END as LG_END, START as LG_START };

/** Invocation config used by the benchmarks (`recursionLimit`, `callbacks`, ...). */
export type LooseConfig = Record<string, unknown>;

export interface LooseCompiledGraph<S> {
  invoke(input: Partial<S>, config?: LooseConfig): Promise<S>;
  stream(input: Partial<S>, config?: LooseConfig): Promise<AsyncIterable<unknown>>;
  withConfig(config: LooseConfig): LooseCompiledGraph<S>;
}

export interface LooseStateGraph<S> {
  addNode(name: string, fn: (state: S) => Promise<Partial<S>>): LooseStateGraph<S>;
  addEdge(from: string, to: string): LooseStateGraph<S>;
  addConditionalEdges(from: string, route: (state: S) => string): LooseStateGraph<S>;
  /** `checkpointer`: saves a checkpoint per superstep (invoke with `configurable.thread_id`). */
  compile(options?: { readonly checkpointer?: BaseCheckpointSaver }): LooseCompiledGraph<S>;
}

/** `new StateGraph(annotation)`, typed loosely (see module doc). */
export function looseStateGraph<S, SD extends StateDefinition>(annotation: AnnotationRoot<SD>): LooseStateGraph<S> {
  return new StateGraph(annotation) as unknown as LooseStateGraph<S>;
}
