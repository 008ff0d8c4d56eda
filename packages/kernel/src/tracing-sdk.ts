import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, type SpanExporter, type SpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { markTracingEnabled } from './tracing';

export interface TracingOptions {
  /** `service.name` (e.g. `support-api`) and `service.instance.id`. */
  service: string;
  instance?: string;
  /** OTLP/HTTP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT): traces go to `<endpoint>/v1/traces`. */
  endpoint?: string;
  /** The traces URL itself (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), in place of `endpoint`. */
  tracesUrl?: string;
  /** Instead of OTLP: an exporter of the caller's (tests use the SDK's InMemorySpanExporter). */
  exporter?: SpanExporter;
  /** Exported at once, one span at a time (tests), rather than in batches. */
  processor?: (exporter: SpanExporter) => SpanProcessor;
  /** Longest wait before a batch of spans is exported (OTEL_BSP_SCHEDULE_DELAY; default 5 s). */
  batchDelayMs?: number;
}

let provider: TracerProvider | null = null;

/**
 * Starts OpenTelemetry in this process: the W3C trace-context propagator, async context, the
 * HTTP instrumentation (a server span per request, a client span per outgoing call, e.g. a
 * webhook attempt, with `traceparent` sent along) and an exporter. Call it before anything
 * loads `http` (each service's main imports its tracing file first).
 */
export const startTracing = (options: TracingOptions): boolean => {
  const url = options.tracesUrl ?? (options.endpoint ? `${options.endpoint.replace(/\/$/, '')}/v1/traces` : undefined);
  if (provider || (!url && !options.exporter)) return false;
  const exporter = options.exporter ?? new OTLPTraceExporter({ url });
  provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.service, ...(options.instance ? { 'service.instance.id': options.instance } : {}) }),
    spanProcessors: [
      options.processor ? options.processor(exporter) : new BatchSpanProcessor({ exporter, scheduledDelayMillis: options.batchDelayMs ?? 5000 }),
    ],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  registerInstrumentations({
    tracerProvider: provider,
    // /healthz, /readyz and /metrics are polled: no trace for them.
    instrumentations: [new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => /^\/(healthz|readyz|metrics)\b/.test(req.url ?? '') })],
  });
  markTracingEnabled(true, async () => {
    const p = provider;
    provider = null;
    markTracingEnabled(false);
    await p?.shutdown().catch(() => undefined);
  });
  return true;
};
