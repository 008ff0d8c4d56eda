import { DomainFailure, EngineUnavailable } from '@support/application';
import { FORBIDDEN_KEY } from './codec/primitives';

/** An error meant for the client: its message, status, code and details are safe to show. */
export class ApiError extends Error {
  readonly status: number;
  readonly code?: string;
  readonly details?: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(status: number, message: string, code?: string, details?: Record<string, unknown>, headers: Record<string, string> = {}) {
    // A client error needs no stack, and capturing one is the dearest part of a 401 or 404.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
    this.headers = headers;
  }
}

/** The largest JSON body accepted (docs/guides/errors.md: 1 MiB); the body parser and the 413 message use it. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Spec section 7, plus `documentation_url`: where the reference page documents this error (as GitHub's and Stripe's errors link theirs). */
export const envelope = (status: number, message: string, code?: string, details?: Record<string, unknown>, documentationUrl?: string) => ({
  success: false as const,
  error: {
    message,
    statusCode: status,
    ...(code ? { code } : {}),
    ...(details ? { details } : {}),
    ...(documentationUrl ? { documentation_url: documentationUrl } : {}),
  },
});

export const notFound = (what: string, id: string) => new ApiError(404, `No such ${what}: '${id}'`, 'not_found');

const DOMAIN_STATUS = {
  validation: [400, 'validation_error'],
  not_found: [404, 'not_found'],
  conflict: [409, 'conflict'],
  plan_limit: [403, 'PLAN_LIMIT_REACHED'],
} as const;

/** The one mapping of every error to the envelope; unknown errors become an opaque 500. */
export const toApiError = (err: unknown): ApiError | null => {
  if (err instanceof ApiError) return err;
  if (err instanceof DomainFailure) {
    const [status, code] = DOMAIN_STATUS[err.error.kind];
    return new ApiError(status, err.error.message, code, err.error.details);
  }
  // A passing condition: the same request may be sent again (a write with its Idempotency-Key,
  // which answers what it saved if the engine failed after the append).
  if (err instanceof EngineUnavailable)
    return new ApiError(
      503,
      `The service could not reach its ${err.engine}; retry shortly (with the same Idempotency-Key for a write).`,
      'service_unavailable',
      undefined,
      {
        'Retry-After': '2',
      },
    );
  const e = err as { status?: number; type?: string; expose?: boolean } | null;
  // Errors raised by koa-bodyparser (raw-body) carry an HTTP status and a type.
  if (e?.type === 'entity.too.large')
    return new ApiError(413, `Request body too large (the limit is ${BODY_LIMIT_BYTES / 1024 / 1024} MiB)`, 'payload_too_large');
  // co-body's parser (@hapi/bourne) refuses a "__proto__" key anywhere, as prototype poisoning:
  // valid JSON, so it is named rather than called malformed.
  if (err instanceof SyntaxError && e?.status === 400 && err.message === 'Object contains forbidden prototype property') {
    return new ApiError(400, `Request body has a key named ${FORBIDDEN_KEY}, which is refused at any depth`);
  }
  // co-body throws the SyntaxError of JSON.parse with status 400 and no type.
  if (e?.type === 'entity.parse.failed' || (err instanceof SyntaxError && e?.status === 400))
    return new ApiError(400, 'Request body is not valid JSON, or is a bare value (null, a string, a number) where an object is expected');
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported')
    return new ApiError(415, 'Unsupported body encoding; send UTF-8 JSON', 'unsupported_media_type');
  if (e?.type === 'request.aborted') return new ApiError(400, 'Request aborted by the client');
  // inflation (the body parser's decompression) refuses an unknown Content-Encoding with a bare 415.
  if (e?.status === 415 && /Content-Encoding/i.test((err as Error).message))
    return new ApiError(415, `${(err as Error).message}; send identity, gzip, deflate or br`, 'unsupported_media_type');
  // zlib and brotli: a body that claims a Content-Encoding it does not have, or is cut short.
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && (code.startsWith('Z_') || code.startsWith('ERR_BROTLI') || code.startsWith('ERR__ERROR'))) {
    return new ApiError(400, 'The request body does not decode with its Content-Encoding');
  }
  // Koa's own client errors (ctx.throw, http-errors) are marked safe to show with `expose`.
  if (e?.expose && typeof e.status === 'number' && e.status >= 400 && e.status < 500) return new ApiError(e.status, (err as Error).message);
  return null;
};
