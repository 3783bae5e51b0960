#!/usr/bin/env node
// sample.js — a deterministic, evenly spread sample of a key file.
//
// usage: node sample.js KEYFILE M OUTPUT
// Keeps the keys at 0-based line indices floor(i * n / M) for i = 0..M-1
// (n = lines in KEYFILE; all n lines when n <= M), in file order, bytes
// unchanged. Writes OUTPUT.tmp and renames it to OUTPUT. Exit 1 on error.
'use strict';
const fs = require('fs');

function die(msg) {
    process.stderr.write(`datasets/sample: ${msg}\n`);
    process.exit(1);
}
const [keyfile, mArg, output] = process.argv.slice(2);
if (!output || !/^[1-9][0-9]*$/.test(mArg)) die('usage: node sample.js KEYFILE M OUTPUT');
const m = Number(mArg);
let buf;
try {
    buf = fs.readFileSync(keyfile);
} catch (e) {
    die(e.message);
}
if (buf.length && buf[buf.length - 1] !== 0x0a) die(`${keyfile}: last line has no LF`);
const starts = [0];
for (let i = buf.indexOf(0x0a); i !== -1 && i + 1 < buf.length; i = buf.indexOf(0x0a, i + 1))
    starts.push(i + 1);
const n = buf.length ? starts.length : 0;
const picked = [];
const take = Math.min(m, n);
for (let i = 0; i < take; i++) {
    const j = n <= m ? i : Math.floor((i * n) / m);
    const end = j + 1 < n ? starts[j + 1] : buf.length;
    picked.push(buf.subarray(starts[j], end));
}
try {
    fs.writeFileSync(output + '.tmp', Buffer.concat(picked));
    fs.renameSync(output + '.tmp', output);
} catch (e) {
    die(e.message);
}
process.stderr.write(`datasets/sample: ${output}: ${take} of ${n} keys\n`);
