// seed_hash.mjs — the seed's JavaScript hash(), verbatim, as one module: the independent
// reference for the `fnv1a32-js` hash. Copied from shared/seeds/000_18d66da3960a34cd.txt
// (`function hash(str)`: FNV-1a 32 over the UTF-16 code units, Math.imul, >>> 0), so the
// tests need no copy of shared/. Used by verify/kat/fnv_js.mjs (the known answers) and
// queue/ext/tests/seed_producer.mjs (a Node producer for the extension's test).

// The seed's function, verbatim.
export function hash(str) {
  let h = 2166136261;
  for (let i = 0; i < str.length; i++) {
    h ^= str.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0; // unsigned 32-bit
}
