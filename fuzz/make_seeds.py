#!/usr/bin/env python3
"""fuzz/make_seeds.py — (re)write the committed seed corpora fuzz/corpus/TARGET/
from the committed key samples (datasets/samples) and the edge cases of the
tests (verify/test_contract.c, verify/test_cli.sh, queue/tests/*.sh). Each
seed is named after what it holds. Run from anywhere; idempotent."""
import os, struct

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
corpus = os.path.join(root, "fuzz", "corpus")

def write(target, name, data):
    d = os.path.join(corpus, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)

def sample(name, n):
    with open(os.path.join(root, "datasets", "samples", name + ".txt"), "rb") as f:
        return b"".join(f.readlines()[:n])

# keys: B (4 bytes, big-endian) + seed (8) + the key file
hdr = struct.pack(">IQ", 1023, 0)
for s in ("cities", "english-words", "npm-names"):
    write("keys", f"sample-{s}", hdr + sample(s, 40))
write("keys", "seed-example", hdr + b"order:9182\nrefund:77\n\xc3\xa9\n")
write("keys", "edge-empty-lines", hdr + b"\n\na\n\n")
write("keys", "edge-crlf", hdr + b"order:1\r\norder:2\r\n")
write("keys", "edge-no-final-lf", hdr + b"a\nb")
write("keys", "edge-nul", hdr + b"a\x00b\n\x00\n")
write("keys", "edge-invalid-utf8", hdr + b"caf\xc3\n\xed\xa0\x80\n\xc0\xaf\n\xf4\x90\x80\x80\n\xff\n")
write("keys", "edge-astral", hdr + b"\xf0\x9f\x98\x80\n\xef\xbf\xbd\n")
write("keys", "edge-seed", struct.pack(">IQ", 0xFFFFFFFF, 0xFFFFFFFFFFFFFFFF) + b"x\n")

# ring: hash, flags, V, B (2), seed (8), shuffle seed (4), table source, parameters (0),
# extra algorithm, shuffled algorithm, members
def ring(name, members, hash_i=0, v=15, b=1023, flags=0, raw=None):
    head = bytes([hash_i, flags])
    head += struct.pack(">II", *raw) if raw else bytes([v]) + struct.pack(">H", b)
    global ring_no
    ring_no += 1  # the extra and the shuffled algorithm: a registry index per seed
    write("ring", name, head + struct.pack(">QIBBBB", 0, 7, 0, 0, ring_no % 16, ring_no % 16) + members)
ring_no = 0
for k in range(16):  # every registry index (16 > the algorithms registered today)
    write("ring", f"seed-3-workers-algo-{k}", bytes([0, 0, 31]) + struct.pack(">HQIBBBB", 1023, 0, 7, 0, 0, k, k)
          + b"worker-1,worker-2,worker-3")
ring("seed-3-workers", b"worker-1,worker-2,worker-3")
ring("seed-4-workers-fnv", b"worker-1,worker-2,worker-3,worker-4", hash_i=0)
ring("js-hash", b"w1,w2,\xc3\xa9", hash_i=1)
ring("colon-ids", b"s1:1,s1:11,s1:1#1")
ring("eq-ids", b"a=b=1,c=2")
ring("weights", b"w1=2,w2=1,w3=3")
ring("dup", b"a,b,a")
ring("weight-0", b"a=0,b")
ring("weight-huge", b"a=65537,b")
ring("empty-id", b"a,,b")
ring("bad-utf8-js", b"\xff,a", hash_i=1)
ring("raw-v0", b"a,b", flags=1, raw=(0, 1024))
ring("raw-b0", b"a,b", flags=1, raw=(128, 0))
ring("raw-huge", b"a,b", flags=1, raw=(0xFFFFFFFF, 0xFFFFFFFF))
ring("raw-max-points", b"a=65536", flags=1, raw=(1 << 10, 16))
ring("one-bucket", b"x,y,z", b=0)
# table filled from jump (source index 1 of the positional algorithms is not fixed: pick 3)
write("ring", "table-source-pick", bytes([0, 0, 15]) + struct.pack(">HQIBBBB", 63, 1, 9, 3, 0, 5, 5) + b"a,b,c,d")
# a parameter near its range (algorithm 0's first, if it declares one) and a raw one
write("ring", "param-near", bytes([2, 0, 15]) + struct.pack(">HQIBB", 63, 0, 9, 0, 2)
      + bytes([255, 0]) + struct.pack(">Q", 5) + bytes([255, 0x80]) + struct.pack(">Q", 2**64 - 1) + bytes([6, 6])
      + b"a,b,c")

# options: mode byte + text
for i, s in enumerate([b"0", b"18446744073709551615", b"18446744073709551616", b"-1", b"007"]):
    write("options", f"u64-{i}", b"\x00" + s)
write("options", "u32-range", b"\x01" + struct.pack(">II", 1, 1000000) + b"16")
for i, s in enumerate([b"1e3", b"nan", b"inf", b"0x1p3", b"1.5", b""]):
    write("options", f"double-{i}", b"\x02" + s)
for s in (b"text", b"json", b"csv", b"md"):
    write("options", f"format-{s.decode()}", b"\x03" + s)
write("options", "args-owner", b"\x04--algo\nbinary\n--members\nworker-1,worker-2\n--hash\nfnv1a32\norder:9182")
write("options", "args-all", b"\x04--vnodes\n128\n--buckets\n1024\n--bucket-hash\nxxh3\n--seed\n1\n--table-source\nlinear\n--format\nmd\nk")
write("options", "args-repeat", b"\x04--vnodes\n1\n--vnodes\n2")
write("options", "args-dashdash", b"\x04a\n--\n--odd-key\n--help")
write("options", "args-missing", b"\x04--members")

# enqueue_line: lines from queue/tests (issue 10, kind 8)
for name, line in [("key", b"order:1"), ("idem", b"order:9\tpay-1"), ("payload", b"order:9\tpay-1\tfirst"),
                   ("empty-idem", b"order:1\t\tpayload"), ("empty-key", b"\tid"), ("crlf", b"c:3\tid\tpay\r"),
                   ("tabs", b"t:1\tid\ta\tb\tc"), ("trailing-tab", b"b\t"), ("nul", b"a\x00b"),
                   ("bad-utf8", b"caf\xc3"), ("cr", b"\r"), ("long", b"k" * 2001)]:
    write("enqueue_line", name, line)

# conninfo: the redaction table (queue/tests/test_redact.c)
for i, s in enumerate([b"host=db port=5432 password=hunter2 user=rb", b"password='it\\'s \\\\ secret' host=x",
                       b"host=x password='unterminated", b"dbname='host=a password=s3cret' user=u",
                       b"postgresql://rb:hunter2@db.example:5432/app",
                       b"postgresql://db/app?sslmode=require&pass%77ord=hunter2",
                       b"postgresql://rb:p@ss@db/app", b"user=password application_name='password=x'"]):
    write("conninfo", f"case-{i}", s)
