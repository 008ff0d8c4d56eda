/**
 * A place in the global log. It has EventStoreDB's shape (commit and prepare positions,
 * 64-bit); the embedded store uses its sequence number for both.
 */
export interface Position {
  readonly commit: bigint;
  readonly prepare: bigint;
}

export const START: Position = { commit: -1n, prepare: -1n };

export const comparePositions = (a: Position, b: Position): number =>
  a.commit === b.commit ? (a.prepare === b.prepare ? 0 : a.prepare < b.prepare ? -1 : 1) : a.commit < b.commit ? -1 : 1;

/** Text form for checkpoints and CLI flags: "commit/prepare", or one number when both are equal. */
export const formatPosition = (p: Position): string => (p.commit === p.prepare ? `${p.commit}` : `${p.commit}/${p.prepare}`);

export const parsePosition = (text: string): Position => {
  const m = /^(-?\d+)(?:\/(-?\d+))?$/.exec(text.trim());
  if (!m) throw new Error(`not a log position: "${text}"`);
  const commit = BigInt(m[1]);
  return { commit, prepare: m[2] === undefined ? commit : BigInt(m[2]) };
};

/** Fixed-width text that sorts like the position, for storing beside documents (`_pos`). */
export const positionKey = (p: Position): string => `${p.commit.toString().padStart(20, '0')}/${p.prepare.toString().padStart(20, '0')}`;
