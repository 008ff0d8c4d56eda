import { client } from '../../support/client';
import { serviceMain, startProcess, type Service } from '../../support/service';
import { until } from '../../support/wait';

export type Role = 'api' | 'projector' | 'relay' | 'dispatcher' | 'sla-monitor';

export interface Instance extends Service {
  role: Role;
  name: string;
  /** The health server's origin (the API's base URL without /v1). */
  origin: string;
}

/** One service process of the scale-out, on a free port, named by INSTANCE_ID. */
export const startInstance = async (role: Role, name: string, dataDir: string, env: Record<string, string>): Promise<Instance> => {
  const service = await startProcess(serviceMain(role), dataDir, { ...env, INSTANCE_ID: name, LOG_LEVEL: 'info' });
  return { ...service, role, name, origin: service.baseUrl.replace(/\/v1$/, '') };
};

export const health = async (i: Instance) => (await client(i.origin).get('/healthz')).body as { status: string; leases: { name: string; role: string }[] };
export const ready = async (i: Instance) => client(i.origin).get('/readyz');

/** Which instances hold `lease` as active now (asked of each over HTTP). */
export const activeHolders = async (instances: readonly Instance[], lease: string): Promise<string[]> => {
  const out: string[] = [];
  for (const i of instances) if ((await health(i)).leases.some((l) => l.name === lease && l.role === 'active')) out.push(i.name);
  return out;
};

/** Waits until every instance answers /readyz with 200. */
export const allReady = (instances: readonly Instance[], ms = 20_000) =>
  until(async () => (await Promise.all(instances.map(ready))).every((r) => r.status === 200), ms, 100, 'every instance ready');
