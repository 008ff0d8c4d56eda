import type { Application, CommandContext, Principal } from '@support/application';
import type { Position } from '@support/eventstore';
import { str, struct } from '@support/http';

export const idParams = struct({ id: str({ min: 1, max: 100 }) });

/** Command metadata for a request: who (the key) and which request. */
export const commandContext = (principal: Principal, requestId: string): CommandContext & { workspaceId: string } => ({
  workspaceId: principal.workspaceId,
  actor: principal.keyId,
  requestId,
});

/**
 * Read-your-writes: waits for the projector to pass the write, then reads the document the
 * client will see on its next GET.
 */
export const readBack = async <T>(app: Application, position: Position | null, read: () => Promise<T | null>, what: string): Promise<T> => {
  await app.settle(position);
  const doc = await read();
  if (!doc) throw new Error(`${what} is not in the read model after the write settled`);
  return doc;
};
