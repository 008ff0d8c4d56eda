import { MongoClient, MongoNetworkError, MongoNotConnectedError, MongoServerSelectionError, MongoTopologyClosedError } from 'mongodb';
import { EngineUnavailable } from '@support/kernel';

/** How long an operation waits for a reachable server before it fails as unavailable. */
const SERVER_SELECTION_MS = 10_000;

/**
 * The read store's driver client. It connects on the first operation (and reconnects as
 * needed). Its default `fieldsAsRaw` is `{}`, and js-bson asks it for each array's field name:
 * an array under a key that Object.prototype has ("constructor", "toString") came back as raw
 * BSON buffers; an object without a prototype names no field (free-json-stores.test found it).
 * A server that cannot be reached fails an operation in SERVER_SELECTION_MS, not the driver's
 * 30 s: a request answers 503 before its client gives up, and a consumer retries sooner.
 */
export const mongoClient = (url: string): MongoClient =>
  new MongoClient(url, { fieldsAsRaw: Object.create(null) as Record<string, boolean>, serverSelectionTimeoutMS: SERVER_SELECTION_MS });

/** A socket's errors when the server went away; the driver passes some on as they are ("This socket has been ended by the other party": EPIPE). */
const DISCONNECTED = new Set(['EPIPE', 'ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'ENOTCONN']);

/**
 * Whether the error says the server could not be reached: no server selected, a dropped
 * connection, or the client between a watchdog's close and connect (mongo-watchdog.ts). A bulk
 * write passes a driver error on inside its own (`errorResponse`), as others may as a `cause`.
 */
const disconnected = (err: unknown, depth = 0): boolean => {
  if (
    err instanceof MongoServerSelectionError ||
    err instanceof MongoNetworkError ||
    err instanceof MongoNotConnectedError ||
    err instanceof MongoTopologyClosedError ||
    DISCONNECTED.has((err as NodeJS.ErrnoException | null)?.code ?? '')
  )
    return true;
  if (depth >= 2 || !(err instanceof Error)) return false;
  const { errorResponse, cause } = err as { errorResponse?: unknown; cause?: unknown };
  return disconnected(errorResponse, depth + 1) || disconnected(cause, depth + 1);
};

/** No server to talk to, or its connection dropped: the caller may answer 503 and retry. */
export const unavailableIfDisconnected = (err: unknown): unknown => (disconnected(err) ? new EngineUnavailable('read store', err) : err);
