import t from 'tap';
import { inAnotherLanguage, languageOf, wordsFor } from '@support/agent';

// The language the agent's own words follow (responders/languages.ts).

t.test("a message's language: Spanish, German or French by their common words; English and the rest keep English", async (t) => {
  t.strictSame(
    [
      '¿Puedo devolver un artículo que no he usado?',
      'Cuéntame un chiste sobre gatos',
      'Hola!',
      'Wie hoch ist die Kaution für ein Elektroauto?',
      'danke schön',
      'Est-ce que je peux amener mon chien au bureau ?',
      'merci beaucoup',
      'How do I return an item?',
      'ok bye',
      'Posso devolver um item?',
      'Quanto costa riparare lo schermo rotto del telefono?',
      'Posso usare il mio piano in Francia senza costi extra?',
    ].map(languageOf),
    ['es', 'es', 'es', 'de', 'de', 'fr', 'fr', null, null, null, null, null],
  );
});

t.test('Italian and Portuguese are told apart from Spanish and French, though the agent has no words of its own in them', async (t) => {
  const other = [
    'Quanto costa riparare lo schermo rotto del telefono?',
    'Posso usare il mio piano in Francia senza costi extra?',
    'Quanto custa o envio para o Canadá?',
    '¿Cuánto cuesta el envío a Canadá?',
    'Wie hoch ist die Kaution?',
  ];
  const english = ['How do I return an item?', 'wat does it cost', 'ok bye'];
  t.strictSame([...other, ...english].map(inAnotherLanguage), [...other.map(() => true), ...english.map(() => false)]);
});

t.test('in French, only the casual tone says "tu": the friendly and professional ones say "vous"', async (t) => {
  // Every string (or string-making function, given a name) of a tone's words, small talk included
  const texts = (tone: 'friendly' | 'professional' | 'casual'): string[] => {
    const words = wordsFor(tone, 'fr')!;
    const all: unknown[] = [...Object.values(words), ...Object.values(words.smallTalk)];
    return all.flatMap((w) => (typeof w === 'string' ? [w] : typeof w === 'function' ? [(w as (a: string, b: string) => string)('Aria', 'Acme')] : []));
  };
  const TU = /\b(?:tu|te|toi|ton|ta|tes)\b|\bt['’]/i;
  for (const tone of ['friendly', 'professional'] as const)
    t.strictSame(
      texts(tone).filter((s) => TU.test(s)),
      [],
      tone,
    );
  t.ok(
    texts('casual').some((s) => TU.test(s)),
    'casual says tu',
  );
});
