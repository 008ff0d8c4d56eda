/**
 * The API's version, and the release's: in `GET /`, the OpenAPI document, the MCP server's
 * handshake and each process's health. Its own module: the worker processes read it without
 * loading the API's code.
 */
export const API_VERSION = '1.0.0';
