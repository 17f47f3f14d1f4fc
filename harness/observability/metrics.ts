/**
 * Metric capture (conformance-adapter §6.9, observability §11.5): the `MeterProvider` handed to
 * the metrics-emitting observer. It is the real SDK `MeterProvider` (with a reader, so the SDK
 * aggregates as in production) behind a thin recording layer that sees every measurement as it is
 * made — instrument name, value, dimensions — so two identical recordings stay two (an aggregating
 * reader would merge them). A counter add of 0 is not a recording (§5.8).
 */
import type { Attributes, Counter, Histogram, Meter, MeterProvider, MeterOptions, MetricOptions, UpDownCounter, Gauge } from "@opentelemetry/api";
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider as SdkMeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { Facet } from "../../src/conformance/observation.ts";

/** One measurement as the instrument received it. */
export interface Measurement {
  readonly instrument: string;
  readonly value: number;
  readonly dimensions: Readonly<Record<string, unknown>>;
}

/** The measurements one call recorded, in recording order. */
export const MetricCapture = new Facet<readonly Measurement[]>("OTel metric measurements (§6.9 capture)");

export class RecordingMeterProvider implements MeterProvider {
  readonly measurements: Measurement[] = [];
  readonly exporter = new InMemoryMetricExporter(AggregationTemporality.DELTA);
  readonly sdk: SdkMeterProvider;

  constructor() {
    // A long interval: the reader is collected by forceFlush, never on a timer during a case.
    this.sdk = new SdkMeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter: this.exporter, exportIntervalMillis: 3_600_000 })] });
  }

  getMeter(name: string, version?: string, options?: MeterOptions): Meter {
    const real = this.sdk.getMeter(name, version, options);
    const log = (instrument: string, value: number, attributes: Attributes | undefined): void => {
      this.measurements.push({ instrument, value, dimensions: { ...(attributes ?? {}) } });
    };
    return {
      createHistogram: (n: string, o?: MetricOptions): Histogram => {
        const h = real.createHistogram(n, o);
        return { record: (v, a, c) => (log(n, v, a), h.record(v, a, c)) };
      },
      createCounter: (n: string, o?: MetricOptions): Counter => {
        const k = real.createCounter(n, o);
        return { add: (v, a, c) => (v !== 0 && log(n, v, a), k.add(v, a, c)) };
      },
      createUpDownCounter: (n: string, o?: MetricOptions): UpDownCounter => {
        const k = real.createUpDownCounter(n, o);
        return { add: (v, a, c) => (v !== 0 && log(n, v, a), k.add(v, a, c)) };
      },
      createGauge: (n: string, o?: MetricOptions): Gauge => {
        const g = real.createGauge(n, o);
        return { record: (v, a, c) => (log(n, v, a), g.record(v, a, c)) };
      },
      createObservableGauge: (n, o) => real.createObservableGauge(n, o),
      createObservableCounter: (n, o) => real.createObservableCounter(n, o),
      createObservableUpDownCounter: (n, o) => real.createObservableUpDownCounter(n, o),
      addBatchObservableCallback: (cb, obs) => real.addBatchObservableCallback(cb, obs),
      removeBatchObservableCallback: (cb, obs) => real.removeBatchObservableCallback(cb, obs),
    };
  }

  /** Forget what was recorded (before each call). */
  reset(): void {
    this.measurements.length = 0;
    this.exporter.reset();
  }

  /** Collect the SDK side (its exporter then holds the aggregated view of the same recordings). */
  async flush(): Promise<void> {
    await this.sdk.forceFlush();
  }
}
