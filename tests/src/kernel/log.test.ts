import t from 'tap';
import { jsonLogger } from '@support/kernel';

/** The JSON line format operators and scripts read: kept as it was when pino took over. */
const capture = (level: string, base: Record<string, unknown> = {}) => {
  const lines: string[] = [];
  const log = jsonLogger(level, base, (line) => lines.push(line));
  return { log, lines, parsed: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
};

t.test('one JSON object per line: level as a word, ISO time, msg, the base and the call fields', async (t) => {
  const { log, lines, parsed } = capture('info', { service: 'api', instance: 'i-1' });
  log.info('listening on http://127.0.0.1:1/v1', { role: 'api' });
  log.child({ component: 'relay' }).warn('retrying', { failures: 2 });
  t.equal(lines.length, 2);
  t.notMatch(lines.join(''), /\n/, 'no newline inside the lines handed over');
  const [first, second] = parsed();
  t.match(first.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  t.strictSame({ ...first, time: 'T' }, { level: 'info', time: 'T', service: 'api', instance: 'i-1', role: 'api', msg: 'listening on http://127.0.0.1:1/v1' });
  t.strictSame({ ...second, time: 'T' }, { level: 'warn', time: 'T', service: 'api', instance: 'i-1', component: 'relay', failures: 2, msg: 'retrying' });
});

t.test('a call field replaces the logger field of that name: each key once in the line', async (t) => {
  const { log, lines, parsed } = capture('info', { service: 'api', instance: 'i-1' });
  log.info('listening', { instance: 'i-2', role: 'api' });
  log.child({ component: 'relay' }).warn('retrying', { component: 'relay-2' });
  t.strictSame(
    lines.map((l) => [l.match(/"instance":/g)?.length, l.match(/"component":/g)?.length ?? 0]),
    [
      [1, 0],
      [1, 1],
    ],
  );
  t.strictSame(
    parsed().map((l) => Object.keys(l)),
    [
      ['level', 'time', 'msg', 'service', 'instance', 'role'],
      ['level', 'time', 'msg', 'service', 'instance', 'component'],
    ],
  );
  t.strictSame(
    parsed().map((l) => [l.instance, l.component]),
    [
      ['i-2', undefined],
      ['i-1', 'relay-2'],
    ],
  );
});

t.test('lines below the level are dropped; an announcement is printed at any level, as info', async (t) => {
  const { log, parsed } = capture('error');
  log.debug('d');
  log.info('i');
  log.warn('w');
  log.error('e');
  log.announce!('listening');
  t.strictSame(
    parsed().map((l) => [l.level, l.msg]),
    [
      ['error', 'e'],
      ['info', 'listening'],
    ],
  );
});

t.test('debug is printed at LOG_LEVEL=debug; an unknown level counts as info', async (t) => {
  const debug = capture('debug');
  debug.log.debug('d', { n: 1 });
  t.strictSame(
    debug.parsed().map((l) => [l.level, l.msg, l.n]),
    [['debug', 'd', 1]],
  );
  const unknown = capture('verbose');
  unknown.log.debug('d');
  unknown.log.info('i');
  t.strictSame(
    unknown.parsed().map((l) => l.msg),
    ['i'],
  );
});
