import { type Application, perApplication, Scoped } from '@support/application';
import { WEBHOOK_ENDPOINTS, type WebhookEndpointDocument } from './projection';

/** The endpoints' read model: a workspace's own (`scoped`), and every workspace's for the dispatcher and notifier (`all`). */
export const endpointsOf = perApplication((app: Application) => {
  const all = app.engines.reads.collection<WebhookEndpointDocument>(WEBHOOK_ENDPOINTS);
  return { all, scoped: new Scoped(all) };
});
