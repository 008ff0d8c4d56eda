import { type Application, type CommandContext, keyedIds, type Principal } from '@support/application';
import type { Position } from '@support/eventstore';
import { ApiError } from './errors';
import type { Idempotency } from './mount';
import { str } from './codec/primitives';
import { struct } from './codec/struct';
import { EXAMPLE_ID } from './resources/examples';

/** An `{id}` path parameter of a kind of resource (its example is the documents' id of that kind). */
export const idParams = (kind: keyof typeof EXAMPLE_ID) => struct({ id: str({ min: 1, max: 100, description: 'The id', example: EXAMPLE_ID[kind] }) });

/** Command metadata for a request: who (the key), which request, and its Idempotency-Key (mount.ts). */
export const commandContext = (principal: Principal, requestId: string, idempotency: Idempotency | null = null): CommandContext & { workspaceId: string } => ({
  workspaceId: principal.workspaceId,
  actor: principal.keyId,
  requestId,
  ...(idempotency ? { idempotencyKey: idempotency.key, ids: keyedIds(idempotency.key, idempotency.firstSeenMs) } : {}),
});

/**
 * Read-your-writes: waits for the projector to pass the write, then reads the document the
 * client will see on its next GET. A write that was saved never answers 500: when the read
 * models have not caught up (or cannot be read), it answers 503 `write_committed` with the
 * resource's id and Retry-After, and a retry with the same Idempotency-Key (or a GET) answers
 * the resource once they have.
 */
export const readBack = async <T>(app: Application, position: Position | null, read: () => Promise<T | null>, what: string, id: string): Promise<T> => {
  const settled = await app.settle(position);
  const doc = await read().catch((err: unknown) => {
    app.log.error('a saved write could not be read back', { resource: what, id, error: err instanceof Error ? err.message : String(err) });
    return null;
  });
  if (doc) return doc;
  throw new ApiError(
    503,
    `The ${what} ${id} was saved, but the read models ${settled ? 'cannot be read' : 'have not caught up'} yet. Retry with the same Idempotency-Key, or GET it shortly.`,
    'write_committed',
    { id, resource: what },
    { 'Retry-After': '1' },
  );
};
