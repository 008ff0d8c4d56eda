const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const;
export type LogLevel = keyof typeof LEVELS;

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /** Printed whatever the level (at `info`): lines scripts wait for, such as `listening`. */
  announce?(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

/** One JSON object per line on stdout: easy to grep, easy to ship. */
export const jsonLogger = (
  level: string = 'info',
  base: Record<string, unknown> = {},
  write: (line: string) => unknown = (line) => process.stdout.write(line + '\n'),
): Logger => {
  const min = LEVELS[(level in LEVELS ? level : 'info') as LogLevel];
  const at =
    (lvl: LogLevel, always = false) =>
    (msg: string, fields?: Record<string, unknown>) => {
      if (LEVELS[lvl] < min && !always) return;
      write(JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...base, ...fields }));
    };
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    announce: at('info', true),
    child: (fields) => jsonLogger(level, { ...base, ...fields }, write),
  };
};

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => silentLogger };
