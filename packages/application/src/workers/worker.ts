import type { ConsumerHealth } from '@support/eventstore';

/** What a process holds by lease, for GET /healthz: whether this instance is the active one. */
export interface LeaseHealth {
  name: string;
  /** `active`: this instance holds the lease and runs the work; `standby`: another does. */
  role: 'active' | 'standby';
}

/** A background part of a process (projector, relay, dispatcher, monitors): started after the engines, stopped before them. */
export interface Worker {
  start(): Promise<void>;
  /** Finishes the work under way (nothing half-done is acknowledged), then resolves. */
  stop(): Promise<void>;
  /** Its log consumers, for GET /healthz. */
  health?(): ConsumerHealth | null | (ConsumerHealth | null)[];
  leases?(): LeaseHealth[];
}
