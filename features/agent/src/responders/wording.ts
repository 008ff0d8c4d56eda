import { languageOf, wordsFor } from './languages';
import type { Question, Tone } from './types';

export interface Wording {
  greeting: string;
  closing: string;
  unknown: string;
}

/** What the tone changes: the greeting of the first bubble, the closing of the last, the "I don't know". */
export const WORDING: Record<Tone, Wording> = {
  professional: {
    greeting: 'Thank you for your question.',
    closing: 'Please let me know if there is anything else I can help you with.',
    unknown:
      'Thank you for your question. Unfortunately, I could not find information about this in our help center. Could you rephrase your question or add a few details?',
  },
  friendly: {
    greeting: 'Hi there!',
    closing: 'I hope that helps!',
    unknown: "Hi there! I'm sorry, I couldn't find anything about that in our help articles. Could you try asking in a different way?",
  },
  casual: {
    greeting: 'Hey!',
    closing: 'Anything else?',
    unknown: "Hey! Hmm, I couldn't find anything on that in our docs. Mind asking another way?",
  },
};

/**
 * A title that already reads as a direct question ("How do I export sales", "Can I rent a
 * reader", "What happens when a payment fails") — not an indirect one like "How card data is
 * protected" or "When you receive your money".
 */
const DIRECT_QUESTION =
  /^(?:(?:how|what|where|which|who|why|when)\s+(?:do|does|did|can|could|should|will|would|is|are|was|to|much|many|long|often|happens|if)|why|can|could|do|does|is|are|should|will|would|may)\b/i;

/** A related article offered as a quick reply, phrased as the customer's next message. */
export const quickReplyFor = (title: string): string => {
  const clean = title.trim().replace(/\s+/g, ' ');
  if (clean.endsWith('?')) return clean;
  if (DIRECT_QUESTION.test(clean)) return `${clean.replace(/[.!:;]+$/, '')}?`;
  return `Tell me about "${clean}"`;
};

/** "I don't know", without its greeting once the agent has already answered in this conversation. */
export const withoutGreeting = (question: Question, { greeting, unknown }: { greeting: string; unknown: string }): string => {
  const answered = question.history.some((h) => h.role === 'ai');
  return answered && unknown.startsWith(greeting) ? unknown.slice(greeting.length).trimStart() : unknown;
};

/** The greeting, closing and "I don't know" in the tone, and in the customer's language when it is one of languages.ts. */
export const wordingOf = (question: Question) =>
  wordsFor(question.settings.tone, languageOf(question.message)) ?? WORDING[question.settings.tone] ?? WORDING.friendly;
