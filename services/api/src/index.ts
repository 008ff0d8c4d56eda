export { createHttpApp, BODY_LIMIT } from './http-app';
export { listen, runUntilSignal, Worker } from './server';
export { ROUTES } from './routes';
