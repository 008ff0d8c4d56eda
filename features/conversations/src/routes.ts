// The API's part of the feature: the conversations' and messages' routes.
export * from './conversation-routes';
export * from './message-routes';
