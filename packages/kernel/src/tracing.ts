import { context, type Context, propagation, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

/**
 * Traces (OpenTelemetry) that follow a write to its webhook. The trace context travels in each
 * event's metadata as a W3C `traceparent`, so a projector, the relay, a dispatcher or an
 * attempt hours later continues the trace of the request that appended the event. Off unless
 * a process starts the SDK (tracing-sdk.ts, when OTEL_EXPORTER_OTLP_ENDPOINT is set): then
 * nothing here does any work.
 */
let enabled = false;
let stop: (() => Promise<void>) | null = null;
export const tracingEnabled = (): boolean => enabled;
/** Called by the SDK's start (with how to stop it): from now on spans are made and contexts carried. */
export const markTracingEnabled = (on: boolean, stopSdk: (() => Promise<void>) | null = null): void => {
  enabled = on;
  stop = stopSdk;
};
/** Exports the spans not yet sent and stops tracing (a service's last step on SIGTERM); nothing when it is off. */
export const stopTracing = (): Promise<void> => stop?.() ?? Promise.resolve();

const tracer = () => trace.getTracer('support-platform');

/** The W3C `traceparent` of a context (default: the active one); undefined when it holds no span. */
export const traceparentOf = (ctx: Context = context.active()): string | undefined => {
  if (!enabled) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  return carrier.traceparent;
};

/** The context a `traceparent` names (the root context when there is none). */
export const contextOf = (traceparent: string | undefined): Context => (traceparent ? propagation.extract(ROOT_CONTEXT, { traceparent }) : ROOT_CONTEXT);

export interface SpanOptions {
  /**
   * The parent, as a `traceparent` (an event's): the span continues that trace, and none is made
   * when it is undefined (an event appended while tracing was off, or a catch-up of old events,
   * makes no trace of its own). Absent: a child of the active context.
   */
  parent?: string;
  kind?: 'internal' | 'producer' | 'consumer' | 'client';
  attributes?: Record<string, string | number | boolean>;
}
const KINDS = { internal: SpanKind.INTERNAL, producer: SpanKind.PRODUCER, consumer: SpanKind.CONSUMER, client: SpanKind.CLIENT };

/** Starts a span (null when tracing is off): end it with `endSpan`. */
export const startSpan = (name: string, options: SpanOptions = {}): Span | null => {
  if (!enabled) return null;
  if ('parent' in options && !options.parent) return null;
  const parent = 'parent' in options ? contextOf(options.parent) : context.active();
  return tracer().startSpan(name, { kind: KINDS[options.kind ?? 'internal'], attributes: options.attributes }, parent);
};

export const endSpan = (span: Span | null, error?: unknown): void => {
  if (!span) return;
  if (error !== undefined) {
    const message = error instanceof Error ? error.message : JSON.stringify(error);
    span.recordException(error instanceof Error ? error : message);
    span.setStatus({ code: SpanStatusCode.ERROR, message });
  }
  span.end();
};

/** Runs `work` in a span of its own (the active one meanwhile), ended when it settles. */
export const inSpan = async <T>(name: string, options: SpanOptions, work: () => Promise<T>): Promise<T> => {
  const span = startSpan(name, options);
  if (!span) return work();
  try {
    const result = await context.with(trace.setSpan(context.active(), span), work);
    endSpan(span);
    return result;
  } catch (err) {
    endSpan(span, err);
    throw err;
  }
};

/** The `traceparent` of a span (to record beside work that goes on later, e.g. a delivery). */
export const traceparentOfSpan = (span: Span | null): string | undefined => (span ? traceparentOf(trace.setSpan(context.active(), span)) : undefined);

/** Names the active span (the HTTP server span) after the route, once the router has matched. */
export const nameActiveSpan = (name: string, attributes: Record<string, string | number>): void => {
  if (!enabled) return;
  const span = trace.getActiveSpan();
  if (!span) return;
  span.updateName(name);
  span.setAttributes(attributes);
};
