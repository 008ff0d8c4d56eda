export * from './catalog';
export * from './imports';
