import * as t from 'io-ts';
import { eventCodec, PLANS } from '@support/domain';

const plan = t.keyof(Object.fromEntries(PLANS.map((p) => [p, null])) as Record<(typeof PLANS)[number], null>);

export const WorkspaceCreated = eventCodec(
  'workspace.created',
  t.intersection([
    t.type({ id: t.string, name: t.string, slug: t.string, plan, credits: t.number, sla_tracking: t.boolean }),
    /** Where workspace notices (a disabled webhook endpoint) are mailed. */
    t.partial({ email: t.union([t.string, t.null]) }),
  ]),
);
export const WorkspaceUpdated = eventCodec(
  'workspace.updated',
  t.partial({
    plan,
    credits: t.number,
    sla_tracking: t.boolean,
    email: t.union([t.string, t.null]),
  }),
);

/** An AI reply's price, taken from the balance (`turn_id` ties it to the reply it paid for). */
export const CreditsCharged = eventCodec('workspace.credits_charged', t.type({ amount: t.number, turn_id: t.string, conversation_id: t.string }));
/** A charge given back: its turn failed after the charge, so no reply was recorded. */
export const CreditsRefunded = eventCodec('workspace.credits_refunded', t.type({ amount: t.number, turn_id: t.string }));

export const WorkspaceEvent = t.union([WorkspaceCreated, WorkspaceUpdated, CreditsCharged, CreditsRefunded]);
export type WorkspaceEvent = t.TypeOf<typeof WorkspaceEvent>;
