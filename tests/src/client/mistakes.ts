import { supportClient, type WebhookEvent } from '@support/client';

/*
 * Mistakes the generated client's types must refuse. Never run: it only has to compile, and each
 * @ts-expect-error fails the build (`npm test` builds first) if the line under it compiles, so a
 * document that stops typing a body, an enum or a required field turns the suite red.
 */
export const mistakes = async (api: ReturnType<typeof supportClient>): Promise<void> => {
  // @ts-expect-error a misspelled field (`emial`)
  await api.POST('/customers', { body: { emial: 'a@example.org' } });
  // @ts-expect-error no email, phone or external_id: the identity rule is a union
  await api.POST('/customers', { body: { name: 'Nobody' } });
  // @ts-expect-error an event type that does not exist
  await api.POST('/webhook_endpoints', { body: { url: 'https://example.org/h', enabled_events: ['customer.deleted'] } });
  // @ts-expect-error `enabled_events` is a list, not a number
  await api.POST('/webhook_endpoints', { body: { url: 'https://example.org/h', enabled_events: 42 } });
  // @ts-expect-error a conversation's customer is an object, not a string
  await api.POST('/conversations', { body: { customer: 'cus_1' } });
  // @ts-expect-error the message body's `content` is required
  await api.POST('/conversations/{id}/messages', { params: { path: { id: 'conv_1' } }, body: {} });
  // @ts-expect-error a channel that does not exist
  await api.POST('/conversations', { body: { channel: 'fax' } });
  // @ts-expect-error a path that does not exist
  await api.GET('/customer');
  const { data } = await api.GET('/customers/{id}', { params: { path: { id: 'cus_1' } } });
  // @ts-expect-error without checking `error` first, `data` may be undefined
  void data.email;
};

/** A webhook receiver's mistakes: each event type's body is typed by the document's `webhooks`. */
export const receiverMistakes = (event: WebhookEvent<'message.created'>, ping: WebhookEvent<'ping'>): void => {
  // @ts-expect-error a message has no `email`
  void event.data.email;
  // @ts-expect-error the type is the literal `message.created`
  const other: 'customer.created' = event.type;
  void other;
  // @ts-expect-error a ping's data is the endpoint, with no `content`
  void ping.data.content;
  // @ts-expect-error an event type that does not exist
  type _Missing = WebhookEvent<'customer.deleted'>;
};
