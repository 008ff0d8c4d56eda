import type { Passage, SearchHit } from '../knowledge/types';
import type { Question } from './types';

/**
 * Where an answer's sentences may come from: the relevant hits, best first, then the passages of
 * the best one's article that search did not rank among them (a price under its own heading, a
 * duration in the next paragraph), in article order, then those of the articles the best one
 * sends its reader to by title (`referredTo`: "Remember to send back your router (see Returning
 * your equipment)" answers "is there a penalty if I don't send it back?" there).
 */
export const candidates = (question: Question, relevant: SearchHit[]): SearchHit[] => {
  if (relevant.length === 0) return relevant;
  const have = new Set(relevant.map((h) => h.passage.id));
  const more = [...(question.passagesOf?.(relevant[0].passage.articleId) ?? []), ...referred(question, relevant)].filter((p) => !have.has(p.id));
  return [...relevant, ...more.map((passage): SearchHit => ({ passage, score: 0 }))];
};

const referred = (question: Question, relevant: readonly SearchHit[]): readonly Passage[] => question.referredTo?.(relevant[0].passage) ?? [];

/** The rank of a passage of an article the best hit refers to, followed: after the best hit's own sentences, before the other hits'. */
export const REFERRED = 0.5;
