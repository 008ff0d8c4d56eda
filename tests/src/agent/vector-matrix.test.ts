import fc from 'fast-check';
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import wabt from 'wabt';
import { VectorMatrix } from '@support/agent';
import { checkProperty, expectSame, propertySeed } from '../support/property';

// The passages' matrix gives each row's dot product with a query, by WebAssembly SIMD where the
// dimension allows it and by the JavaScript loop otherwise: the same scores either way.

const seed = propertySeed();
t.comment(`fast-check seed ${seed} (replay with FC_SEED=${seed})`);

const ROOT = join(__dirname, '../../..');
const exact = (q: Float32Array, row: Float32Array) => q.reduce((s, v, i) => s + v * row[i], 0);

t.test('the committed module is wasm/dot.wat assembled (node scripts/assemble-wasm.mjs writes it)', async (t) => {
  const wat = readFileSync(join(ROOT, 'features/agent/wasm/dot.wat'), 'utf8');
  const assembled = (await wabt()).parseWat('dot.wat', wat, { simd: true }).toBinary({}).buffer;
  const committed = /DOT_WASM_BASE64 =\s*'([^']*)'/.exec(readFileSync(join(ROOT, 'features/agent/src/knowledge/dot-wasm.ts'), 'utf8'))?.[1];
  t.strictSame(Buffer.from(assembled).toString('base64'), committed);
});

t.test('SIMD runs on this Node for dimensions that are multiples of 8; the loop for others, or when asked', async (t) => {
  const row = new Float32Array(384).fill(0.5);
  t.equal(new VectorMatrix([row], 384).simd, true);
  t.equal(new VectorMatrix([row], 384, false).simd, false);
  t.equal(new VectorMatrix([new Float32Array(3)], 3).simd, false);
  t.equal(new VectorMatrix([], 384).simd, true);
  t.strictSame([...new VectorMatrix([], 384).scores(row)], []);
});

t.test('any rows, any query, at and beyond a page of memory: SIMD and the loop give each row its dot product', async (t) => {
  const unit = (d: number) =>
    fc.array(fc.float({ min: -1, max: 1, noNaN: true, noDefaultInfinity: true }), { minLength: d, maxLength: d }).map((xs) => Float32Array.from(xs));
  const input = fc
    .record({ d: fc.constantFrom(8, 16, 384), rows: fc.nat({ max: 60 }) })
    .chain(({ d, rows }) => fc.record({ d: fc.constant(d), query: unit(d), rows: fc.array(unit(d), { minLength: rows, maxLength: rows }) }));
  await checkProperty(
    seed,
    fc.property(input, ({ d, query, rows }) => {
      const want = rows.map((r) => exact(query, r));
      for (const simd of [true, false]) {
        const matrix = new VectorMatrix(rows, d, simd);
        // A range of rows (a passage's sentences) is that part of the whole.
        const [start, end] = [Math.floor(rows.length / 3), Math.ceil((2 * rows.length) / 3)];
        const part = [...matrix.scores(query, start, end)];
        const got = [...matrix.scores(query)];
        expectSame(part, got.slice(start, end), `simd ${simd}, rows ${start} to ${end}`);
        if (got.length !== want.length) throw new Error(`simd ${simd}: ${got.length} scores for ${want.length} rows`);
        got.forEach((g, i) => {
          if (Math.abs(g - want[i]) > 1e-4 * Math.max(1, Math.abs(want[i]))) throw new Error(`simd ${simd}, row ${i}: ${g}, not ${want[i]}`);
        });
      }
    }),
    100,
  );
  // Beyond one 64 KiB page: 200 rows of 384 floats.
  const rows = Array.from({ length: 200 }, (_, i) => Float32Array.from({ length: 384 }, (_, j) => ((i * 7 + j) % 13) / 13 - 0.5));
  const q = Float32Array.from({ length: 384 }, (_, j) => (j % 5) / 5 - 0.4);
  const m = new VectorMatrix(rows, 384);
  t.ok(m.bytes > 65_536);
  t.strictSame(
    [...m.scores(q)].map((x) => x.toFixed(3)),
    rows.map((r) => exact(q, r).toFixed(3)),
  );
});

t.test('a row or query of another dimension, or rows out of range, are refused', async (t) => {
  t.throws(() => new VectorMatrix([new Float32Array(8)], 8).scores(new Float32Array(8), 0, 2), /rows 0 to 2 are not within the 1 rows/);
  t.throws(() => new VectorMatrix([new Float32Array(8)], 8).scores(new Float32Array(8), 1, 0), /rows 1 to 0/);
  t.throws(() => new VectorMatrix([new Float32Array(8), new Float32Array(7)], 8), /row 1 has 7 dimensions, not 8/);
  t.throws(() => new VectorMatrix([new Float32Array(8)], 8).scores(new Float32Array(16)), /the query has 16 dimensions, not 8/);
});
