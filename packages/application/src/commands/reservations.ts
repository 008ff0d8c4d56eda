import { createHash } from 'node:crypto';
import { DomainEvent, ReservationEvent, reservationDecider } from '@support/domain';
import { DomainFailure } from '../errors';
import { Aggregate, CommandContext, Deps, execute, load, withoutIdempotency } from './execute';
import type { Part } from './execute-together';

const reservation: Aggregate<Parameters<typeof reservationDecider.decide>[0], ReservationEvent, { owner: string | null }> = {
  decider: reservationDecider,
  codec: ReservationEvent,
};

export type ReservationKind = 'customer_email' | 'customer_phone' | 'customer_external_id' | 'tag_name' | 'workspace_slug';

/** A reservation stream per unique value; the value is hashed so any text makes a valid stream name. */
export const reservationStream = (kind: ReservationKind, scope: string, value: string): string =>
  `reservation-${kind}_${createHash('sha256').update(`${scope}\u0000${value}`).digest('hex').slice(0, 40)}`;

/** How long a claim whose owner never appeared is respected (its creator may still be writing). */
const ORPHAN_GRACE_MS = 2000;
const POLL_MS = 50;

export type ClaimResult = { ok: true } | { ok: false; owner: string };

/**
 * Set-wide uniqueness (tag names, customer identities, slugs). The claim is made by appending
 * to the value's stream with optimistic concurrency, so two racing requests cannot both win.
 */
export class Reservations {
  constructor(private readonly deps: Deps) {}

  /** The value's reservation as it stands (its owner; the revision `claimPart` expects). */
  load(stream: string) {
    return load(this.deps, reservation, stream);
  }

  /** The claim of a free value as a part of `executeTogether` (with what it is claimed for). */
  claimPart(stream: string, owner: string, loaded: { state: { owner: string | null }; revision: number | null }): Part<unknown, DomainEvent, unknown> {
    return { aggregate: reservation as Aggregate<unknown, DomainEvent, unknown>, stream, command: { type: 'claim', owner }, loaded };
  }

  /**
   * Claims `stream` for `owner`. When another owner holds it, `isLive` decides whether that
   * owner really exists: a claim left behind by a crashed creator is taken over once the
   * grace period shows its owner is not coming.
   */
  async claim(ctx: CommandContext, stream: string, owner: string, isLive: (owner: string) => Promise<boolean>): Promise<ClaimResult> {
    const deadline = Date.now() + ORPHAN_GRACE_MS;
    for (;;) {
      try {
        await execute(this.deps, withoutIdempotency(ctx), reservation, stream, { type: 'claim', owner });
        return { ok: true };
      } catch (err) {
        if (!(err instanceof DomainFailure) || err.error.kind !== 'conflict' || typeof err.error.details?.owner !== 'string') throw err;
        const holder = err.error.details.owner;
        if (await isLive(holder)) return { ok: false, owner: holder };
        if (Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, POLL_MS));
          continue;
        }
        try {
          await execute(this.deps, withoutIdempotency(ctx), reservation, stream, { type: 'take_over', owner, from: holder });
          return { ok: true };
        } catch (again) {
          if (again instanceof DomainFailure && again.error.kind === 'conflict') continue;
          throw again;
        }
      }
    }
  }

  async release(ctx: CommandContext, stream: string, owner: string): Promise<void> {
    await execute(this.deps, withoutIdempotency(ctx), reservation, stream, { type: 'release', owner });
  }
}
