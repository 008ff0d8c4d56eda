export * from './schema';
export * from './primitives';
export * from './struct';
export * from './report';
