// The tickets feature, as every process may load it: tickets' events, import input, decider
// and SLA rules (sla.ts: at risk, breached), their numbers, the import kind, the activity the SLA
// monitor records, the read model, the resource (webhook payloads use it) and the manifest. The
// API's routes are `@support/tickets/routes`; the SLA monitor is services/sla-monitor.
export * from './events';
export * from './input';
export * from './decider';
export * from './sla-events';
export * from './sla';
export * from './number-events';
export * from './number-decider';
export * from './numbers';
export * from './import';
export * from './activity';
export * from './projection';
export * from './read-model';
export * from './resource';
export * from './manifest';
