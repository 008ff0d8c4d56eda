import type { AnyProjection } from './projection';

/**
 * Splits projections into at most `groups` groups of about equal work, for a rebuild that runs
 * one worker per group. A projection's work is taken as the number of the log's events of the
 * types it handles (`counts`), or 1 each when the log cannot count them. Heaviest first, each
 * to the group with the least so far (longest-processing-time first); groups keep the order
 * the projections were given in, and none is empty.
 */
export const partitionProjections = (projections: readonly AnyProjection[], groups: number, counts: Record<string, number> | null): AnyProjection[][] => {
  const weight = (p: AnyProjection) => (counts ? p.handles.reduce((sum, type) => sum + (counts[type] ?? 0), 0) : 1);
  const n = Math.max(1, Math.min(groups, projections.length));
  const load = new Array<number>(n).fill(0);
  const groupOf = new Map<AnyProjection, number>();
  const byWeight = projections.map((p, i) => ({ p, i, w: weight(p) })).sort((a, b) => b.w - a.w || a.i - b.i);
  for (const { p, w } of byWeight) {
    const g = load.indexOf(Math.min(...load));
    load[g] += w;
    groupOf.set(p, g);
  }
  return Array.from({ length: n }, (_, g) => projections.filter((p) => groupOf.get(p) === g)).filter((group) => group.length > 0);
};
