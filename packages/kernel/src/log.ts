import pino from 'pino';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const LOG_LEVELS: readonly string[] = ['debug', 'info', 'warn', 'error'];

/** The one logger interface of the product: a message, then the fields of the JSON line. */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /** Printed whatever the level (at `info`): lines scripts wait for, such as `listening`. */
  announce?(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

/** Above every level, so an announcement is never filtered out; its line says `info`. */
const ANNOUNCE = 100;

type Fields = Record<string, unknown>;

/**
 * pino writes `level` (as a word), filters by level, serializes and writes; the rest of the
 * line is built here, `{time, msg, ...base, ...fields}`, so a call's field replaces the
 * logger's own of that name (pino's child bindings would write both: a key twice).
 */
const wrap = (p: pino.Logger<'announce'>, base: Fields): Logger => {
  const at = (level: LogLevel | 'announce') => (msg: string, fields?: Fields) => {
    if (p.isLevelEnabled(level)) p[level]({ time: new Date().toISOString(), msg, ...base, ...fields });
  };
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    announce: at('announce'),
    child: (fields) => wrap(p, { ...base, ...fields }),
  };
};

/** One JSON object per line: `level` as a word, `time` (ISO 8601), `msg`, then the logger's and the call's fields; on stdout unless `write` takes the lines (without newline). */
export const jsonLogger = (level: string = 'info', base: Fields = {}, write?: (line: string) => unknown): Logger => {
  const destination = write
    ? { write: (chunk: string) => void write(chunk.endsWith('\n') ? chunk.slice(0, -1) : chunk) }
    : pino.destination({ dest: 1, sync: true });
  const p = pino<'announce'>(
    {
      level: LOG_LEVELS.includes(level) ? level : 'info',
      customLevels: { announce: ANNOUNCE },
      base: null,
      timestamp: false,
      formatters: { level: (label) => ({ level: label === 'announce' ? 'info' : label }) },
    },
    destination,
  );
  return wrap(p, base);
};

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => silentLogger };
