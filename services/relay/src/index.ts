export { Relay } from './relay';
export { configuredNotifier, Notifier, NOTIFIER_RETRY } from './notifier';
