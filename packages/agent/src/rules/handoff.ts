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

/** True when the customer asks for a person. */
export const asksForPerson = (message: string): boolean => ASKS_FOR_PERSON.test(message.normalize('NFC'));

const HANDOFF: Record<Tone, string> = {
  professional: 'Thank you for your patience. I am passing your conversation to a member of our team, who will reply here shortly.',
  friendly: "I'm handing you over to a person on our team: they'll reply here as soon as they can!",
  casual: "Got it, I'm getting someone from the team. They'll reply here soon!",
};

/** The one bubble telling the customer a person takes over, in the agent's tone. */
export const handoffReply = (tone: Tone): string => HANDOFF[tone] ?? HANDOFF.friendly;
