// seed.mjs — the seed's JavaScript, verbatim: hash() and lookupOwner() from
// shared/seeds/000_18d66da3960a34cd.txt ("Virtual nodes (vnodes)"), copied
// here once so the oracles (fnv_js.mjs, seed_ring_ref.mjs) do not need
// ../shared. Only the `export` keywords are added.

export function hash(str) {
  let h = 2166136261;
  for (let i = 0; i < str.length; i++) {
    h ^= str.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0; // unsigned 32-bit
}

export function lookupOwner(key, ring) {
  // ring: sorted array of { hash, workerId }
  const keyHash = hash(key);
  for (const node of ring) {
    if (node.hash >= keyHash) return node.workerId;
  }
  return ring[0].workerId; // wrap around
}
