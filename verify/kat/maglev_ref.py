#!/usr/bin/env python3
"""maglev_ref.py -- an independent Maglev reference for the known-answer test.

Written from the paper, not from impls/maglev.c: D. E. Eisenbud et al.,
"Maglev: A Fast and Reliable Software Network Load Balancer", NSDI 2016,
section 3.4, pseudo-code 1 (Populate Maglev hashing lookup table):

    offset <- h1(name[i]) mod M;  skip <- h2(name[i]) mod (M - 1) + 1
    permutation[i][j] <- (offset + j * skip) mod M
    rounds over the backends: each takes its next unfilled permutation entry

with ringbench's documented choices (impls/maglev.c, ring.h): h1 and h2 are
the ring hash of the member id under the ring seed and under
seed XOR 0x4d41474c4556 ("MAGLEV"); members take turns in id order (bytes
compared, then length), w turns per round for weight w; a bucket b's position
is the ring hash of its decimal label; its owner is entry[position mod M].
The ring hash here is FNV-1a 32 (draft-eastlake-fnv-17, sec. 2); a non-zero
seed is hashed first as 8 little-endian bytes.

usage: maglev_ref.py M B SEED id[=w],id[=w],...
prints the owner id of buckets 0 .. B-1, one per line.
"""
import sys

FNV_BASIS, FNV_PRIME = 2166136261, 16777619
SKIP_SEED = 0x4D41474C4556


def fnv1a32(data, seed):
    h = FNV_BASIS
    prefix = seed.to_bytes(8, "little") if seed else b""
    for byte in prefix + data:
        h = ((h ^ byte) * FNV_PRIME) & 0xFFFFFFFF
    return h


def populate(members, m, seed):
    """members: [(id bytes, weight)] in id order; returns entry[0..m)."""
    perms = []
    for ident, _ in members:
        offset = fnv1a32(ident, seed) % m
        skip = fnv1a32(ident, seed ^ SKIP_SEED) % (m - 1) + 1
        perms.append((offset, skip))
    nxt = [0] * len(members)
    entry = [None] * m
    n = 0
    while True:
        for i, (ident, weight) in enumerate(members):
            for _ in range(weight):
                offset, skip = perms[i]
                c = (offset + nxt[i] * skip) % m
                while entry[c] is not None:
                    nxt[i] += 1
                    c = (offset + nxt[i] * skip) % m
                entry[c] = ident
                nxt[i] += 1
                n += 1
                if n == m:
                    return entry


def main():
    m, b, seed = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    members = []
    for spec in sys.argv[4].split(","):
        ident, _, w = spec.partition("=")
        members.append((ident.encode(), int(w) if w else 1))
    members.sort(key=lambda x: x[0])  # bytes order; a prefix sorts first
    entry = populate(members, m, seed)
    for bucket in range(b):
        pos = fnv1a32(str(bucket).encode(), seed)
        print(entry[pos % m].decode())


if __name__ == "__main__":
    main()
