import type { Test } from 'tap';
import type { Reply } from './client';

/** Asserts the spec's error envelope (section 7). */
export const expectError = (t: Test, r: Reply, status: number, code?: string, what = '') => {
  t.equal(r.status, status, `${what ? `${what}: ` : ''}status ${status}`);
  t.equal(r.body?.success, false, 'success is false');
  t.equal(r.body?.error?.statusCode, status, 'statusCode matches');
  if (code) t.equal(r.body?.error?.code, code, `code ${code}`);
  t.type(r.body?.error?.message, 'string');
};
