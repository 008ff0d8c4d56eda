export { apiDocument, apiLayers, createHttpApp } from './http-app';
export { listen, runUntilSignal } from './server';
export { ROUTES, TAGS } from './routes';
