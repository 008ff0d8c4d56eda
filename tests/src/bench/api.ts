/** The API calls the benches make outside their measured loads: seeding, waiting for a key. */
export const SEED_CUSTOMERS = 200;

export const request = async (url: string, key: string, body?: unknown, method?: string) => {
  const res = await fetch(url, {
    method: method ?? (body === undefined ? 'GET' : 'POST'),
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

export const waitForKey = async (base: string, key: string, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status } = await request(`${base}/me`, key);
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`GET /me still ${status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

/** Polls GET /me with `key` every 10 ms until it answers `status`: how long that took, in ms. */
export const msUntilStatus = async (base: string, key: string, status: number, timeoutMs = 10_000) => {
  const started = performance.now();
  for (;;) {
    if ((await request(`${base}/me`, key)).status === status) return performance.now() - started;
    if (performance.now() - started > timeoutMs) throw new Error(`GET /me not ${status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

/** Creates the customers 10 at a time; returns the id of the first. */
export const seed = async (base: string, key: string): Promise<string> => {
  const ids: string[] = [];
  for (let i = 0; i < SEED_CUSTOMERS; i += 10) {
    const batch = Array.from({ length: Math.min(10, SEED_CUSTOMERS - i) }, (_, j) =>
      request(`${base}/customers`, key, { email: `bench${i + j}@example.com`, name: `Bench ${i + j}` }),
    );
    for (const { status, body } of await Promise.all(batch)) {
      if (status !== 201) throw new Error(`seeding: POST /customers answered ${status} ${JSON.stringify(body)}`);
      ids.push(String(body.id));
    }
  }
  return ids[0];
};
