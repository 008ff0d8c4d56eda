import type { TracingOptions } from './tracing-sdk';

/**
 * Starts OpenTelemetry from the standard environment when it names an exporter:
 * OTEL_EXPORTER_OTLP_ENDPOINT (traces to `<it>/v1/traces`) or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
 * (used as given); OTEL_SERVICE_NAME overrides `service`; OTEL_BSP_SCHEDULE_DELAY (ms) bounds
 * the wait before a batch is exported. Otherwise nothing, and the SDK is never loaded.
 */
export const startTracingFromEnv = (service: string, env: NodeJS.ProcessEnv = process.env): boolean => {
  const tracesUrl = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || undefined;
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT || undefined;
  if (!tracesUrl && !endpoint) return false;
  const delay = Number(env.OTEL_BSP_SCHEDULE_DELAY);
  const options: TracingOptions = {
    service: env.OTEL_SERVICE_NAME ?? service,
    instance: env.INSTANCE_ID,
    tracesUrl,
    endpoint,
    batchDelayMs: env.OTEL_BSP_SCHEDULE_DELAY !== undefined && Number.isFinite(delay) && delay >= 0 ? delay : undefined,
  };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('./tracing-sdk') as typeof import('./tracing-sdk')).startTracing(options);
};
