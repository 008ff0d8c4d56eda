import { startTracingFromEnv } from '@support/kernel/tracing-start';

// First of main's imports: OpenTelemetry starts (when OTEL_EXPORTER_OTLP_ENDPOINT is set) before `http` is loaded.
startTracingFromEnv('support-sla-monitor');
