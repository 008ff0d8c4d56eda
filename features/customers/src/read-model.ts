import { type Application, perApplication, Scoped } from '@support/application';
import { Customers } from './commands';
import { CUSTOMERS, type CustomerDocument } from './projection';

/** The customers' commands and read model over one application's ports. */
export const customersOf = perApplication((app: Application) => ({
  commands: new Customers(app.deps, app.reservations),
  reads: new Scoped(app.engines.reads.collection<CustomerDocument>(CUSTOMERS)),
}));
