// The resources (codecs and mappers), on their own entry point (`@support/http/resources`):
// the dispatcher serializes webhook payloads with them without loading the API.
export * from './common';
export * from './examples';
export * from './meta';
