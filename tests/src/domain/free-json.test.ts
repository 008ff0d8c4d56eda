import fc from 'fast-check';
import t from 'tap';
import { freeJsonProblem } from '@support/domain';
import { atLimits, beyondLimits, goodObject, withOneViolation } from '../support/free-json-arb';
import { checkProperty, propertySeed } from '../support/property';

const seed = propertySeed();
t.comment(`fast-check seed ${seed} (FC_SEED=${seed} replays it)`);

t.test('values at every limit are accepted', async (t) => {
  for (const value of atLimits()) t.strictSame(freeJsonProblem(value), null, JSON.stringify(value).slice(0, 60));
});

t.test('each value beyond a limit is refused, naming the path and the limit', async (t) => {
  for (const bad of beyondLimits()) {
    const problem = freeJsonProblem(bad.value);
    t.strictSame(problem?.path.join('.'), bad.path, bad.name);
    t.match(problem?.message, bad.says, bad.name);
  }
});

t.test('nesting far past the limit is refused without walking it (no stack overflow)', async (t) => {
  let value: unknown = 1;
  for (let i = 0; i < 200_000; i++) value = { a: value };
  t.match(freeJsonProblem({ a: value })?.message, /deeper than 20 levels/);
  t.match(freeJsonProblem({ a: JSON.parse('{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000)) })?.message, /deeper than/);
});

t.test('property: generated objects within the limits pass; one violation anywhere fails', async () => {
  await checkProperty(
    seed,
    fc.property(goodObject, (value) => freeJsonProblem(value) === null),
    300,
  );
  await checkProperty(
    seed,
    fc.property(withOneViolation, ({ value }) => freeJsonProblem(value) !== null),
    300,
  );
});

t.test('an item of an array (an attachment) must not be an array itself', async (t) => {
  t.strictSame(freeJsonProblem([1, 2], { inArray: true }), { path: [], message: 'must not be an array directly inside an array (put it in an object)' });
  t.strictSame(freeJsonProblem({ list: [1, 2] }, { inArray: true }), null);
});
