import { looksEnglish, tokenize as wordsOf } from './text';

/**
 * The languages the agent's own words (greeting, closing, "I don't know", hand-over, decline,
 * small talk) are written in besides English: the evaluation set's other languages. The
 * articles' sentences are quoted as written; the words around them follow the customer.
 */
export type Language = 'es' | 'de' | 'fr';

/**
 * Languages told apart only so that their messages are not taken for another's: the agent has no
 * words of its own in them (an Italian question got a Spanish greeting), so it answers around the
 * quoted articles in English, and puts no word right as an English slip.
 */
type Unworded = 'it' | 'pt';

// Common words of each language, without accents (wordsOf strips them). Shared words ("de", "la", "que") count for each.
// prettier-ignore
const MARKERS: Record<Language | Unworded, ReadonlySet<string>> = {
  es: new Set(['el', 'la', 'los', 'las', 'de', 'del', 'que', 'y', 'en', 'un', 'una', 'por', 'para', 'con', 'mi', 'mis', 'es', 'esta', 'como', 'puedo', 'tengo', 'hola', 'gracias', 'adios', 'buenas', 'buenos', 'dias', 'muchas', 'cuanto', 'cuanta', 'donde', 'cuando', 'hay', 'no', 'si', 'se', 'lo', 'su', 'al', 'me', 'usted', 'pedido', 'quiero', 'necesito', 'hasta', 'luego', 'ayuda', 'sobre', 'tienen', 'tiene', 'puede', 'pueden', 'mas', 'muy', 'pero', 'todo', 'este', 'esto', 'eso', 'hacer', 'cual']),
  de: new Set(['der', 'die', 'das', 'und', 'ist', 'ich', 'nicht', 'mit', 'wie', 'ein', 'eine', 'einen', 'fur', 'kann', 'mein', 'meine', 'wo', 'was', 'wann', 'hallo', 'danke', 'schon', 'tschuss', 'guten', 'tag', 'bitte', 'sie', 'zu', 'auf', 'den', 'dem', 'im', 'von', 'habe', 'gibt', 'hoch', 'viel', 'kostet', 'vielen', 'dank', 'servus', 'moin', 'wieso', 'warum', 'auch', 'noch', 'meinen', 'aber', 'sehr', 'alle', 'dieser', 'diese', 'oder', 'wenn', 'dass', 'ob']),
  it: new Set(['il', 'lo', 'la', 'gli', 'le', 'di', 'del', 'della', 'dei', 'che', 'e', 'per', 'con', 'mio', 'mia', 'miei', 'sono', 'posso', 'quanto', 'quanta', 'costa', 'come', 'dove', 'quando', 'non', 'un', 'una', 'nel', 'nella', 'anche', 'ho', 'ciao', 'grazie', 'buongiorno', 'buonasera', 'vorrei', 'perche', 'cosa', 'questo', 'questa', 'puo', 'essere', 'fare', 'ancora', 'molto', 'tutto', 'ai', 'al', 'alla', 'sul', 'sulla', 'mi', 'ci', 'vostro', 'vostra', 'usare', 'senza', 'quale', 'qual']),
  pt: new Set(['o', 'a', 'os', 'as', 'de', 'do', 'da', 'dos', 'das', 'que', 'e', 'em', 'no', 'na', 'um', 'uma', 'por', 'para', 'com', 'meu', 'minha', 'posso', 'quanto', 'custa', 'como', 'onde', 'quando', 'nao', 'ola', 'obrigado', 'obrigada', 'voce', 'voces', 'tem', 'eu', 'isso', 'este', 'esta', 'tambem', 'mais', 'muito', 'pelo', 'pela', 'seu', 'sua', 'usar', 'sem', 'qual', 'preciso', 'quero']),
  fr: new Set(['le', 'la', 'les', 'de', 'des', 'du', 'et', 'est', 'je', 'pas', 'pour', 'avec', 'comment', 'mon', 'ma', 'mes', 'un', 'une', 'puis', 'vous', 'bonjour', 'merci', 'salut', 'revoir', 'au', 'beaucoup', 'quel', 'quelle', 'combien', 'ou', 'quand', 'ce', 'que', 'qui', 'sur', 'dans', 'il', 'elle', 'nous', 'votre', 'bonsoir', 'coucou', 'peux', 'peut', 'faire', 'avez', 'suis', 'sont', 'mais', 'tres', 'tout', 'cette', 'ces', 'aussi', 'encore', 'chez']),
};

/** The language a message is in when it is not English: the one with the most common words, if it has strictly the most. */
const detected = (message: string): Language | Unworded | null => {
  if (looksEnglish(message)) return null;
  const words = wordsOf(message);
  const counts = (Object.keys(MARKERS) as (Language | Unworded)[]).map((language) => ({ language, n: words.filter((w) => MARKERS[language].has(w)).length }));
  counts.sort((a, b) => b.n - a.n);
  return counts[0].n > 0 && counts[0].n > counts[1].n ? counts[0].language : null;
};

/** The customer's language when the agent has words of its own in it (not English); null: English words. */
export const languageOf = (message: string): Language | null => {
  const language = detected(message);
  return language === 'it' || language === 'pt' ? null : language;
};

/** Whether a message is in a language other than English that is told apart, with words of the agent's own or not. */
export const inAnotherLanguage = (message: string): boolean => detected(message) !== null;
