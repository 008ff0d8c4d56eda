import type { Passage, SearchHit } from '../knowledge/types';
import { type Unit, unitsOf } from '../knowledge/sentences';
import type { ResponseLength } from './types';

// How an answer's sentences are cut into chat bubbles and put in order.

/** How many bubbles each response length allows. */
export const BUBBLES: Record<ResponseLength, number> = { concise: 1, balanced: 2, detailed: 4 };
/** A bubble holds at most this many sentences (a lead-in with its list counts as one; tuning half: 3 stated more facts than 2, 4 two more than 3)… */
const UNITS_PER_BUBBLE = 4;
/** …and a sentence after the first joins it only if the bubble stays this short. */
const BUBBLE_CHARS = 420;

/** Some sentences of one passage, shown as one bubble. */
export interface Chunk {
  hit: SearchHit;
  units: Unit[];
}

/**
 * The bubbles of a message's parts taken in turn (each part's best, then each part's next) up to
 * `bubbles`; with room for fewer bubbles than parts, the parts' best share the bubbles.
 */
export const interleave = (choices: readonly { chosen: Chunk[] }[], bubbles: number): Chunk[][] => {
  const limit = Math.max(bubbles, choices.length);
  const taken: Chunk[] = [];
  const said = new Set<string>();
  for (let i = 0; taken.length < limit && choices.some((c) => i < c.chosen.length); i++) {
    for (const c of choices) {
      // A sentence another part already gave is not said twice.
      const units = c.chosen[i]?.units.filter((u) => !said.has(u.text)) ?? [];
      if (units.length === 0 || taken.length === limit) continue;
      units.forEach((u) => said.add(u.text));
      taken.push({ hit: c.chosen[i].hit, units });
    }
  }
  if (taken.length <= bubbles) return taken.map((c) => [c]);
  // Fewer bubbles than parts (concise): the parts' best sentences share the bubbles.
  const size = Math.ceil(taken.length / bubbles);
  return Array.from({ length: bubbles }, (_, i) => taken.slice(i * size, (i + 1) * size)).filter((b) => b.length > 0);
};

/** A sentence that opens by leaning on the one before it ("Then go to…", "It starts with…"). */
export const CONTINUES = /^(?:then|after that|afterwards|next|it|this|that|these|those|they|there|also|otherwise|if so|if not)\b/i;
/**
 * The sentence a paragraph opening by leaning on the one before it ("They cost $30 per month
 * more.") leans on: the last of the paragraph before, under the same heading, given the index -1
 * so that it reads first; null when there is none.
 */
export const leadOf = (passage: Passage, passagesOf: ((articleId: string) => readonly Passage[]) | undefined): Unit | null => {
  const first = unitsOf(passage)[0];
  if (!first || !CONTINUES.test(first.text) || !passagesOf) return null;
  const before = passagesOf(passage.articleId).find((p) => p.index === passage.index - 1);
  if (!before || before.heading !== passage.heading) return null;
  const last = unitsOf(before).at(-1);
  return last ? { ...last, index: -1 } : null;
};
/** A sentence whose subject is a pronoun: what it is about was named before it. */
export const PRONOUN_SUBJECT = /^(?:it|this|that|these|those|they)\b/i;
/** A sentence that is itself a question. */
export const asksItself = (unit: Unit): boolean => unit.text.trimEnd().endsWith('?');

/** Units into bubbles of at most UNITS_PER_BUBBLE, each after the first only while the bubble stays short. */
export const chunk = (units: Unit[]): Unit[][] => {
  const out: Unit[][] = [];
  let current: Unit[] = [];
  let length = 0;
  for (const u of units) {
    if (current.length > 0 && (current.length >= UNITS_PER_BUBBLE || length + 1 + u.text.length > BUBBLE_CHARS)) {
      out.push(current);
      current = [];
      length = 0;
    }
    current.push(u);
    length += (length > 0 ? 1 : 0) + u.text.length;
  }
  if (current.length > 0) out.push(current);
  return out;
};
