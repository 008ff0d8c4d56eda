export { createHttpApp } from './http-app';
export { listen, runUntilSignal, Worker } from './server';
export { ROUTES } from './routes';
