import type { Tone } from '../responders/types';

/** "Can I talk to a person?", in the languages the agent meets most. */
const ASKS_FOR_PERSON = new RegExp(
  [
    String.raw`\b(?:talk|speak|chat)\s+(?:to|with)\s+(?:a|an|some|your)?\s*(?:one|body)?\s*(?:real\s+)?(?:human|person|agent|representative|rep|someone|somebody|staff|operator)\b`,
    String.raw`\b(?:real|live)\s+(?:person|human|agent)\b`,
    String.raw`\bhuman\s+(?:please|agent|support)\b`,
    String.raw`\bhablar\s+con\s+(?:una\s+persona|un\s+agente|un\s+humano|alguien)\b`,
    String.raw`\b(?:mit\s+einem|einen)\s+(?:menschen|mitarbeiter|berater)\b`,
    String.raw`\bparler\s+(?:a|à)\s+(?:un\s+humain|une\s+personne|un\s+agent|un\s+conseiller|quelqu'un)\b`,
  ].join('|'),
  'i',
);

/** "Are you a real person?", "is this a bot?": a question about who answers, not a request for someone else. */
const ASKS_WHO_ANSWERS = /\b(?:are\s+you|is\s+this|is\s+that)\s+(?:a\s+|an\s+)?(?:real\s+|live\s+|actual\s+)?(?:person|human|bot|robot|machine|ai)\b/i;
/** Asking to talk to someone, which a question about who answers may still do ("are you a bot? I want to talk to a human"). */
const ASKS_TO_TALK = /\b(?:talk|speak|chat)\s+(?:to|with)\b/i;

/** True when the customer asks for a person. */
export const asksForPerson = (message: string): boolean => {
  const text = message.normalize('NFC');
  if (!ASKS_FOR_PERSON.test(text)) return false;
  return !ASKS_WHO_ANSWERS.test(text) || ASKS_TO_TALK.test(text);
};

const HANDOFF: Record<Tone, string> = {
  professional: 'Thank you for your patience. I am passing your conversation to a member of our team, who will reply here shortly.',
  friendly: "I'm handing you over to a person on our team: they'll reply here as soon as they can!",
  casual: "Got it, I'm getting someone from the team. They'll reply here soon!",
};

/** The one bubble telling the customer a person takes over, in the agent's tone. */
export const handoffReply = (tone: Tone): string => HANDOFF[tone] ?? HANDOFF.friendly;
