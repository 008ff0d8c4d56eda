import net from 'node:net';
import t from 'tap';
import { serviceFixture } from '../support/fixture';

// Slow and vanishing clients: cut off in time, logged as one JSON line each, never a stack.

const e2e = serviceFixture({ env: { HTTP_HEADERS_TIMEOUT_MS: '300', HTTP_REQUEST_TIMEOUT_MS: '600', LOG_LEVEL: 'debug' }, tenant: false });

/** Opens a raw connection, writes `parts` (never finishing the request) and resolves with what the server answered once it closes. */
const slowClient = (parts: string[]) =>
  new Promise<string>((resolve, reject) => {
    const url = new URL(e2e.svc.baseUrl);
    const socket = net.connect(Number(url.port), url.hostname, () => {
      for (const p of parts) socket.write(p);
    });
    let answer = '';
    socket.on('data', (c: Buffer) => {
      answer += c.toString();
    });
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    socket.setTimeout(10_000, () => {
      socket.destroy();
      reject(new Error('the server held the connection for 10 s'));
    });
  });

t.test('headers that never finish are cut off with 408', async (t) => {
  const answer = await slowClient(['GET /v1/me HTTP/1.1\r\nHost: x\r\n']);
  t.match(answer, /^HTTP\/1\.1 408/);
  // In the error envelope, as every other error
  t.strictSame(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)), {
    success: false,
    error: { message: 'The request (headers and body) did not arrive in time', statusCode: 408, code: 'request_timeout' },
  });
});

t.test('headers too large: 431 in the error envelope', async (t) => {
  const answer = await slowClient([`GET /v1/me HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`]);
  t.match(answer, /^HTTP\/1\.1 431/);
  t.strictSame(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)), {
    success: false,
    error: { message: 'The request headers are too large', statusCode: 431, code: 'headers_too_large' },
  });
});

t.test('a chunked body that never ends is cut off with 408', async (t) => {
  const answer = await slowClient([
    'POST /v1/tags HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
    '5\r\n{"nam\r\n',
  ]);
  t.match(answer, /^HTTP\/1\.1 408/);
});

t.test('a client that hangs up mid-request leaves only JSON log lines', async (t) => {
  await new Promise<void>((resolve) => {
    const url = new URL(e2e.svc.baseUrl);
    const socket = net.connect(Number(url.port), url.hostname, () => {
      socket.write('POST /v1/tags HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":');
      setImmediate(() => {
        socket.destroy();
        resolve();
      });
    });
  });
  const answer = await slowClient(['GET /v1/me HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n']);
  t.match(answer, /^HTTP\/1\.1 401/, 'the service still answers');
  const notJson = e2e.svc.output.filter((l) => {
    try {
      JSON.parse(l);
      return false;
    } catch {
      return true;
    }
  });
  t.strictSame(notJson, [], 'every output line is JSON');
  t.strictSame(
    e2e.svc.output.filter((l) => /"level":"error"/.test(l)),
    [],
    'and none is an error',
  );
});
