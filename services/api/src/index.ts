export { createHttpApp, BODY_LIMIT } from './http-app';
export { listen, runUntilSignal } from './server';
export { ROUTES } from './routes';
