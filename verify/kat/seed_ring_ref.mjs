// seed_ring_ref.mjs — the seed's own JavaScript as an independent oracle for
// `ringbench table` (ctest verify.seed_js_oracle, verify/test_seed_oracle.sh).
//
//   node verify/kat/seed_ring_ref.mjs table V B id1,id2,...   -> JSON array: owner id per bucket
//   node verify/kat/seed_ring_ref.mjs moved V B id1,id2,...   -> buckets whose owner changes when
//                                                               the last id joins the others
//   node verify/kat/seed_ring_ref.mjs modn-moved V B id1,...  -> the same for the seed's
//                                                               hash(key) % N (V unused)
//
// hash() and lookupOwner() are the seed's, verbatim (seed.mjs, copied from
// shared/seeds/000_18d66da3960a34cd.txt), so the test does not need ../shared. What the seed leaves open is taken from
// include/ringbench/ring.h: vnode i of member `id` sits at hash(id + '#' + i);
// bucket b sits at hash(String(b)), so its owner is lookupOwner(String(b));
// equal ring positions are ordered by member id, then vnode index.

import { hash, lookupOwner } from './seed.mjs'; // the seed's functions, verbatim

function buildRing(ids, vnodes) {
  const ring = [];
  for (const id of ids)
    for (let i = 0; i < vnodes; i++) ring.push({ hash: hash(id + '#' + i), workerId: id, i });
  ring.sort((a, b) => a.hash - b.hash || (a.workerId < b.workerId ? -1 : a.workerId > b.workerId ? 1 : a.i - b.i));
  return ring;
}

function table(ids, vnodes, buckets) {
  const ring = buildRing(ids, vnodes);
  const out = [];
  for (let b = 0; b < buckets; b++) out.push(lookupOwner(String(b), ring));
  return out;
}

const [what, v, b, list] = process.argv.slice(2);
if (!list || !['table', 'moved', 'modn-moved'].includes(what)) {
  console.error('usage: node seed_ring_ref.mjs table|moved|modn-moved V B id1,id2,...');
  process.exit(2);
}
const ids = list.split(',');
const V = Number(v), B = Number(b);
if (what === 'table') {
  console.log(JSON.stringify(table(ids, V, B)));
} else if (what === 'modn-moved') {
  // the seed's opening example: owner = hash(key) % N, N = 3 -> 4
  let moved = 0;
  for (let i = 0; i < B; i++) if (hash(String(i)) % (ids.length - 1) !== hash(String(i)) % ids.length) moved++;
  console.log(moved);
} else {
  const before = table(ids.slice(0, -1), V, B), after = table(ids, V, B);
  console.log(before.filter((o, i) => o !== after[i]).length);
}
