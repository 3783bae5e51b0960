// seed_producer.mjs — a Node producer for the pg_ext_js test: reads keys (one per line, UTF-8)
// on stdin and writes SQL on stdout that inserts each into `inbox` WITHOUT a partition_bucket
// (the `ringbench` extension's trigger fills it), with the bucket the seed itself would compute,
// hash(key) % 1024, in `payload` for the test to compare.
//
// hash() is the seed's function, copied verbatim from shared/seeds/000_18d66da3960a34cd.txt
// (`function hash(str)`, FNV-1a over UTF-16 code units with Math.imul) into
// verify/kat/seed.mjs, so the test does not need the shared/ folder.
//
//   node seed_producer.mjs PREFIX < keys.txt | psql ...   (PREFIX makes the idempotency keys)
import { readFileSync } from 'node:fs';
import { hash } from '../../../verify/kat/seed.mjs';

const prefix = process.argv[2] ?? 'js';
const keys = readFileSync(0, 'utf8').split('\n');
if (keys[keys.length - 1] === '') keys.pop();
const lit = (s) => "'" + s.replaceAll("'", "''") + "'";
for (let i = 0; i < keys.length; i += 500) {
  const rows = keys.slice(i, i + 500).map((k, j) =>
    `(${lit(k)}, ${lit(`${prefix}:${i + j + 1}`)}, '${hash(k) % 1024}')`);
  process.stdout.write(
    `INSERT INTO inbox (partition_key, idempotency_key, payload) VALUES\n${rows.join(',\n')};\n`);
}
