export { Dispatcher, DispatcherOptions } from './dispatcher';
export { Payloads, PAYLOADS } from './payloads';
