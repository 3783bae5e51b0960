#!/usr/bin/env python3
"""skeleton_ref.py -- an independent reference of `skeleton` (weighted
skeleton-based rendezvous hashing) for its known-answer test.

Written from the description in impls/skeleton.c's header comment, not from
its code: the C builds a flat tree once and walks it; this script descends
the member set itself at every lookup, re-deriving each level from the keys.

  member key   fmix64(ring_hash(id, seed))  (MurmurHash3's 64-bit finaliser)
  digit d      bits [64 - b(d + 1), 64 - b d) of the key (b = fanout_bits,
               zero-padded past bit 0)
  a level      the members sharing digits 0 .. d - 1; digits every one of
               them shares are skipped; they split by digit d into groups,
               in digit order
  group id     fmix64(top b(d + 1) bits of the key ^ (d + 1) * 0x9E3779B97F4A7C15)
  choice       the group with the highest W / -ln(u), W its members' total
               weight, u = ((fmix64(pos ^ id) >> 11) | 1) * 2^-53 (never 0 or
               1: the top input gives 1 - 2^-53); the
               first in digit order on equal scores
  position     ring_hash of the bucket's decimal label

The ring hash is FNV-1a 32 (draft-eastlake-fnv-17, sec. 2); a non-zero seed
is hashed first as 8 little-endian bytes. Members whose keys are equal are
refused (the C resolves them with xxh3, which this script does not carry).

usage: skeleton_ref.py FANOUT_BITS B SEED id[=w],id[=w],...
prints the owner id of buckets 0 .. B-1, one per line.
"""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts",
                                "pylib"))
from rb_argparse import parser  # noqa: E402  one-line errors, exit 2
from maglev_ref import fnv1a32  # noqa: E402  the one Python FNV-1a 32 of the references

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def fmix64(k):
    k ^= k >> 33
    k = (k * 0xFF51AFD7ED558CCD) & MASK
    k ^= k >> 33
    k = (k * 0xC4CEB9FE1A85EC53) & MASK
    return k ^ (k >> 33)


def owner(pos, ms, d, b):
    """ms: [(key, id, weight)] sharing digits 0 .. d - 1, in key order."""
    depth_max = -(-64 // b)

    def digit(key):
        return ((key << (b * d)) & MASK) >> (64 - b)

    while len(ms) > 1:
        while d < depth_max and len({digit(k) for k, _, _ in ms}) == 1:
            d += 1
        if d >= depth_max:
            sys.exit("skeleton_ref.py: two members share a key; pick other ids")
        groups = {}
        for m in ms:
            groups.setdefault(digit(m[0]), []).append(m)
        best, top = None, None
        for dig in sorted(groups):
            g = groups[dig]
            n = b * (d + 1)
            pre = g[0][0] if n >= 64 else (g[0][0] >> (64 - n)) << (64 - n)
            gid = fmix64(pre ^ (((d + 1) * GOLDEN) & MASK))
            u = ((fmix64(pos ^ gid) >> 11) | 1) * 2.0 ** -53
            score = -float(sum(w for _, _, w in g)) / math.log(u)
            if top is None or score > top:
                best, top = g, score
        ms, d = best, d + 1
    return ms[0][1]


def main():
    p = parser("skeleton_ref.py", __doc__)
    p.add_argument("fanout_bits", type=int, metavar="FANOUT_BITS")
    p.add_argument("b", type=int, metavar="B")
    p.add_argument("seed", type=int, metavar="SEED")
    p.add_argument("members", metavar="id[=w],id[=w],...")
    o = p.parse_args()
    ms = []
    for spec in o.members.split(","):
        ident, _, w = spec.partition("=")
        ms.append((fmix64(fnv1a32(ident.encode(), o.seed)), ident, int(w) if w else 1))
    ms.sort()
    for bucket in range(o.b):
        print(owner(fnv1a32(str(bucket).encode(), o.seed), ms, 0, o.fanout_bits))


if __name__ == "__main__":
    main()
