#!/usr/bin/env python3
"""stateful_ref.py — reference bucket tables of the stateful algorithms
(`anchor`, `memento`, `dx`), computed by an implementation independent of
the C library, written from the papers' pseudo-code:

  AnchorHash  Mendelson et al., IEEE/ACM ToN 2021: the implementation
              algorithm with all four arrays A, W, L, K and the stack R
              (the C code keeps only A and K and follows K instead of W/L);
  MementoHash Coluzzi et al., IEEE/ACM ToN 2024: b-array size, replacement
              set {bucket: (replacer, prev_removed)}, last removed bucket
              (the C code derives the replacers from the removal stack);
  DxHash      Dong & Wang, arXiv:2107.07930: the set of inactive buckets and
              the stack of removed ones (the C code uses an owner array).

    python3 verify/kat/stateful_ref.py --algo anchor --buckets 64 \\
        --members a,b,c,d --derive 'a,c,d;a,c,d,e' [--capacity 1024]

prints the table `ringbench table --algo anchor --hash fnv1a32 --buckets 64
--members a,b,c,d --derive 'a,c,d;a,c,d,e' --format csv` must print: a
`bucket,owner` header, then one line per bucket. verify/test_stateful_kat.sh
runs both and compares them line by line.

What is pinned (ringbench's choices where the papers leave a free hash):
  bucket position  fnv1a32 of the bucket's decimal label, seed 0 (ring.h);
  h(pos, j)        fmix64(pos + j * 0x9E3779B97F4A7C15 mod 2^64)
                   (MurmurHash3's 64-bit finaliser);
  range(x, n)      floor(x * n / 2^64);
  anchor           first slot range(h(pos, 0), a); removed slot b re-hashes
                   with range(h(pos, b + 1), A[b]);
  memento          jump(pos, n) (Lamping & Veach, jump_ref.py), removed slot
                   b re-hashes with range(h(pos, b + 1), replacer);
  capacity         --capacity A, or 0 (default): the smallest power of two
                   >= 2 x the first membership's total weight;
  dx               candidate i is range(h(pos, i), a), i = 0 .. 8a - 1, then
                   the first working slot at or after the last candidate.
Members own slots: a fresh membership in list order (weight w: w slots); on
each --derive step, members that left (old list order) give up their slots
highest first (RemoveBucket), then new members (new list order) take theirs
from AddBucket; a member whose weight changed leaves and joins again.
"""
import argparse
import sys

from jump_ref import jump

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def fnv1a32(data: bytes) -> int:
    h = 2166136261
    for byte in data:
        h = ((h ^ byte) * 16777619) & 0xFFFFFFFF
    return h


def fmix64(k: int) -> int:
    k ^= k >> 33
    k = (k * 0xFF51AFD7ED558CCD) & MASK64
    k ^= k >> 33
    k = (k * 0xC4CEB9FE1A85EC53) & MASK64
    k ^= k >> 33
    return k


def h(pos: int, j: int) -> int:
    return fmix64((pos + j * GOLDEN) & MASK64)


def rng(x: int, n: int) -> int:
    return (x * n) >> 64


class Anchor:
    """AnchorHash, the paper's implementation with A, W, L, K and R."""

    def __init__(self, a: int, w: int):
        if w > a:
            raise ValueError(f"total weight {w} exceeds the capacity {a}")
        self.a, self.N = a, w
        self.A = [0] * a
        self.W = list(range(a))
        self.L = list(range(a))
        self.K = list(range(a))
        self.R = []
        for b in range(a - 1, w - 1, -1):  # initial removals, a-1 down to w
            self.A[b] = b
            self.R.append(b)

    def remove(self, b: int) -> None:
        self.R.append(b)
        self.N -= 1
        self.W[self.L[b]] = self.W[self.N]
        self.L[self.W[self.N]] = self.L[b]
        self.K[b] = self.W[self.N]
        self.A[b] = self.N

    def add(self) -> int:
        b = self.R.pop()
        self.L[self.W[self.N]] = self.N
        self.W[self.L[b]] = b
        self.N += 1
        self.A[b] = 0
        self.K[b] = b
        return b

    def slot(self, pos: int) -> int:
        A, K = self.A, self.K
        b = rng(h(pos, 0), self.a)
        while A[b] > 0:
            c = rng(h(pos, b + 1), A[b])
            if A[c] < A[b]:  # working, or removed after b: seen by b
                b = c
            elif c == b:
                b = K[b]
            else:  # removed before b: translate into b's view
                while A[b] <= A[c]:
                    c = K[c]
                b = c
        return b


