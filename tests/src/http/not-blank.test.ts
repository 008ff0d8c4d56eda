import t from 'tap';
import { isBlank } from '@support/domain';
import { NOT_BLANK_SCHEMA } from '@support/http';

// The request codecs refuse blank text by isBlank; the OpenAPI document says it with a pattern.

t.test('the schema pattern and isBlank agree on every character of the Basic Multilingual Plane', async (t) => {
  const pattern = new RegExp(NOT_BLANK_SCHEMA.pattern as string, 'u');
  const disagree: string[] = [];
  for (let c = 0; c <= 0xffff; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue; // lone surrogates are refused before (unfitText)
    const ch = String.fromCharCode(c);
    if (isBlank(ch) === pattern.test(ch)) disagree.push(`U+${c.toString(16).padStart(4, '0')}`);
  }
  t.strictSame(disagree, []);
  // Characters that render as nothing are blank: Hangul fillers, the blank Braille pattern, a variation selector
  t.strictSame(['\u3164', '\u115f\u1160', '\u2800', '\ufe0f', '\uffa0', ' \u3164 '].map(isBlank), [true, true, true, true, true, true]);
  t.strictSame(['a\u3164', '\u2801'].map(isBlank), [false, false]);
});
