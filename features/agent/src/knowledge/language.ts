import { looksEnglish, tokenize as wordsOf } from './text';

/**
 * The languages the agent's own words (greeting, closing, "I don't know", hand-over, decline,
 * small talk) are written in besides English: the evaluation set's other languages. The
 * articles' sentences are quoted as written; the words around them follow the customer.
 */
export type Language = 'es' | 'de' | 'fr';

// Common words of each language, without accents (wordsOf strips them). Shared words ("de", "la", "que") count for each.
// prettier-ignore
const MARKERS: Record<Language, ReadonlySet<string>> = {
  es: new Set(['el', 'la', 'los', 'las', 'de', 'del', 'que', 'y', 'en', 'un', 'una', 'por', 'para', 'con', 'mi', 'mis', 'es', 'esta', 'como', 'puedo', 'tengo', 'hola', 'gracias', 'adios', 'buenas', 'buenos', 'dias', 'muchas', 'cuanto', 'cuanta', 'donde', 'cuando', 'hay', 'no', 'si', 'se', 'lo', 'su', 'al', 'me', 'usted', 'pedido', 'quiero', 'necesito', 'hasta', 'luego', 'ayuda', 'sobre', 'tienen', 'tiene', 'puede', 'pueden', 'mas', 'muy', 'pero', 'todo', 'este', 'esto', 'eso', 'hacer', 'cual']),
  de: new Set(['der', 'die', 'das', 'und', 'ist', 'ich', 'nicht', 'mit', 'wie', 'ein', 'eine', 'einen', 'fur', 'kann', 'mein', 'meine', 'wo', 'was', 'wann', 'hallo', 'danke', 'schon', 'tschuss', 'guten', 'tag', 'bitte', 'sie', 'zu', 'auf', 'den', 'dem', 'im', 'von', 'habe', 'gibt', 'hoch', 'viel', 'kostet', 'vielen', 'dank', 'servus', 'moin', 'wieso', 'warum', 'auch', 'noch', 'meinen', 'aber', 'sehr', 'alle', 'dieser', 'diese', 'oder', 'wenn', 'dass', 'ob']),
  fr: new Set(['le', 'la', 'les', 'de', 'des', 'du', 'et', 'est', 'je', 'pas', 'pour', 'avec', 'comment', 'mon', 'ma', 'mes', 'un', 'une', 'puis', 'vous', 'bonjour', 'merci', 'salut', 'revoir', 'au', 'beaucoup', 'quel', 'quelle', 'combien', 'ou', 'quand', 'ce', 'que', 'qui', 'sur', 'dans', 'il', 'elle', 'nous', 'votre', 'bonsoir', 'coucou', 'peux', 'peut', 'faire', 'avez', 'suis', 'sont', 'mais', 'tres', 'tout', 'cette', 'ces', 'aussi', 'encore', 'chez']),
};

/** The customer's language when it is one of LANGUAGES and not English: the one with the most common words, if it has strictly the most. */
export const languageOf = (message: string): Language | null => {
  if (looksEnglish(message)) return null;
  const words = wordsOf(message);
  const counts = (Object.keys(MARKERS) as Language[]).map((language) => ({ language, n: words.filter((w) => MARKERS[language].has(w)).length }));
  counts.sort((a, b) => b.n - a.n);
  return counts[0].n > 0 && counts[0].n > counts[1].n ? counts[0].language : null;
};
