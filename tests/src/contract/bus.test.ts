import t from 'tap';
import { MemoryBus } from '@support/bus';
import { busContract } from '@support/bus/dist/contract';

t.test('in-process adapter', async (t) => {
  busContract(t, async () => new MemoryBus());
});
