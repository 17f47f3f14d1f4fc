/**
 * `caller_global_otel_active` (conformance-adapter §5.5, observability §6): the caller's own OTel
 * setup — a `TracerProvider` registered as the OTel global, with an in-memory exporter — active
 * while each call of the case runs, and removed after it (`trace.disable()`), so no case leaves
 * global OTel state behind. What reached the global exporter becomes the call's
 * {@link GlobalSpanCapture} facet, which the isolation assertions read.
 */
import { trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { SlotKey, type ConfigureContext } from "../../src/conformance/directive.ts";
import { Facet } from "../../src/conformance/observation.ts";
import { GraphCaseHooksSlot } from "../graph/extensions.ts";

export const GlobalSpanCapture = new Facet<readonly ReadableSpan[]>("spans on the global OTel provider (caller_global_otel_active)");

export class GlobalOtelState {
  used = false;
  readonly exporter = new InMemorySpanExporter();
  readonly provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(this.exporter)] });
}

export const GlobalOtelSlot = new SlotKey<GlobalOtelState>("global OTel provider (caller_global_otel_active)", () => new GlobalOtelState());

/** Register the case's global provider around every call (once). */
export function useGlobalOtel(ctx: ConfigureContext): GlobalOtelState {
  const state = ctx.slot(GlobalOtelSlot);
  if (state.used) return state;
  state.used = true;
  const hooks = ctx.slot(GraphCaseHooksSlot);
  hooks.beforeCall.push(() => {
    trace.disable();
    state.exporter.reset();
    if (!trace.setGlobalTracerProvider(state.provider)) throw new Error("caller_global_otel_active: the global TracerProvider could not be registered");
  });
  hooks.afterCall.push(async (call) => {
    await state.provider.forceFlush();
    call.observation.set(GlobalSpanCapture, [...state.exporter.getFinishedSpans()]);
    trace.disable();
  });
  return state;
}
