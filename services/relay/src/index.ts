export { Relay } from './relay';
export { configuredNotifier, Notifier } from './notifier';
