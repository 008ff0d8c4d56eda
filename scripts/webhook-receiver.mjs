// A local HTTPS webhook receiver for scripts/schemathesis.sh: a self-signed certificate for
// 127.0.0.1 (written to the file named by the first argument, for NODE_EXTRA_CA_CERTS), 200 to
// every request. Prints its port, then serves until killed.
import { writeFileSync } from 'node:fs';
import https from 'node:https';
import process from 'node:process';
import { generate } from 'selfsigned';

const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
  keyType: 'ec',
  algorithm: 'sha256',
  extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
});
writeFileSync(process.argv[2], pems.cert);
const server = https.createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
  req.resume();
  req.on('end', () => res.end('ok'));
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
