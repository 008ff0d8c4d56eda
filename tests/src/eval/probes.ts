import { readFileSync } from 'node:fs';
import path from 'node:path';
import { withCentres } from './centres';
import { centresOf, type Half } from './eval-set';

/**
 * `node tests/build/eval/probes.js [--half=tuning|heldOut]`: the off-topic probes
 * (tests/fixtures/eval/off-topic-probes.json) asked of every centre of a half, one conversation
 * each, through the HTTP API; prints, per list, how many replies cited a passage (each one a
 * message the agent should have declined) and which. Default: the tuning half.
 */
const PROBES = path.resolve(__dirname, '../../fixtures/eval/off-topic-probes.json');

const main = async () => {
  const half = (process.argv.find((a) => a.startsWith('--half='))?.split('=')[1] ?? 'tuning') as Half;
  const lists = Object.entries(JSON.parse(readFileSync(PROBES, 'utf8')) as Record<string, unknown>).filter((e): e is [string, string[]] => Array.isArray(e[1]));
  const answered = new Map<string, string[]>(lists.map(([name]) => [name, []]));
  await withCentres(half, {}, async (centre, ws) => {
    for (const [name, messages] of lists) {
      for (const message of messages) {
        const r = await ws.api.post('/agent/messages', { message });
        if (r.status !== 200) throw new Error(`${centre.name}: ${message}: ${r.status}`);
        const sources = r.body.sources as string[];
        if (sources.length > 0) answered.get(name)!.push(`${centre.name}: ${JSON.stringify(message)} → ${sources.join(', ')}`);
      }
    }
  });
  console.log(`Off-topic probes, ${half} half (${centresOf(half).length} centres)`);
  for (const [name, messages] of lists) {
    const got = answered.get(name)!;
    console.log(`  ${name.padEnd(12)} cited a passage ${got.length} times in ${messages.length * centresOf(half).length}`);
    for (const line of got) console.log(`    ${line}`);
  }
};

if (require.main === module) void main();
