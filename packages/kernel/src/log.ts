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

const wrap = (p: pino.Logger<'announce'>): Logger => {
  const at = (write: pino.LogFn) => (msg: string, fields?: Record<string, unknown>) => (fields ? write(fields, msg) : write(msg));
  return {
    debug: at(p.debug.bind(p)),
    info: at(p.info.bind(p)),
    warn: at(p.warn.bind(p)),
    error: at(p.error.bind(p)),
    announce: at(p.announce.bind(p)),
    child: (fields) => wrap(p.child(fields)),
  };
};

/**
 * One JSON object per line (pino): `level` as a word, `time` in ISO 8601, `msg`, then the
 * logger's and the call's fields; on stdout unless `write` takes the lines (without newline).
 */
export const jsonLogger = (level: string = 'info', base: Record<string, unknown> = {}, write?: (line: string) => unknown): Logger => {
  const destination = write
    ? { write: (chunk: string) => void write(chunk.endsWith('\n') ? chunk.slice(0, -1) : chunk) }
    : pino.destination({ dest: 1, sync: true });
  const p = pino<'announce'>(
    {
      level: LOG_LEVELS.includes(level) ? level : 'info',
      customLevels: { announce: ANNOUNCE },
      base: null,
      messageKey: 'msg',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label === 'announce' ? 'info' : label }) },
    },
    destination,
  );
  return wrap(Object.keys(base).length ? p.child(base) : p);
};

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => silentLogger };
