#!/usr/bin/env python3
"""ketama_ref.py -- an independent libketama reference for the known-answer test.

Written from libketama's published algorithm (R. Jones, last.fm, 2007,
libketama/ketama.c), not from impls/ketama.c:
  ketama_create_continuum: for server i of memory m_i, with
      pct = (float) m_i / (float) sum(m), ks = floorf(pct * 40.0 * numservers)
    digests; digest k = md5("%s-%d" % (addr, k)); each digest gives 4 points,
    point h = (d[3+4h] << 24) | (d[2+4h] << 16) | (d[1+4h] << 8) | d[4h];
    the continuum is the points sorted by value.
  ketama_hashi(key): (d[3] << 24) | (d[2] << 16) | (d[1] << 8) | d[0] of md5(key).
  ketama_get_server(key): the first point >= ketama_hashi(key); past the last
    point, the first point.
MD5 is Python's hashlib. Float arithmetic follows C: pct is rounded to a
32-bit float, the product is computed in double and rounded to float before
floorf.

usage: ketama_ref.py B addr[=memory],...    prints the server of the keys
"0" .. "B-1", one per line (ringbench's bucket b is the key "<b>").
"""
import bisect
import hashlib
import math
import struct
import sys


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def continuum(servers):
    total = sum(m for _, m in servers)
    points = []
    for addr, memory in servers:
        pct = f32(f32(memory) / f32(total))
        ks = int(math.floor(f32(pct * 40.0 * f32(len(servers)))))
        for k in range(ks):
            d = hashlib.md5(f"{addr}-{k}".encode()).digest()
            for h in range(4):
                points.append((int.from_bytes(d[4 * h:4 * h + 4], "little"), addr))
    points.sort(key=lambda p: p[0])
    return points


def get_server(points, values, key):
    h = int.from_bytes(hashlib.md5(key.encode()).digest()[:4], "little")
    i = bisect.bisect_left(values, h)
    return points[0 if i == len(points) else i][1]


def main():
    b = int(sys.argv[1])
    servers = []
    for spec in sys.argv[2].split(","):
        addr, _, m = spec.rpartition("=") if "=" in spec else (spec, "", "1")
        servers.append((addr, int(m)))
    points = continuum(servers)
    values = [p[0] for p in points]
    if len(set(values)) != len(values):
        sys.exit("ketama_ref.py: equal points; libketama leaves their order open")
    for bucket in range(b):
        print(get_server(points, values, str(bucket)))


if __name__ == "__main__":
    main()
