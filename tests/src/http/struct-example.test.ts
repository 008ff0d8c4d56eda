import t from 'tap';
import { int, literal, oneOf, str, struct } from '@support/http';

/** An example is part of the contract a client learns from: one its own codec refuses cannot ship. */
t.test('an example the codec refuses stops the module from loading; one it accepts is the schema’s examples', async (t) => {
  const fields = { object: literal('thing'), id: str({ pattern: /^thg_/ }), size: int({ min: 1 }), kind: oneOf(['a', 'b'] as const) };
  const ok = struct(fields, {}, { title: 'thing', example: { object: 'thing', id: 'thg_1', size: 2, kind: 'a' } });
  t.strictSame(ok.jsonSchema.examples, [{ object: 'thing', id: 'thg_1', size: 2, kind: 'a' }]);
  t.throws(
    () => struct(fields, {}, { title: 'thing', example: { object: 'thing', id: 'x_1', size: 2, kind: 'a' } }),
    /example of thing/,
    'a pattern the example breaks',
  );
  t.throws(() => struct(fields, {}, { title: 'thing', example: { object: 'thing', id: 'thg_1', size: 0, kind: 'a' } }), /example of thing/, 'a minimum');
  const loose = { object: 'thing', id: 'thg_1', size: 2, kind: 'a', extra: true } as never;
  t.throws(() => struct(fields, {}, { title: 'thing', example: loose }), /example of thing/, 'a field the struct does not have');
});
