import t from 'tap';
import { languageOf } from '@support/agent';

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
    ].map(languageOf),
    ['es', 'es', 'es', 'de', 'de', 'fr', 'fr', null, null, null],
  );
});
