import { ErrorCode, NatsError } from 'nats';
import { EngineUnavailable } from '@support/kernel';

/** The JetStream API's error code (`err_code`) of a failed request. */
export const apiErrorCode = (e: unknown): number | undefined => (e instanceof NatsError ? e.api_error?.err_code : undefined);

/** The client's codes for a server it cannot reach (or whose JetStream does not answer: 503, a timeout). */
const UNREACHED = new Set<string>([
  ErrorCode.ConnectionClosed,
  ErrorCode.ConnectionDraining,
  ErrorCode.ConnectionRefused,
  ErrorCode.ConnectionTimeout,
  ErrorCode.Disconnect,
  ErrorCode.NoResponders,
  ErrorCode.Timeout,
]);

/** A NATS server down or unreached is a passing condition (the caller retries), like the other engines'. */
export const unavailableIfUnreached = (e: unknown): unknown => (e instanceof NatsError && UNREACHED.has(e.code) ? new EngineUnavailable('bus', e) : e);

/** `op`, its failure mapped by unavailableIfUnreached. */
export const mapped = async <T>(op: () => Promise<T>): Promise<T> => {
  try {
    return await op();
  } catch (e) {
    throw unavailableIfUnreached(e);
  }
};
