// The webhook-endpoints feature, as every process may load it: the endpoints' events, decider,
// commands and read model, the webhook records (the /events log and deliveries) and their ids,
// and the manifest. The API's part (resources and routes) is `@support/webhook-endpoints/routes`.
// Signing, the URL guard and sending are the library `@support/webhooks`; delivering is the
// dispatcher's (services/dispatcher).
export * from './event-types';
export * from './events';
export * from './decider';
export * from './commands';
export * from './projection';
export * from './read-model';
export * from './ids';
export * from './records';
export * from './manifest';
