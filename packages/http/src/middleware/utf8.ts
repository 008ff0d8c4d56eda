import { brotliDecompressSync, unzipSync } from 'node:zlib';
import type { Middleware } from 'koa';
import { ApiError } from '../errors';
import { BODY_METHODS } from './body-methods';

interface Utf8State {
  invalid: boolean;
  /** A compressed body's bytes as they came, inflated and checked once the parser is done. */
  compressed?: { encoding: string; chunks: Buffer[]; limitBytes: number };
}

/** The encodings the body parser inflates (its `inflation`: gzip and deflate alike through unzip). */
const INFLATE = new Map<string, (b: Buffer, limitBytes: number) => Buffer>([
  ['gzip', (b, limitBytes) => unzipSync(b, { maxOutputLength: limitBytes })],
  ['deflate', (b, limitBytes) => unzipSync(b, { maxOutputLength: limitBytes })],
  ['br', (b, limitBytes) => brotliDecompressSync(b, { maxOutputLength: limitBytes })],
]);

/** false when the inflated bytes are not UTF-8 (the parser read them, so they inflate). */
const inflatesToUtf8 = ({ encoding, chunks, limitBytes }: NonNullable<Utf8State['compressed']>) => {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(INFLATE.get(encoding)!(Buffer.concat(chunks), limitBytes));
    return true;
  } catch {
    return false;
  }
};

/**
 * Spec 1: requests are JSON in UTF-8. The body parser decodes bytes that are not UTF-8 as
 * U+FFFD, which would store a mangled value (even in an e-mail address). `utf8Watch` reads the
 * same chunks as the parser, through a fatal decoder; `utf8Check`, after the parser, refuses
 * such a body (400). Mount them around the body parser, `utf8Watch` right before it: its
 * listeners must be attached in the same tick as the parser's, before the stream flows.
 */
export const utf8Watch =
  (limitBytes: number): Middleware =>
  async (ctx, next) => {
    // Only a body the parser will read: watching one it refuses unread (too large, not JSON)
    // would set the stream flowing and spoil the connection's reuse. A compressed body's bytes
    // here are not the text: they are kept, and inflated by utf8Check once the parser has read
    // them (so only a body it took). The method first: reads pass at once.
    const encoding = (ctx.get('Content-Encoding') || 'identity').toLowerCase();
    if (
      !BODY_METHODS.has(ctx.method) ||
      (encoding !== 'identity' && !INFLATE.has(encoding)) ||
      !ctx.is('application/json', '+json') ||
      Number(ctx.get('Content-Length') || 0) > limitBytes
    )
      return next() as Promise<void>;
    const decoder = new TextDecoder('utf-8', { fatal: true });
    const state: Utf8State = { invalid: false, ...(encoding !== 'identity' ? { compressed: { encoding, chunks: [], limitBytes } } : {}) };
    const onData = (chunk: Buffer) => {
      if (state.compressed) return void state.compressed.chunks.push(chunk);
      if (state.invalid) return;
      try {
        decoder.decode(chunk, { stream: true });
      } catch {
        state.invalid = true;
      }
    };
    const onEnd = () => {
      if (state.compressed) return;
      try {
        decoder.decode();
      } catch {
        state.invalid = true;
      }
    };
    ctx.req.on('data', onData);
    ctx.req.once('end', onEnd);
    ctx.state.utf8 = state;
    try {
      await next();
    } finally {
      // Leave the request as the parser left it (a body it refused, say a 413, is not read on).
      ctx.req.off('data', onData);
      ctx.req.off('end', onEnd);
    }
  };

export const utf8Check: Middleware = async (ctx, next) => {
  const state = ctx.state.utf8 as Utf8State | undefined;
  if (state?.invalid || (state?.compressed && !inflatesToUtf8(state.compressed))) throw new ApiError(400, 'The request body is not valid UTF-8');
  await next();
};
