import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync, truncateSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

const HASH_BYTES = 32;

/**
 * Embeddings kept on disk across restarts, so a restart does not embed every passage again (a
 * few hundred passages take the model about ten seconds on two cores). One append-only file per
 * model: records of the sha256 of (kind, text) and the vector. Loaded whole at start; appended
 * as vectors are made. A record cut short by a crash is dropped at the next load; one append is
 * one write of under 4 KiB with O_APPEND, so processes sharing the file do not interleave.
 * Losing the file loses nothing: the vectors are made again.
 */
export class VectorFile {
  private readonly vectors = new Map<string, Float32Array>();
  private fd: number | null = null;

  private constructor(
    readonly path: string,
    readonly dimensions: number,
  ) {}

  /** Opens (or creates) the file and loads its records. */
  static open(path: string, dimensions: number): VectorFile {
    const file = new VectorFile(path, dimensions);
    mkdirSync(dirname(path), { recursive: true });
    const record = HASH_BYTES + dimensions * 4;
    if (existsSync(path)) {
      const size = statSync(path).size;
      const whole = size - (size % record);
      if (whole !== size) truncateSync(path, whole);
      const data = readFileSync(path);
      for (let at = 0; at + record <= whole; at += record) {
        const key = data.subarray(at, at + HASH_BYTES).toString('hex');
        file.vectors.set(key, new Float32Array(new Uint8Array(data.subarray(at + HASH_BYTES, at + record)).buffer));
      }
    }
    file.fd = openSync(path, 'a');
    return file;
  }

  static key(kind: string, text: string): string {
    return createHash('sha256').update(kind).update('\0').update(text).digest('hex');
  }

  get size(): number {
    return this.vectors.size;
  }

  get(key: string): Float32Array | undefined {
    return this.vectors.get(key);
  }

  put(key: string, vector: Float32Array): void {
    if (this.vectors.has(key) || vector.length !== this.dimensions) return;
    this.vectors.set(key, vector);
    if (this.fd === null) return;
    const record = Buffer.alloc(HASH_BYTES + vector.length * 4);
    Buffer.from(key, 'hex').copy(record, 0);
    Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).copy(record, HASH_BYTES);
    writeSync(this.fd, record);
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
