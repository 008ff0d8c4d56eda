/**
 * The ids and times the document's examples share, so that one example's customer is the
 * next one's `customer_id` (well-formed ULIDs: each passes its resource's id rule).
 */
export const EXAMPLE_ID = {
  workspace: 'ws_01JDQ738RQ6GWFQEQZ5HH397XC',
  customer: 'cus_01JDQ5ASHBTBPZ44902DN3Z5SS',
  tag: 'tag_01JDQ91NG0TZJEF5Y4BSYFTVJQ',
  ticket: 'tkt_01JDQ7V8SGHMYR784VHPEK6EG4',
  article: 'kb_01JDQBSRRKKFA5EK77RF0MD2TR',
  cannedResponse: 'cr_01JDQ5RYH4W3D4VYW3TYDPVSGY',
  channel: 'ch_01JDQC3H49PC80PANP4V6TA732',
  conversation: 'conv_01JDQ573AMMH5VK2GQ48NE5T43',
  message: 'msg_01JDQSPX8E061YGKBGWTNTCWXM',
  webhookEndpoint: 'we_01JDQYZ71X5WEVHBQ5NN46R4Y5',
  event: 'evt_01JDQVE8J9MA7G7867210JCZDW',
  delivery: 'whd_01JDQGT3ZRS2P0N5F150AAT9VK',
} as const;

/** Creation, then a later change. */
export const EXAMPLE_AT = { created: '2026-11-02T09:14:27.301Z', updated: '2026-11-02T09:16:05.118Z' } as const;
