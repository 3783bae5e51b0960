#!/usr/bin/env node
// convert.js — turn a JSON key source from an npm package into a key file:
// one key per line, LF-terminated, the key's UTF-8 bytes exactly as the
// JSON source spells them (no Unicode normalisation, no trimming, source
// order, duplicates kept).
//
// usage: node convert.js SOURCE.json FIELD OUTPUT
//   SOURCE.json  a JSON array; FIELD "-" means each element is the key (a
//                string), otherwise each element is an object whose FIELD
//                member is the key.
//   OUTPUT       written (created or truncated); the caller renames it into
//                place after checking the result.
//
// Rejected keys (counted, not written): empty strings, strings containing
// LF (U+000A, the line separator), and strings with an unpaired UTF-16
// surrogate (they have no UTF-8 encoding, so the bytes could not be kept).
// CR and other control characters are kept as bytes.
//
// A source that is not valid UTF-8, not a JSON array, or has an element of
// the wrong type is an error: exit 1 with one line on stderr. On success
// prints one JSON object on stdout:
//   {"n_keys":..,"n_rejected":..,"n_rejected_empty":..,
//    "n_rejected_newline":..,"n_rejected_surrogate":..,"bytes":..,"sha256":".."}
'use strict';
const fs = require('fs');
const crypto = require('crypto');

function die(msg) {
    process.stderr.write(`datasets/convert: ${msg}\n`);
    process.exit(1);
}

const args = process.argv.slice(2);
if (args.length !== 3) die('usage: node convert.js SOURCE.json FIELD OUTPUT');
const [source, field, output] = args;

let text;
try {
    // fatal: invalid UTF-8 is an error instead of a silent U+FFFD.
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(
        fs.readFileSync(source));
} catch (e) {
    die(`${source}: ${e.code === 'ERR_ENCODING_INVALID_ENCODED_DATA' ? 'not valid UTF-8' : e.message}`);
}
let doc;
try {
    doc = JSON.parse(text);
} catch (e) {
    die(`${source}: not valid JSON (${e.message})`);
}
text = undefined;
if (!Array.isArray(doc)) die(`${source}: expected a JSON array at the top level`);

const counts = { n_keys: 0, n_rejected: 0, n_rejected_empty: 0, n_rejected_newline: 0,
                 n_rejected_surrogate: 0, bytes: 0 };
const hash = crypto.createHash('sha256');
let fd;
try {
    fd = fs.openSync(output, 'w');
} catch (e) {
    die(`${output}: ${e.message}`);
}

const CHUNK_BYTES = 1 << 20;
let parts = [];
let partBytes = 0;
function flush() {
    if (!parts.length) return;
    const buf = Buffer.concat(parts, partBytes);
    hash.update(buf);
    let off = 0;
    while (off < buf.length) off += fs.writeSync(fd, buf, off, buf.length - off);
    counts.bytes += buf.length;
    parts = [];
    partBytes = 0;
}

for (let i = 0; i < doc.length; i++) {
    let key = doc[i];
    if (field !== '-') {
        if (key === null || typeof key !== 'object' || Array.isArray(key))
            die(`${source}: element ${i} is not an object`);
        key = key[field];
    }
    if (typeof key !== 'string')
        die(`${source}: element ${i}${field === '-' ? '' : ' field ' + field} is not a string`);
    let why = null;
    if (key.length === 0) why = 'empty';
    else if (key.includes('\n')) why = 'newline';
    else if (!key.isWellFormed()) why = 'surrogate';
    if (why) {
        counts.n_rejected++;
        counts['n_rejected_' + why]++;
        continue;
    }
    const b = Buffer.from(key + '\n', 'utf8');
    parts.push(b);
    partBytes += b.length;
    counts.n_keys++;
    if (partBytes >= CHUNK_BYTES) flush();
}
try {
    flush();
    fs.fsyncSync(fd);
    fs.closeSync(fd);
} catch (e) {
    die(`${output}: ${e.message}`);
}
counts.sha256 = hash.digest('hex');
process.stdout.write(JSON.stringify(counts) + '\n');