class Memento:
    """MementoHash: b-array size n, replacement set, last removed bucket."""

    def __init__(self, w: int):
        self.n = self.last = w
        self.table = {}  # bucket -> (replacer, prev_removed)

    def remove(self, b: int) -> None:
        if not self.table and b == self.n - 1:
            self.n = self.last = b
            return
        self.table[b] = (self.n - len(self.table) - 1, self.last)
        self.last = b

    def add(self) -> int:
        b = self.last
        self.last = self.table.pop(b)[1] if self.table else b + 1
        self.n = max(self.n, b + 1)
        return b

    def replacer(self, b: int) -> int:
        return self.table[b][0] if b in self.table else -1

    def slot(self, pos: int) -> int:
        b = jump(pos, self.n)
        rep = self.replacer(b)
        while rep >= 0:
            b = rng(h(pos, b + 1), rep)
            r = self.replacer(b)
            while r >= rep:
                b = r
                r = self.replacer(b)
            rep = r
        return b


class Dx:
    """DxHash: inactive set over the NSArray of a slots, removed stack."""

    def __init__(self, a: int, w: int):
        if w > a:
            raise ValueError(f"total weight {w} exceeds the capacity {a}")
        self.a, self.size = a, w
        self.inactive = set(range(w, a))
        self.removed = []

    def remove(self, b: int) -> None:
        self.size -= 1
        self.inactive.add(b)
        self.removed.append(b)

    def add(self) -> int:
        b = self.removed.pop() if self.removed else self.size
        self.inactive.discard(b)
        self.size += 1
        return b

    def slot(self, pos: int) -> int:
        s = 0
        for i in range(8 * self.a):
            s = rng(h(pos, i), self.a)
            if s not in self.inactive:
                return s
        while s in self.inactive:
            s = (s + 1) % self.a
        return s


def parse_members(spec: str):
    out = []
    for part in spec.split(","):
        ident, eq, weight = part.rpartition("=")
        out.append((ident, int(weight)) if eq else (part, 1))
    return out


def table(algo: str, capacity: int, n_buckets: int, members: str, steps):
    current = parse_members(members)
    total = sum(w for _, w in current)
    if capacity == 0:  # automatic: the power of two >= 2 x the total weight
        capacity = 1
        while capacity < 2 * total:
            capacity *= 2
    alg = {"anchor": lambda: Anchor(capacity, total), "memento": lambda: Memento(total),
           "dx": lambda: Dx(capacity, total)}[algo]()
    owner, s = {}, 0
    for ident, w in current:
        for _ in range(w):
            owner[s] = ident
            s += 1
    for step in steps:
        new = parse_members(step)
        old_w, new_w = dict(current), dict(new)
        for ident, w in current:  # leavers, old list order, slots highest first
            if new_w.get(ident) != w:
                for slot in sorted((k for k, v in owner.items() if v == ident), reverse=True):
                    alg.remove(slot)
                    del owner[slot]
        for ident, w in new:  # joiners, new list order
            if old_w.get(ident) != w:
                for _ in range(w):
                    owner[alg.add()] = ident
        current = new
    return [owner[alg.slot(fnv1a32(str(b).encode()))] for b in range(n_buckets)]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--algo", required=True, choices=["anchor", "memento", "dx"])
    p.add_argument("--buckets", type=int, default=1024)
    p.add_argument("--capacity", type=int, default=0, help="0: automatic (as ringbench)")
    p.add_argument("--members", required=True)
    p.add_argument("--derive", default="")
    o = p.parse_args()
    steps = [s for s in o.derive.split(";") if s] if o.derive else []
    rows = table(o.algo, o.capacity, o.buckets, o.members, steps)
    print("bucket,owner")
    for b, ident in enumerate(rows):
        print(f"{b},{ident}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
