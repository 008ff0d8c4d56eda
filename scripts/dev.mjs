// `npm run dev`: the service on the embedded default, rebuilt and restarted on every change.
// TypeScript's build watch recompiles what changed (incrementally, package by package); Node's
// --watch restarts the standalone service whenever a compiled file it loaded changes. Ctrl-C
// stops both (the service as on SIGTERM: it finishes in-flight requests).
import { spawn, spawnSync } from 'node:child_process';
import process from 'node:process';
import { URL } from 'node:url';

const tsc = (...args) => [process.execPath, [new URL('../node_modules/typescript/bin/tsc', import.meta.url).pathname, '-b', ...args]];

const [node, first] = tsc();
if (spawnSync(node, first, { stdio: 'inherit' }).status !== 0) process.exit(1);
const watcher = spawn(...tsc('--watch', '--preserveWatchOutput'), { stdio: ['ignore', 'inherit', 'inherit'] });
const service = spawn(process.execPath, ['--watch', '--watch-preserve-output', 'services/standalone/dist/main.js'], {
  stdio: ['ignore', 'inherit', 'inherit'],
});

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  watcher.kill('SIGTERM');
  service.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
service.on('exit', (code) => {
  stop();
  process.exitCode = code ?? 0;
});
