import t from 'tap';
import { readdir, readFile } from 'node:fs/promises';
import net from 'node:net';
import { join } from 'node:path';
import { createMailer } from '@support/webhooks';

/** Headers (lower-cased, unfolded) and body of an RFC 822 message. */
function parseMessage(raw: string): { headers: Record<string, string>; body: string } {
  const text = raw.replace(/\r\n/g, '\n');
  const split = text.indexOf('\n\n');
  const headers: Record<string, string> = {};
  for (const line of text
    .slice(0, split)
    .replace(/\n[ \t]+/g, ' ')
    .split('\n')) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body: text.slice(split + 2) };
}

const notice = {
  to: 'owner@acme.test',
  subject: 'Webhook endpoint we_123 was disabled',
  text: 'Your endpoint we_123 (https://hooks.acme.test/x)\nwas disabled after 15 failures.\nLast error: ECONNREFUSED\n',
};

t.test('without SMTP_URL each mail is an .eml file in the outbox', async (t) => {
  const outboxDir = join(t.testdir(), 'data', 'outbox'); // does not exist yet
  const mailer = createMailer({ outboxDir });
  await mailer.send(notice);
  await mailer.send({ ...notice, subject: 'second' });
  const files = (await readdir(outboxDir)).sort();
  t.equal(files.length, 2);
  for (const file of files) t.match(file, /^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z-[0-9a-f]{8}\.eml$/);
  const messages = await Promise.all(files.map(async (f) => parseMessage(await readFile(join(outboxDir, f), 'utf8'))));
  const first = messages.find((m) => m.headers.subject === notice.subject);
  t.ok(first, 'the first mail is there');
  t.equal(first?.headers.to, 'owner@acme.test');
  t.equal(first?.headers.from, 'Support Platform <notifications@support.invalid>');
  t.match(first?.headers, { 'message-id': /^<.+@.+>$/, date: /\d{4}/, 'mime-version': '1.0', 'content-type': /^text\/plain/ });
  t.equal(first?.body.trim(), notice.text.trim());
  t.ok(messages.some((m) => m.headers.subject === 'second'));

  const custom = createMailer({ outboxDir, from: 'Acme Ops <ops@acme.test>' });
  await custom.send(notice);
  t.equal((await readdir(outboxDir)).length, 3);
});

t.test('with SMTP_URL mail goes to the SMTP server', async (t) => {
  const received: { rcpt: string[]; data: string }[] = [];
  const server = net.createServer((socket) => {
    let buffer = '';
    let inData = false;
    let rcpt: string[] = [];
    let data = '';
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            received.push({ rcpt, data });
            rcpt = [];
            data = '';
            socket.write('250 queued\r\n');
          } else {
            data += `${line.startsWith('..') ? line.slice(1) : line}\r\n`;
          }
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') socket.write('250-test\r\n250 8BITMIME\r\n');
        else if (verb === 'RCPT') {
          rcpt.push(line.replace(/^RCPT TO:\s*<?([^>]*)>?.*$/i, '$1'));
          socket.write('250 ok\r\n');
        } else if (verb === 'DATA') {
          inData = true;
          socket.write('354 go on\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const port = (server.address() as net.AddressInfo).port;

  const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, outboxDir: join(t.testdir(), 'unused') });
  await mailer.send(notice);
  t.equal(received.length, 1);
  t.strictSame(received[0]?.rcpt, ['owner@acme.test']);
  const message = parseMessage(received[0]?.data ?? '');
  t.equal(message.headers.subject, notice.subject);
  t.equal(message.headers.to, 'owner@acme.test');
  t.equal(message.body.trim(), notice.text.trim());

  await t.rejects(
    createMailer({ smtpUrl: 'smtp://127.0.0.1:1', outboxDir: 'unused' }).send(notice),
    { name: 'EngineUnavailable', engine: 'mail server' },
    'an unreachable server rejects as a server that is down',
  );
});

t.test("a server that answers 4xx is down for now; a 5xx refusal is the message's", async (t) => {
  /** A server that answers RCPT with `reply`. */
  const replying = async (reply: string) => {
    const server = net.createServer((socket) => {
      socket.write('220 test ESMTP\r\n');
      socket.on('data', (chunk) => {
        for (const line of chunk.toString('utf8').split('\r\n').filter(Boolean)) {
          const verb = line.slice(0, 4).toUpperCase();
          if (verb === 'EHLO') socket.write('250 test\r\n');
          else if (verb === 'RCPT') socket.write(`${reply}\r\n`);
          else if (verb === 'QUIT') socket.end('221 bye\r\n');
          else socket.write('250 ok\r\n');
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.teardown(() => server.close());
    return createMailer({ smtpUrl: `smtp://127.0.0.1:${(server.address() as net.AddressInfo).port}`, outboxDir: 'unused' });
  };
  await t.rejects((await replying('451 try again later')).send(notice), { name: 'EngineUnavailable', engine: 'mail server' });
  const refused = await (
    await replying('550 mailbox unavailable')
  )
    .send(notice)
    .then(() => null)
    .catch((err: unknown) => err as Error);
  t.strictSame([refused?.name, refused?.message.includes('550')], ['Error', true], 'a refusal stays a refusal');
});
