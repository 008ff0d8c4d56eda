import type { Middleware } from 'koa';
import { ApiError } from '../errors';
import { BODY_METHODS } from './body-methods';

interface Utf8State {
  invalid: boolean;
}

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
    // here are not the text (its inflated text is not checked). The method first: reads pass at once.
    if (
      !BODY_METHODS.has(ctx.method) ||
      (ctx.get('Content-Encoding') || 'identity').toLowerCase() !== 'identity' ||
      !ctx.is('application/json', '+json') ||
      Number(ctx.get('Content-Length') || 0) > limitBytes
    )
      return next() as Promise<void>;
    const decoder = new TextDecoder('utf-8', { fatal: true });
    const state: Utf8State = { invalid: false };
    const onData = (chunk: Buffer) => {
      if (state.invalid) return;
      try {
        decoder.decode(chunk, { stream: true });
      } catch {
        state.invalid = true;
      }
    };
    const onEnd = () => {
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
  if ((ctx.state.utf8 as Utf8State | undefined)?.invalid) throw new ApiError(400, 'The request body is not valid UTF-8');
  await next();
};
