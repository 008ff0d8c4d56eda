import { terms } from '../knowledge/text';
import { pointsBack } from './follow-up';

/**
 * Words that open a question of its own ("…, and how many sensors can I add?"), a question word
 * after its preposition too ("…, and until when can I cancel?", "…, and for how long?").
 */
const ASKS =
  "(?:(?:until|till|by|since|for|from|in|at|to|on|with|about)\\s+(?:what|when|how|which|where|who|whom)|what|what's|how|which|when|where|who|why|can|could|do|does|did|is|are|will|would|should|may)";
/** "…need, and how many…", "…? Also, can I…": a new question joined to the one before. */
const JOINED = new RegExp(`(?:,\\s*|\\s+)(?:and|also|plus|&)\\s*,?\\s+(?=${ASKS}\\b)`, 'i');
const OPENS_AS_QUESTION = new RegExp(`^(?:(?:and|also|plus)\\s*,?\\s+)?${ASKS}\\b`, 'i');
/** Words of a part besides its question words ("and why?" has none). */
const substance = (part: string): number => terms(part.replace(new RegExp(`\\b${ASKS}\\b`, 'gi'), ' ')).length;
/** At most this many parts are answered one by one (a longer list is answered as one question). */
export const MAX_QUESTION_PARTS = 3;

/**
 * The separate questions in one message: "What's the yearly price of Pro, and how many days of
 * history does it keep?" is two, each looked up and answered on its own (searched as one, the
 * closest passage answers one half and the other is lost). A part is a question: it ends with
 * "?" or opens with a question word, and it has a word of substance ("and why?" has none). Anything else
 * (one question, "voltage and amperage", "Is it free? I mean for students") is one part: the
 * message itself. A part is answered from what its `query` finds, by its own `text`.
 */
export const questionParts = (message: string): { text: string; query: string }[] => {
  const parts = splitQuestions(message);
  // A part that points back ("…and how long does it work?") is searched with the one before it.
  return parts.map((text, i) => ({ text, query: i > 0 && pointsBack(text) ? `${parts[i - 1]}\n${text}` : text }));
};

/** The message's questions, or the message alone when it is not two or three questions. */
const splitQuestions = (message: string): string[] => {
  const pieces = message
    .split(/(?<=\?)\s+/)
    .flatMap((sentence) => sentence.split(JOINED))
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (pieces.length < 2 || pieces.length > MAX_QUESTION_PARTS) return [message];
  const questions = pieces.every((p) => (p.endsWith('?') || OPENS_AS_QUESTION.test(p)) && substance(p) > 0);
  return questions ? pieces : [message];
};
