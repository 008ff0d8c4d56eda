export { SlaMonitor } from './monitor';
export { TicketResponses } from './responses';
