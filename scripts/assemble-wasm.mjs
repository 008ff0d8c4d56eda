// Assembles features/agent/wasm/dot.wat into features/agent/src/knowledge/dot-wasm.ts (base64),
// with wabt (a devDependency: the service itself needs no assembler).
import { Buffer } from 'node:buffer';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import process from 'node:process';
import wabt from 'wabt';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const wat = path.join(root, 'features/agent/wasm/dot.wat');
const out = path.join(root, 'features/agent/src/knowledge/dot-wasm.ts');
const module = (await wabt()).parseWat('dot.wat', readFileSync(wat, 'utf8'), { simd: true });
const base64 = Buffer.from(module.toBinary({}).buffer).toString('base64');
const head = readFileSync(out, 'utf8').split('export const')[0];
writeFileSync(out, `${head}export const DOT_WASM_BASE64 =\n  '${base64}';\n`);
process.stdout.write(`${out}: ${base64.length} base64 characters\n`);
