import { DOT_WASM_BASE64 } from './dot-wasm';

/** Four running sums: about 1.4× the plain loop on V8. */
export const dot = (a: Float32Array, b: Float32Array): number => {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < a.length; i += 4) {
    s0 += a[i] * b[i];
    s1 += a[i + 1] * b[i + 1];
    s2 += a[i + 2] * b[i + 2];
    s3 += a[i + 3] * b[i + 3];
  }
  for (; i < a.length; i++) s0 += a[i] * b[i];
  return s0 + s1 + s2 + s3;
};

/** The little of WebAssembly used here (neither lib ES2022 nor @types/node 20 declares it). */
interface Wasm {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number }) => { buffer: ArrayBuffer };
}
const wasm = (globalThis as { WebAssembly?: Wasm }).WebAssembly;

/** The SIMD module (wasm/dot.wat), or null where WebAssembly SIMD does not run (e.g. node --jitless). */
const simd: object | null = (() => {
  const bytes = Buffer.from(DOT_WASM_BASE64, 'base64');
  try {
    return wasm?.validate(bytes) ? new wasm.Module(bytes) : null;
  } catch {
    return null;
  }
})();

const PAGE = 65_536;

/**
 * Row vectors of one dimension, one after another in one block of memory, so that a query's
 * dot product with every row is one call: WebAssembly SIMD (four lanes, two accumulators) where
 * it runs and the dimension is a multiple of 8, about 7× the JavaScript loop (777 passages of
 * 384 dimensions: 26 µs against 180 µs); else that loop over the same rows. The SIMD sums are
 * float32, so a score can differ from the JavaScript one in the sixth decimal.
 */
export class VectorMatrix {
  private readonly floats: Float32Array;
  private readonly scoresOf: ((query: Float32Array, start: number, end: number) => Float32Array) | null;
  readonly rows: number;
  /** Memory held, in bytes. */
  readonly bytes: number;

  constructor(
    rows: readonly Float32Array[],
    readonly dimensions: number,
    useSimd = true,
  ) {
    // Layout, in floats: the query, then one score per row, then the rows.
    const query = 0;
    const out = dimensions;
    const matrix = dimensions + rows.length;
    const size = (matrix + rows.length * dimensions) * 4;
    this.rows = rows.length;
    this.bytes = size;
    const run = useSimd && simd !== null && dimensions % 8 === 0 && dimensions > 0 ? simd : null;
    const memory = run && wasm ? new wasm.Memory({ initial: Math.max(1, Math.ceil(size / PAGE)) }) : null;
    this.floats = memory ? new Float32Array(memory.buffer, 0, size / 4) : new Float32Array(size / 4);
    rows.forEach((row, i) => {
      if (row.length !== dimensions) throw new RangeError(`row ${i} has ${row.length} dimensions, not ${dimensions}`);
      this.floats.set(row, matrix + i * dimensions);
    });
    if (run && wasm && memory) {
      const scores = new wasm.Instance(run, { env: { memory } }).exports.scores as (q: number, m: number, n: number, d: number, o: number) => void;
      this.scoresOf = (q, start, end) => {
        this.floats.set(q, query);
        scores(query * 4, (matrix + start * dimensions) * 4, end - start, dimensions, (out + start) * 4);
        return this.floats.subarray(out + start, out + end);
      };
    } else this.scoresOf = null;
  }

  /** Whether the SIMD module computes the scores. */
  get simd(): boolean {
    return this.scoresOf !== null;
  }

  /**
   * The query's dot product with each row from `start` to before `end` (all by default), in row
   * order. The array is reused by the next call: read it before calling again.
   */
  scores(query: Float32Array, start = 0, end = this.rows): Float32Array {
    if (query.length !== this.dimensions) throw new RangeError(`the query has ${query.length} dimensions, not ${this.dimensions}`);
    if (!(Number.isInteger(start) && Number.isInteger(end) && 0 <= start && start <= end && end <= this.rows))
      throw new RangeError(`rows ${start} to ${end} are not within the ${this.rows} rows`);
    if (this.scoresOf) return this.scoresOf(query, start, end);
    const results = this.floats.subarray(this.dimensions + start, this.dimensions + end);
    const base = this.dimensions + this.rows;
    for (let i = start; i < end; i++) {
      results[i - start] = dot(query, this.floats.subarray(base + i * this.dimensions, base + (i + 1) * this.dimensions));
    }
    return results;
  }
}
