export { Dispatcher, DispatcherOptions } from './dispatcher';
export { Notifier } from './notifier';
export { Payloads, PAYLOADS } from './payloads';
export * from './subjects';
