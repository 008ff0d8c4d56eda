import { withCentres } from './centres';
import { type Half } from './eval-set';
import { askCentre, figures, type Figures, type Outcome } from './measure';

/**
 * `npm run eval`: the agent on help centres it was not tuned on, through the HTTP API of the
 * service as `npm start` runs it (the embedding model when fetched). Prints the tuning half's
 * figures and misses (what tuning looks at) and the held-out half's figures only.
 * `-- --half=tuning|heldOut` measures one half; `AGENT_RERANKER=off` measures BM25 alone.
 */
export const measureHalf = async (half: Half, env: Record<string, string> = {}): Promise<{ figures: Figures; outcomes: Outcome[]; ranking: string }> => {
  const outcomes: Outcome[] = [];
  const output = await withCentres(half, env, async (centre, ws) => {
    outcomes.push(...(await askCentre((path, body) => ws.api.post(path, body), centre)));
  });
  const ready = output.map((l) => JSON.parse(l) as { msg?: string; ranking?: string }).find((l) => l.msg === 'knowledge index ready');
  return { figures: figures(outcomes), outcomes, ranking: ready?.ranking ?? 'unknown' };
};

const pct = (n: number) => (Number.isNaN(n) ? '—' : `${(100 * n).toFixed(1)} %`);

export const printFigures = (title: string, f: Figures) => {
  console.log(`\n${title} (${f.questions} questions)`);
  for (const [name, value] of Object.entries(f)) if (name !== 'questions') console.log(`  ${name.padEnd(40)} ${name === 'leaks' ? value : pct(value)}`);
};

const main = async () => {
  const arg = process.argv.find((a) => a.startsWith('--half='))?.split('=')[1] as Half | undefined;
  const halves: Half[] = arg ? [arg] : ['tuning', 'heldOut'];
  for (const half of halves) {
    const { figures: f, outcomes, ranking } = await measureHalf(half);
    printFigures(`${half === 'tuning' ? 'Tuning half' : 'Held-out half'}, ranking ${ranking}`, f);
    if (half !== 'tuning') continue;
    // What tuning looks at: the misses of the tuning half, by kind.
    for (const o of outcomes.filter((o) => !(o.question.article_id ? o.citedRight && o.statedFacts : o.sources.length === 0) || o.leaked.length > 0)) {
      const q = o.question;
      console.log(
        `  miss ${q.id} [${q.kind}] ${JSON.stringify(q.turns[q.turns.length - 1])} rank ${o.searchRank} cited ${JSON.stringify(o.sources)} facts ${o.statedFacts} leaked ${JSON.stringify(o.leaked)}`,
      );
      if (!o.statedFacts) console.log(`    wanted ${JSON.stringify(q.facts)}; replied ${JSON.stringify(o.reply.slice(0, 400))}`);
    }
  }
};

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
