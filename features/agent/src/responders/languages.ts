import type { SmallTalk } from '../rules/small-talk';
import type { Language } from '../knowledge/language';
import type { Tone } from './types';

export { languageOf, type Language } from '../knowledge/language';

export interface Words {
  greeting: string;
  closing: string;
  unknown: string;
  handoff: string;
  noHandoff: (business: string) => string;
  decline: (who: string, business: string) => string;
  /** Who answers when the agent keeps its default name. */
  assistant: (business: string) => string;
  smallTalk: Record<SmallTalk, string>;
}

const ES = (business: string) => `el asistente de IA de ${business}`;
const DE = (business: string) => `der KI-Assistent von ${business}`;
const FR = (business: string) => `l'assistant IA de ${business}`;

export const WORDS: Record<Language, Record<Tone, Words>> = {
  es: {
    professional: {
      greeting: 'Gracias por su pregunta.',
      closing: 'Quedo a su disposición para cualquier otra consulta.',
      unknown:
        'Gracias por su pregunta. Lamentablemente, no he encontrado información sobre esto en nuestro centro de ayuda. ¿Podría reformular su pregunta o añadir algún detalle?',
      handoff: 'Gracias por su paciencia. Paso su conversación a un miembro de nuestro equipo, que le responderá aquí en breve.',
      noHandoff: (b) =>
        `No puedo ponerle en contacto con un miembro de nuestro equipo en este chat, pero con gusto le ayudo con cualquier pregunta sobre ${b}.`,
      decline: (who, b) => `Soy ${who} y solo puedo ayudarle con preguntas sobre ${b}. ¿En qué puedo ayudarle?`,
      assistant: ES,
      smallTalk: {
        greeting: 'Hola, gracias por escribirnos. ¿En qué puedo ayudarle?',
        thanks: 'De nada. ¿Hay algo más en lo que pueda ayudarle?',
        goodbye: 'Gracias por contactarnos. Que tenga un buen día.',
        praise: 'Gracias por sus amables palabras. ¿En qué más puedo ayudarle?',
      },
    },
    friendly: {
      greeting: '¡Hola!',
      closing: '¡Espero que te sirva!',
      unknown: '¡Hola! Lo siento, no he encontrado nada sobre eso en nuestros artículos de ayuda. ¿Puedes preguntarlo de otra forma?',
      handoff: 'Te paso con una persona de nuestro equipo: ¡te responderá aquí en cuanto pueda!',
      noHandoff: (b) => `No puedo pasarte con una persona en este chat, ¡pero te ayudo encantado con cualquier pregunta sobre ${b}!`,
      decline: (who, b) => `Soy ${who}, así que solo puedo ayudarte con preguntas sobre ${b}. ¿En qué te puedo ayudar?`,
      assistant: ES,
      smallTalk: {
        greeting: '¡Hola! ¿En qué te puedo ayudar hoy?',
        thanks: '¡De nada! ¿Te ayudo con algo más?',
        goodbye: '¡Hasta pronto, que tengas un buen día!',
        praise: '¡Gracias, qué amable! ¿En qué más te puedo ayudar?',
      },
    },
    casual: {
      greeting: '¡Hey!',
      closing: '¿Algo más?',
      unknown: '¡Hey! Mmm, no encuentro nada sobre eso en nuestra documentación. ¿Lo preguntas de otra forma?',
      handoff: 'Vale, aviso a alguien del equipo. ¡Te responderá aquí pronto!',
      noHandoff: (b) => `Nadie del equipo puede unirse a este chat, ¡lo siento! Pero pregúntame lo que quieras sobre ${b}.`,
      decline: (who, b) => `Soy ${who}: solo puedo ayudarte con temas de ${b}. ¿Qué necesitas?`,
      assistant: ES,
      smallTalk: { greeting: '¡Hey! ¿Qué puedo hacer por ti?', thanks: '¡Nada! ¿Algo más?', goodbye: '¡Hasta luego!', praise: '¡Gracias! ¿Algo más?' },
    },
  },
  de: {
    professional: {
      greeting: 'Vielen Dank für Ihre Frage.',
      closing: 'Lassen Sie mich gern wissen, wenn ich Ihnen noch weiterhelfen kann.',
      unknown:
        'Vielen Dank für Ihre Frage. Leider habe ich dazu in unserem Hilfe-Center nichts gefunden. Könnten Sie Ihre Frage umformulieren oder ein paar Details ergänzen?',
      handoff: 'Vielen Dank für Ihre Geduld. Ich gebe Ihr Gespräch an ein Mitglied unseres Teams weiter, das Ihnen hier in Kürze antwortet.',
      noHandoff: (b) => `In diesem Chat kann ich Sie leider nicht mit unserem Team verbinden, aber ich helfe Ihnen gern bei allen Fragen zu ${b}.`,
      decline: (who, b) => `Ich bin ${who} und kann nur bei Fragen zu ${b} helfen. Wie kann ich Ihnen helfen?`,
      assistant: DE,
      smallTalk: {
        greeting: 'Guten Tag, vielen Dank für Ihre Nachricht. Wie kann ich Ihnen helfen?',
        thanks: 'Gern geschehen. Kann ich Ihnen sonst noch helfen?',
        goodbye: 'Vielen Dank für Ihre Nachricht. Einen schönen Tag noch.',
        praise: 'Vielen Dank für die freundlichen Worte. Wie kann ich Ihnen sonst helfen?',
      },
    },
    friendly: {
      greeting: 'Hallo!',
      closing: 'Ich hoffe, das hilft dir!',
      unknown: 'Hallo! Leider habe ich dazu nichts in unseren Hilfeartikeln gefunden. Kannst du es anders formulieren?',
      handoff: 'Ich gebe dich an eine Person aus unserem Team weiter: Sie antwortet dir hier, so schnell es geht!',
      noHandoff: (b) => `Ich kann dich in diesem Chat nicht mit einer Person verbinden, aber ich helfe dir gern bei allen Fragen zu ${b}!`,
      decline: (who, b) => `Ich bin ${who} und kann dir nur bei Fragen zu ${b} helfen. Wobei kann ich dir helfen?`,
      assistant: DE,
      smallTalk: {
        greeting: 'Hallo! Wie kann ich dir heute helfen?',
        thanks: 'Gern geschehen! Kann ich dir sonst noch helfen?',
        goodbye: 'Tschüss, hab einen schönen Tag!',
        praise: 'Danke, das ist nett von dir! Wobei kann ich dir noch helfen?',
      },
    },
    casual: {
      greeting: 'Hey!',
      closing: 'Sonst noch was?',
      unknown: 'Hey! Hmm, dazu finde ich nichts in unserer Doku. Magst du es anders fragen?',
      handoff: 'Alles klar, ich hole jemanden aus dem Team. Du bekommst hier bald eine Antwort!',
      noHandoff: (b) => `Aus dem Team kann leider niemand in diesen Chat kommen! Aber frag mich alles zu ${b}.`,
      decline: (who, b) => `Ich bin ${who}: Ich helfe nur bei Themen rund um ${b}. Was brauchst du?`,
      assistant: DE,
      smallTalk: {
        greeting: 'Hey! Was kann ich für dich tun?',
        thanks: 'Kein Problem! Sonst noch was?',
        goodbye: 'Bis dann!',
        praise: 'Danke! Sonst noch was?',
      },
    },
  },
  fr: {
    professional: {
      greeting: 'Merci pour votre question.',
      closing: "N'hésitez pas à me dire si je peux vous aider pour autre chose.",
      unknown:
        "Merci pour votre question. Malheureusement, je n'ai pas trouvé d'information à ce sujet dans notre centre d'aide. Pourriez-vous reformuler votre question ou ajouter quelques détails ?",
      handoff: 'Merci de votre patience. Je transmets votre conversation à un membre de notre équipe, qui vous répondra ici sous peu.',
      noHandoff: (b) =>
        `Je ne peux pas vous mettre en relation avec un membre de notre équipe dans ce chat, mais je vous aide volontiers pour toute question sur ${b}.`,
      decline: (who, b) => `Je suis ${who} et je ne peux vous aider que sur des questions concernant ${b}. Comment puis-je vous aider ?`,
      assistant: FR,
      smallTalk: {
        greeting: 'Bonjour, merci de nous avoir contactés. Comment puis-je vous aider ?',
        thanks: 'Je vous en prie. Puis-je vous aider pour autre chose ?',
        goodbye: 'Merci de nous avoir contactés. Bonne journée.',
        praise: 'Merci pour vos aimables paroles. Comment puis-je vous aider davantage ?',
      },
    },
    // Warm, but "vous": a French business says "tu" to a customer only when it means to be casual.
    friendly: {
      greeting: 'Bonjour !',
      closing: "J'espère que cela vous aide !",
      unknown: "Bonjour ! Désolé, je n'ai rien trouvé à ce sujet dans nos articles d'aide. Pourriez-vous reformuler votre question ?",
      handoff: 'Je vous passe une personne de notre équipe : elle vous répondra ici dès que possible !',
      noHandoff: (b) => `Je ne peux pas vous mettre en relation avec une personne dans ce chat, mais je vous aide volontiers pour toute question sur ${b} !`,
      decline: (who, b) => `Je suis ${who}, donc je ne peux vous aider que sur des questions concernant ${b}. Comment puis-je vous aider ?`,
      assistant: FR,
      smallTalk: {
        greeting: "Bonjour ! Comment puis-je vous aider aujourd'hui ?",
        thanks: 'Avec plaisir ! Puis-je vous aider pour autre chose ?',
        goodbye: 'À bientôt, bonne journée !',
        praise: "Merci, c'est très gentil ! Que puis-je faire d'autre pour vous ?",
      },
    },
    casual: {
      greeting: 'Salut !',
      closing: 'Autre chose ?',
      unknown: 'Salut ! Hmm, je ne trouve rien là-dessus dans notre doc. Tu peux demander autrement ?',
      handoff: "OK, j'appelle quelqu'un de l'équipe. On te répond ici bientôt !",
      noHandoff: (b) => `Personne de l'équipe ne peut rejoindre ce chat, désolé ! Mais demande-moi ce que tu veux sur ${b}.`,
      decline: (who, b) => `Je suis ${who} : je ne peux t'aider que sur ${b}. Tu as besoin de quoi ?`,
      assistant: FR,
      smallTalk: { greeting: 'Salut ! Je peux faire quoi pour toi ?', thanks: 'De rien ! Autre chose ?', goodbye: 'À plus !', praise: 'Merci ! Autre chose ?' },
    },
  },
};

/** The agent's own words in the customer's language and the agent's tone, when not English. */
export const wordsFor = (tone: Tone, language: Language | null): Words | null => (language ? (WORDS[language][tone] ?? WORDS[language].friendly) : null);
