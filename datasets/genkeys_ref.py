#!/usr/bin/env python3
"""genkeys_ref.py — an independent Python generator of ringbench-genkeys' known answers.

    python3 datasets/genkeys_ref.py uuid COUNT SEED
    python3 datasets/genkeys_ref.py zipf COUNT SEED CUSTOMERS S

Written from the definitions, not from the C code's structure: splitmix64 (Steele, Lea and
Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014; Vigna's reference
splitmix64.c), a version-4 UUID from 128 random bits (RFC 9562 sec. 5.4, formatted by Python's
uuid module), and Zipf(s) over ranks 1..K by inverse transform on the cumulative weights
sum_{r<=k} r^-s (the first rank whose cumulative weight exceeds u * total, u = top 53 bits / 2^53).
The goldens in datasets/test_genkeys.sh came from this script; the test also runs it
(ctest datasets.genkeys) and compares more cases.
"""
import bisect
import sys
import uuid

MASK = (1 << 64) - 1


def splitmix64(state):
    """Yield the splitmix64 stream from `state` (the state is advanced before each output)."""
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        yield z ^ (z >> 31)


def uuids(count, seed):
    g = splitmix64(seed)
    for _ in range(count):
        raw = (next(g) << 64 | next(g)).to_bytes(16, "big")
        # uuid.UUID(version=4) sets the version nibble and the RFC variant bits
        yield str(uuid.UUID(bytes=raw, version=4))


def zipf(count, seed, customers, s):
    cum, total = [], 0.0
    for r in range(1, customers + 1):
        total += float(r) ** -s
        cum.append(total)
    g = splitmix64(seed)
    for _ in range(count):
        u = (next(g) >> 11) * 2.0 ** -53
        yield "customer:%d" % (bisect.bisect_right(cum, u * total) + 1)


def main(argv):
    if len(argv) >= 4 and argv[1] == "uuid":
        out = uuids(int(argv[2]), int(argv[3]))
    elif len(argv) >= 6 and argv[1] == "zipf":
        out = zipf(int(argv[2]), int(argv[3]), int(argv[4]), float(argv[5]))
    else:
        sys.stderr.write("usage: genkeys_ref.py uuid COUNT SEED | zipf COUNT SEED CUSTOMERS S\n")
        return 2
    for line in out:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
