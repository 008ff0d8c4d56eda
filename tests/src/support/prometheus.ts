/** One scrape of GET /metrics, parsed from Prometheus' text format: each sample by name and labels. */
export class Scrape {
  private readonly samples = new Map<string, number>();
  readonly names = new Set<string>();

  constructor(readonly text: string) {
    for (const line of text.split('\n')) {
      if (line === '' || line.startsWith('#')) continue;
      const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!m) throw new Error(`not a Prometheus sample line: ${line}`);
      const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
      this.samples.set(Scrape.key(m[1], labels), Number(m[3]));
      this.names.add(m[1]);
    }
  }

  private static key(name: string, labels: Record<string, string>): string {
    return `${name}{${Object.keys(labels)
      .sort()
      .map((k) => `${k}=${labels[k]}`)
      .join(',')}}`;
  }

  /** The sample's value; 0 when the series is absent (a counter not yet increased). */
  value(name: string, labels: Record<string, string> = {}): number {
    return this.samples.get(Scrape.key(name, labels)) ?? 0;
  }

  has(name: string, labels: Record<string, string> = {}): boolean {
    return this.samples.has(Scrape.key(name, labels));
  }

  /** Every series of `name`, with its labels. */
  series(name: string): { labels: Record<string, string>; value: number }[] {
    return [...this.samples.entries()]
      .filter(([k]) => k.startsWith(`${name}{`))
      .map(([k, value]) => ({
        labels: Object.fromEntries(
          k
            .slice(name.length + 1, -1)
            .split(',')
            .filter(Boolean)
            .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
        ),
        value,
      }));
  }
}

/** GET <origin>/metrics, parsed. */
export const scrape = async (origin: string): Promise<Scrape> => {
  const res = await fetch(`${origin}/metrics`);
  if (res.status !== 200) throw new Error(`GET /metrics answered ${res.status}`);
  return new Scrape(await res.text());
};
