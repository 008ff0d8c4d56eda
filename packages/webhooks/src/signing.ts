import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Spec 6.3: how far a receiver lets `t` stray from its own clock. */
export const DEFAULT_TOLERANCE_SEC = 300;

/**
 * Lowercase hex HMAC-SHA256 keyed with the whole secret (`whsec_…` included) over
 * `<t>.` followed by the raw body bytes. Bytes, not parsed JSON: re-serializing breaks it.
 */
export function signPayload(secret: string, timestampSec: number, rawBody: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestampSec}.`).update(rawBody).digest('hex');
}

/** The `Service-Signature` header value: `t=<unix_seconds>,v1=<hex>`. */
export function signatureHeader(secret: string, timestampSec: number, rawBody: string | Buffer): string {
  return `t=${timestampSec},v1=${signPayload(secret, timestampSec, rawBody)}`;
}

export interface VerifyOptions {
  toleranceSec?: number;
  /** Current time in milliseconds (injectable for tests). */
  now?: () => number;
}

const HEX_SHA256 = /^[0-9a-f]{64}$/i;

/**
 * For receivers: true when one of the header's `v1` signatures matches and `t` is within
 * tolerance. Extra entries are ignored and several `v1` are accepted, so a receiver keeps
 * working while a secret is rolled. Never throws: anything malformed is simply false.
 */
export function verifyWebhook(rawBody: string | Buffer, header: string, secret: string, options: VerifyOptions = {}): boolean {
  try {
    if (typeof header !== 'string' || typeof secret !== 'string' || secret === '') return false;
    let timestamp: number | null = null;
    const signatures: string[] = [];
    for (const part of header.split(',')) {
      const eq = part.indexOf('=');
      if (eq <= 0) continue;
      const key = part.slice(0, eq).trim();
      const value = part.slice(eq + 1).trim();
      if (key === 't') {
        if (timestamp !== null || !/^\d{1,15}$/.test(value)) return false; // two t's is ambiguous
        timestamp = Number(value);
      } else if (key === 'v1') {
        signatures.push(value);
      }
    }
    if (timestamp === null || signatures.length === 0) return false;

    const tolerance = options.toleranceSec ?? DEFAULT_TOLERANCE_SEC;
    const nowSec = (options.now ?? Date.now)() / 1000;
    if (!(Math.abs(nowSec - timestamp) <= tolerance)) return false;

    const expected = Buffer.from(signPayload(secret, timestamp, rawBody), 'hex');
    let matched = false;
    for (const signature of signatures) {
      // Only well-formed candidates reach timingSafeEqual, which needs equal lengths.
      if (!HEX_SHA256.test(signature)) continue;
      // No early exit: every candidate costs the same.
      if (timingSafeEqual(Buffer.from(signature, 'hex'), expected)) matched = true;
    }
    return matched;
  } catch {
    return false;
  }
}

/** A fresh endpoint secret: `whsec_` + 32 random bytes, base64url. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}
