import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths, webhooks } from './schema';

// A typed client of the API, generated from its OpenAPI document (`npm run client:generate`
// writes schema.ts; tests/src/client checks it is current and that its types catch mistakes).
export type { components, operations, paths, webhooks } from './schema';

/** The API's named schemas: `Schemas['Customer']`, `Schemas['WebhookEndpoint']`… */
export type Schemas = components['schemas'];

/** The body of a webhook delivery of type `T`, for a receiver: `WebhookEvent<'message.created'>['data']` is a Message. */
export type WebhookEvent<T extends keyof webhooks> = NonNullable<webhooks[T]['post']['requestBody']>['content']['application/json'];

/**
 * A client of the API at `baseUrl` (its `/v1` URL) with the key `key`: `GET`, `POST`, `PATCH`
 * and `DELETE` take a path of the document and answer `{ data }` or `{ error }`, both typed.
 */
export const supportClient = (baseUrl: string, key: string, options: Omit<ClientOptions, 'baseUrl'> = {}): Client<paths> =>
  createClient<paths>({ ...options, baseUrl, headers: { Authorization: `Bearer ${key}`, ...(options.headers as Record<string, string> | undefined) } });
