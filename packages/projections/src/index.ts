export * from './projection';
export * from './projector';
export * from './projector-options';
export * from './checkpoint-watch';
export * from './set-aside';
export { SET_ASIDE_AFTER } from './isolate';
export * from './partition';
