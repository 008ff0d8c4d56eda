import { passageTerms } from '../knowledge/sentences';
import { looksEnglish, terms } from '../knowledge/text';
import type { Passage } from '../knowledge/types';

/**
 * Whether the business sells, rents or offers something no public passage names ("Do you offer
 * dentures?", "Do you sell protein shakes or supplements at reception?", "Does your app have a
 * dark mode?"): the nearest article (the whitening options, the personal-training packs) reads
 * as a yes or a guess, and only an article naming the thing can say. Such a question gets "I
 * don't know" (a person, when escalation is on).
 *
 * Every word of the thing asked for must be missing from the public passages: "Do you do those
 * clear aligner things?" is answered where an article speaks of aligners. "Is there…?" and "Can
 * I…?" questions are not judged: on the tuning half they ask as often about what an article
 * answers in other words ("Is there a cap on how far I can drive?", "a waitlist"). Only English
 * messages are judged, as for unknown names.
 */
export const unnamedOffering = (message: string, passages: () => readonly Passage[]): boolean => {
  if (!looksEnglish(message)) return false;
  const asked = OFFERS.exec(message)?.[1];
  const words = asked ? terms(asked).filter((t) => !GENERIC.has(t)) : [];
  if (words.length === 0) return false;
  const named = passages();
  return words.every((word) => !named.some((p) => passageTerms(p).has(word)));
};

/** Words that name no offering: "Do you have any idea when…", "Do you have an update?", "Do you do anything about…". */
const GENERIC = new Set(
  terms('idea ideas clue time info information detail details news update updates way ways option options anything something everything thing things help'),
);
const VERB = String.raw`(?:sell|rent|offer|stock|carry|make|provide|do|have|run|host|serve|lend|hire\s+out)s?`;
/** Where the thing asked for ends: a preposition or a clause ("protein shakes at reception", "a location in Paris"). */
const END = String.raw`(?=\s+(?:in|at|on|for|to|from|with|without|that|which|who|where|when|if|so|near|by|during|after|before|like|about|as)\b|\s*[?.!,;:]|\s*$)`;
/** "Do you (also) sell X", "Does your clinic offer X", "Do you guys rent X": the thing asked for, after an article or "any" ("Do you have to…" asks for none). */
const OFFERS = new RegExp(
  String.raw`\b(?:do|does|can|could|would|will)\s+(?:you(?:\s+guys|\s+all)?|your\s+[\p{L}-]+)\s+(?:also\s+|still\s+|even\s+|ever\s+)?${VERB}\s+(?!to\b|got\b|been\b)(?:(?:any|a|an|the|those|these|some)\s+)?([^?.!,;:]*?)${END}`,
  'iu',
);
