import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Queries and passages are embedded differently (e5's "query: " and "passage: " prefixes). */
export type TextKind = 'query' | 'passage';

/** What embeds texts: unit-length vectors, in order. */
export interface EmbeddingModel {
  readonly name: string;
  readonly dimensions: number;
  embed(texts: readonly string[], kind: TextKind): Promise<Float32Array[]>;
  close(): Promise<void>;
}

/** The files scripts/fetch-model.sh puts in the model folder. */
export const MODEL_FILES = ['e5-small-q4.bin', 'e5-embed'] as const;

/** `EMBEDDING_MODEL_DIR`, else `<repo>/models/multilingual-e5-small`. */
export const defaultModelDir = (env: NodeJS.ProcessEnv = process.env): string =>
  env.EMBEDDING_MODEL_DIR !== undefined && env.EMBEDDING_MODEL_DIR !== ''
    ? resolve(env.EMBEDDING_MODEL_DIR)
    : resolve(__dirname, '../../../../models/multilingual-e5-small');

/** Names of MODEL_FILES missing from a folder ([] when complete). */
export const missingModelFiles = (modelDir: string): string[] => MODEL_FILES.filter((f) => !existsSync(join(modelDir, f)));

/** Texts per model call: a call's texts run in parallel on the cores, so a few dozen keep them busy. */
const BATCH = 32;
/** Longest text sent, in UTF-16 units (e5 reads 512 tokens; longer texts are averaged over windows). */
const MAX_CHARS = 8_000;
/**
 * Longest question embedded: its start and its end (where a long message states and asks), at
 * most one window of the model. Search's words still come from the whole message. A customer
 * question is rarely a tenth of it (the evaluation set's longest: 153); a 10,000-character
 * message took about 5 s of the model, and a dozen of them from one workspace held every
 * other workspace's questions for a minute (an attacker's trial).
 */
export const MAX_QUERY_CHARS = 1_000;
/**
 * Questions up to this long go first, in batches of their own; longer ones go LONG_BATCH at a
 * time (one per core), so a question waits behind one such batch at most, not a dozen.
 */
const SHORT_QUERY_CHARS = 300;
const LONG_BATCH = 2;

/** A question as it is embedded: whole when short, else its first and last halves of MAX_QUERY_CHARS. */
export const queryText = (text: string): string =>
  text.length <= MAX_QUERY_CHARS ? text : `${text.slice(0, MAX_QUERY_CHARS / 2)} … ${text.slice(-MAX_QUERY_CHARS / 2)}`;

interface Waiting {
  text: string;
  done(vector: Float32Array | Error): void;
}

interface Pending {
  count: number;
  resolve(vectors: Float32Array[]): void;
  reject(err: Error): void;
}

/**
 * multilingual-e5-small run by `e5-embed` (features/agent/native/e5-embed.c), a child process
 * that the framed requests reach over stdin: the model's work never blocks the event loop,
 * and a crash of the model takes down only the child (the next call starts another).
 * Calls are queued by kind; while one model call runs, the texts that arrive wait and go
 * together in the next (under load, fifty customers' questions are one call, not fifty).
 */
export class E5Model implements EmbeddingModel {
  readonly name = 'multilingual-e5-small';
  private child: ChildProcess | null = null;
  private readonly inFlight: Pending[] = [];
  private readonly waiting: Record<TextKind, Waiting[]> = { query: [], passage: [] };
  private running = false;
  private received: Buffer = Buffer.alloc(0);
  private closed = false;

  /** Known once the start-up probe has run (384). */
  private dims = 0;

  private constructor(
    readonly modelDir: string,
    /** Told when the model process ends unasked (a crash): the next call starts another. */
    private readonly onExit: (why: string) => void,
  ) {}

  get dimensions(): number {
    return this.dims;
  }

  /** Starts the model, or returns why it cannot run (files missing, the binary failing). Never throws. */
  static async load(modelDir: string = defaultModelDir(), onExit: (why: string) => void = () => undefined): Promise<E5Model | string> {
    const dir = resolve(modelDir);
    const missing = missingModelFiles(dir);
    if (missing.length > 0) return `no model in ${dir} (missing ${missing.join(', ')}; run scripts/fetch-model.sh)`;
    const model = new E5Model(dir, onExit);
    try {
      const [probe] = await model.embed(['probe'], 'query');
      model.dims = probe.length;
      return model;
    } catch (e) {
      await model.close();
      return `the model in ${dir} failed to run (${(e as Error).message})`;
    }
  }

  embed(texts: readonly string[], kind: TextKind): Promise<Float32Array[]> {
    if (this.closed) return Promise.reject(new Error('embedding model closed'));
    if (texts.length === 0) return Promise.resolve([]);
    const vectors = Promise.all(
      texts.map(
        (text) =>
          new Promise<Float32Array>((resolve, reject) => {
            this.waiting[kind].push({
              text: kind === 'query' ? queryText(text) : text.slice(0, MAX_CHARS),
              done: (v) => (v instanceof Error ? reject(v) : resolve(v)),
            });
          }),
      ),
    );
    this.pump();
    return vectors;
  }

  close(): Promise<void> {
    this.closed = true;
    const closed = new Error('embedding model closed');
    for (const w of [...this.waiting.query.splice(0), ...this.waiting.passage.splice(0)]) w.done(closed);
    for (const p of this.inFlight.splice(0)) p.reject(closed);
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.stdin?.end();
      setTimeout(() => child.kill('SIGKILL'), 2_000).unref();
    });
  }

  /** Sends the waiting texts, a batch of one kind at a time, until none wait. */
  private pump(): void {
    if (this.running) return;
    const kind: TextKind | null = this.waiting.query.length > 0 ? 'query' : this.waiting.passage.length > 0 ? 'passage' : null;
    if (kind === null) return;
    this.running = true;
    const batch = kind === 'query' ? this.shortFirst() : this.waiting.passage.splice(0, BATCH);
    this.call(
      batch.map((b) => b.text),
      kind,
    )
      .then(
        (vectors) => batch.forEach((b, i) => b.done(vectors[i])),
        (err: Error) => batch.forEach((b) => b.done(err)),
      )
      .finally(() => {
        this.running = false;
        this.pump();
      });
  }

  /** The next batch of questions: the short ones that wait, in arrival order; else the first long ones. */
  private shortFirst(): Waiting[] {
    const waiting = this.waiting.query;
    const short = waiting.filter((w) => w.text.length <= SHORT_QUERY_CHARS);
    const batch = short.length > 0 ? short.slice(0, BATCH) : waiting.slice(0, LONG_BATCH);
    const taken = new Set(batch);
    this.waiting.query = waiting.filter((w) => !taken.has(w));
    return batch;
  }

  private process(): ChildProcess {
    if (this.child && this.child.exitCode === null && !this.child.killed) return this.child;
    const child = spawn(join(this.modelDir, 'e5-embed'), [join(this.modelDir, 'e5-small-q4.bin')], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-500)));
    child.stdout.on('data', (d: Buffer) => this.onData(d));
    const fail = (why: string) => {
      if (this.child !== child) return; // closed, or already reported ('error' then 'exit')
      this.child = null;
      this.received = Buffer.alloc(0);
      const message = `${why}${stderr ? `: ${stderr.trim()}` : ''}`;
      for (const p of this.inFlight.splice(0)) p.reject(new Error(message));
      if (this.dims > 0) this.onExit(message);
    };
    child.on('error', (e) => fail(`e5-embed could not run (${e.message})`));
    child.on('exit', (code, signal) => fail(`e5-embed exited (${signal ?? code})`));
    child.stdin.on('error', () => undefined); // a write after the child died: 'exit' reports it
    this.child = child;
    return child;
  }

  private call(texts: string[], kind: TextKind): Promise<Float32Array[]> {
    return new Promise((resolve, reject) => {
      const child = this.process();
      const parts: Buffer[] = [Buffer.alloc(5)];
      parts[0].writeUInt32LE(texts.length, 0);
      parts[0].writeUInt8(kind === 'query' ? 1 : 0, 4);
      for (const t of texts) {
        const bytes = Buffer.from(t.replace(/\0/g, ' '), 'utf8');
        const length = Buffer.alloc(4);
        length.writeUInt32LE(bytes.length, 0);
        parts.push(length, bytes);
      }
      this.inFlight.push({ count: texts.length, resolve, reject });
      child.stdin!.write(Buffer.concat(parts));
    });
  }

  /** Replies come in request order: status, dimensions, then count × dimensions float32. */
  private onData(data: Buffer): void {
    this.received = this.received.length === 0 ? data : Buffer.concat([this.received, data]);
    while (this.inFlight.length > 0 && this.received.length >= 8) {
      const p = this.inFlight[0];
      const status = this.received.readUInt32LE(0);
      const dims = this.received.readUInt32LE(4);
      const size = 8 + dims * 4 * p.count;
      if (this.received.length < size) return;
      this.inFlight.shift();
      const body = this.received.subarray(8, size);
      this.received = this.received.subarray(size);
      if (status !== 0) {
        p.reject(new Error('e5-embed could not embed a batch'));
        continue;
      }
      // Copied out: the receive buffer is reused; a Float32Array needs 4-byte alignment.
      const all = new Float32Array(new Uint8Array(body).buffer);
      p.resolve(Array.from({ length: p.count }, (_, i) => all.subarray(i * dims, (i + 1) * dims)));
    }
  }
}
