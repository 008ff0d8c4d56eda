// A process's HTTP server (health probes, and the API when it serves one), on its own entry
// point (`@support/http/server`): the workers serve their probes without loading the API.
export * from './health';
export * from './serve';
