#!/bin/sh
# test_cli.sh — the `ringbench` command line through the real binary (issue 2).
#
#   sh verify/test_cli.sh path/to/ringbench
#
# Checks: every command's --help exits 0 and prints to stdout; bad arguments
# exit 2 with exactly one line on stderr and nothing on stdout; json output
# parses and has the documented shape; options are accepted after keys and
# `--` ends them; keys from stdin give the same output as keys as arguments;
# the seed's `order:9182` lands in the bucket the seed's JavaScript gives;
# a write error on stdout or a read error on stdin exits 1. Needs node (which
# scripts/bootstrap installs) to parse JSON and to run the seed's hash().
# Failures print the case, got and expected, and are counted; the last line
# is "test_cli: N passed, N failed".

# shellcheck disable=SC2086 # $R holds the ring options: split into words on purpose
B=${1:?usage: test_cli.sh RINGBENCH_BINARY}
n_pass=0
n_fail=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

pass() { n_pass=$((n_pass + 1)); }
fail() {
    n_fail=$((n_fail + 1))
    printf 'FAIL cli: %s: %s\n' "$1" "$2" >&2
}
# check CASE GOT EXPECTED
check() {
    if [ "$2" = "$3" ]; then pass; else fail "$1" "got '$2', expected '$3'"; fi
}
# run ARGS... : run the binary with stdin from /dev/null; sets rc, out/err files
run() {
    "$B" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    rc=$?
}
# expect_usage CASE ARGS... : exit 2, stdout empty, exactly one line on stderr
expect_usage() {
    case_=$1
    shift
    run "$@"
    n_err=$(wc -l <"$tmp/err" | tr -d ' ')
    if [ "$rc" -eq 2 ] && [ "$n_err" -eq 1 ] && [ ! -s "$tmp/out" ]; then
        pass
    else
        fail "$case_" "got exit $rc, $n_err stderr lines ($(head -c 300 "$tmp/err")), stdout $(wc -c <"$tmp/out") bytes; expected exit 2, one stderr line, empty stdout"
    fi
}
# expect_ok CASE ARGS... : exit 0, stderr empty
expect_ok() {
    case_=$1
    shift
    run "$@"
    if [ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ]; then
        pass
    else
        fail "$case_" "got exit $rc and stderr '$(head -c 300 "$tmp/err")', expected exit 0 and no stderr"
    fi
}

if command -v node >/dev/null 2>&1; then
    have_node=1
else
    have_node=0
    fail "setup" "node not found (scripts/bootstrap installs it); JSON and seed checks need it"
fi

# json_check CASE SHAPE [N] : parse $tmp/out as JSON and check its shape
json_check() {
    [ "$have_node" -eq 1 ] || return
    if msg=$(node -e '
const [shape, n] = process.argv.slice(1);
let v;
try { v = JSON.parse(require("fs").readFileSync(0, "utf8")); }
catch (e) { console.log("does not parse: " + e.message); process.exit(1); }
const isObj = (o, keys, types) => o && typeof o === "object" && !Array.isArray(o) &&
  Object.keys(o).join(",") === keys.join(",") && keys.every((k, i) => typeof o[k] === types[i]);
let ok = Array.isArray(v);
if (ok && n !== undefined) ok = v.length === Number(n);
if (ok && shape === "hash") ok = v.every(o => isObj(o, ["key", "hash"], ["string", "number"]) && o.hash >= 0);
if (ok && shape === "owner") ok = v.every(o => isObj(o, ["key", "bucket", "owner"], ["string", "number", "string"]));
if (ok && shape === "table") ok = v.every(o => typeof o === "string");
if (!ok) { console.log("shape is not " + shape + (n ? " of length " + n : "") + ": " + JSON.stringify(v).slice(0, 200)); process.exit(1); }
' "$2" ${3:-} <"$tmp/out"); then pass; else fail "$1" "$msg"; fi
}

R="--algo binary --members w1,w2,w3"

# --- help: every command listed by `ringbench --help` ---
expect_ok "ringbench --help" --help
commands=$(sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p' "$tmp/out")
if [ -n "$commands" ]; then pass; else fail "ringbench --help" "got no command lines, expected a list"; fi
for c in $commands; do
    expect_ok "$c --help" "$c" --help
    if [ -s "$tmp/out" ]; then pass; else fail "$c --help" "got empty stdout, expected the help text"; fi
done

# --- bad arguments: exit 2, one line on stderr ---
expect_usage "no command"
expect_usage "unknown command" no-such-command
expect_usage "unknown algorithm" owner --algo no-such-algo --members a,b k
expect_usage "unknown hash" owner --algo binary --members a,b --hash no-such-hash k
expect_usage "unknown bucket hash" owner --algo binary --members a,b --bucket-hash nope k
expect_usage "unknown hash (hash command)" hash --hash no-such-hash k
expect_usage "unknown format" owner $R --format yaml k
expect_usage "unknown format (hash)" hash --hash xxh3 --format yaml k
expect_usage "unknown format (table)" table $R --format xml
expect_usage "unknown format (list)" list --format xml
expect_usage "unknown option" owner $R --frobnicate k
expect_usage "missing --members" owner --algo binary k
expect_usage "missing --algo" table --members a,b
expect_usage "missing --hash" hash k
expect_usage "option without value" owner $R --vnodes
expect_usage "--vnodes 0" owner $R --vnodes 0 k
expect_usage "--vnodes not a number" owner $R --vnodes 12x k
expect_usage "--vnodes negative" table $R --vnodes -3
expect_usage "--buckets 0" owner $R --buckets 0 k
expect_usage "--buckets too large" table $R --buckets 99999999999
expect_usage "--seed not a number" hash --hash xxh3 --seed x k
expect_usage "duplicate members" owner --algo binary --members a,b,a k
expect_usage "duplicate members (table)" table --algo jump --members w1,w1
expect_usage "empty --derive" table --algo anchor --members a,b,c --derive ''
expect_usage "--derive with an empty last step" table --algo anchor --members a,b,c --derive 'a,b;'
check "--derive 'a,b;' names step 2" "$(grep -c '^ringbench table: step 2 of --derive is empty' "$tmp/err")" 1
# an empty step in the middle is named by its number (it quoted ';b', the rest; fresh user)
expect_usage "--derive with an empty middle step" table --algo binary --members a,b --derive 'a;;b'
check "--derive 'a;;b' names step 2" "$(grep -c '^ringbench table: step 2 of --derive is empty' "$tmp/err")" 1
expect_usage "--derive bad weight in step 2" table --algo binary --members a,b --derive 'a;b,c=x'
check "--derive bad weight: step 2, member 2" "$(grep -c "^ringbench table: step 2 of --derive ('b,c=x'): member 2 ('c') weight" "$tmp/err")" 1
# a --derive step is as long as --members may be (it stopped at 4,095 bytes; fresh user), and an
# error about a long step shows its start, then the reason (the reason was cut off)
long=$(i=0; while [ $i -lt 5000 ]; do printf 'member-%d,' $i; i=$((i + 1)); done; printf 'last')
expect_ok "--derive step of 58 kB" owner --algo binary --members a --derive "$long" k
expect_usage "--derive step past anchor's capacity" owner --algo anchor --members a --derive "$long" k
check "--derive long step: cut, then the reason" "$(grep -c "^ringbench owner: step 1 of --derive ('member-0,.*\.\.\.'): anchor: .*capacity" "$tmp/err")" 1
expect_usage "weight 0" owner --algo binary --members a=0,b k
expect_usage "weight not a number" owner --algo binary --members a=x,b k
# past 2^32 the message gave no range (a fresh user read "not a whole number" for 99999999999)
expect_usage "weight past 2^32" owner --algo binary --members a=99999999999,b k
check "weight past 2^32: the range, naming the member" "$(grep -c "member 1 ('a') weight: 99999999999 is out of range (1\.\.65536)" "$tmp/err")" 1
expect_usage "empty member id" owner --algo binary --members a,,b k
# the CLI's own messages count positions from 1 (members were counted from 0, keys and steps
# from 1); the library's messages still count members from 0, as the Postgres extension's do
# (queue/ext/README.md, "Member numbers"; README "Errors and exit codes")
check "empty member id: member 2" "$(grep -c "member 2 has an empty id" "$tmp/err")" 1
expect_usage "empty member list" table --algo binary --members ""
expect_usage "invalid UTF-8 key for fnv1a32-js" owner $R --hash fnv1a32-js "$(printf 'k\377')"
expect_usage "invalid UTF-8 key for fnv1a32-js (hash)" hash --hash fnv1a32-js "$(printf '\303')"
expect_usage "invalid UTF-8 member id for fnv1a32-js" table --algo binary --members "$(printf 'w\377'),b" --hash fnv1a32-js
# json holds text: a key or member id that is not UTF-8 is refused before any output, since
# 0xFF 0xFE would read back as the two characters of the UTF-8 key "\u00ff\u00fe" (fresh user)
expect_usage "json: key not UTF-8 (hash)" hash --hash xxh3 --format json ok "$(printf '\377\376')"
check "json: key not UTF-8 names key 2" "$(grep -c 'key 2 is not UTF-8' "$tmp/err")" 1
expect_usage "json: key not UTF-8 (owner)" owner $R --format json "$(printf 'k\300')"
expect_usage "json: member id not UTF-8 (owner)" owner --algo binary --members "a,$(printf 'w\377')" --format json k
expect_usage "json: member id not UTF-8 (table)" table --algo binary --members "$(printf 'w\377'),b" --format json
check "json: member id not UTF-8 names member 1 (counted from 1, as every position)" "$(grep -c 'member 1 of --members is not UTF-8' "$tmp/err")" 1
# a member of a --derive step is named by its step, not as one of --members (fresh user)
expect_usage "json: derived member id not UTF-8 (table)" table --algo binary --members a,b --format json --derive "a;a,b,$(printf '\377\376')"
check "json: derived member names --derive step 2" "$(grep -c 'member 3 of --derive step 2 is not UTF-8' "$tmp/err")" 1
expect_usage "json: derived member id not UTF-8 (owner)" owner --algo anchor --members a,b --format json --derive "$(printf 'a,\377')" k
check "json: derived member names --derive step 1" "$(grep -c 'member 2 of --derive step 1 is not UTF-8' "$tmp/err")" 1
expect_ok "json: a member not UTF-8 that --derive removes is never written" table --algo binary --members "a,$(printf '\377')" --format json --derive a
# A message quotes at most 60 bytes of an input (48 of a member id, 64 of a duplicate id) and
# cuts it on a character boundary: a cut inside 'é' wrote invalid UTF-8 to stderr (fresh user).
a47=$(printf '%047d' 0 | tr 0 a)
# cut_check CASE ARGS...: exit 2, stderr UTF-8, the quote cut before the 'é' and marked
# ($cut_end: what follows the "..."; a quote's closing ')
cut_end="'"
cut_check() {
    case_=$1
    shift
    expect_usage "$case_" "$@"
    if iconv -f UTF-8 -t UTF-8 <"$tmp/err" >/dev/null 2>&1; then pass; else
        fail "$case_" "stderr is not UTF-8: $(od -c "$tmp/err" | tail -n 3)"
    fi
    check "$case_: cut before the 'é', marked" "$(grep -c "a\.\.\.$cut_end" "$tmp/err")" 1
}
cut_check "cut: --derive step at 60 bytes" table --algo binary --members a --derive "${a47}aaaaaaaaaaaaé=x"
cut_check "cut: member id at 48 bytes" table --algo binary --members "${a47}é=x"
cut_check "cut: duplicate id at 64 bytes" table --algo binary --members "${a47}aaaaaaaaaaaaaaaaé,${a47}aaaaaaaaaaaaaaaaé"
cut_check "cut: --param value at 60 bytes" table --algo multiprobe --members a --param "probes=${a47}aaaaaaaaaaaaé"
# the whole message's limits: the library's detail (1,023 bytes) and the line (2,047 bytes)
a1000=$(printf '%01000d' 0 | tr 0 a)
cut_end='$'
cut_check "cut: a library detail at 1,020 bytes" table --algo "${a1000}éé" --members a
cut_check "cut: a message at 2,044 bytes" table --format "${a1000}${a1000}aaéxyz" --algo binary --members a
expect_ok "json: the UTF-8 key U+00FF U+00FE" hash --hash xxh3 --format json "$(printf '\303\277\303\276')"
expect_ok "csv: a key not UTF-8 is written as its bytes" owner $R --format csv "$(printf '\377\376')"
check "csv: the key's bytes" "$(sed -n 2p "$tmp/out" | head -c 2 | od -An -tx1 | tr -d ' ')" fffe
# issue 12, section 3: the top score word gave u = 1.0 (a score of -inf), so the weighted
# path handed this key to y while equal weights gave w-Byyd07 (fresh user, the issue's case)
for w in "w-Byyd07,y" "w-Byyd07=2,y=2" "w-Byyd07=5,y"; do
    run owner --algo rendezvous --members "$w" --hash fnv1a32 --buckets 262144 k64756
    check "rendezvous at u = 1, --members $w" "$(cut -f3 "$tmp/out")" w-Byyd07
done
expect_usage "table takes no keys" table $R extra
expect_usage "list takes no arguments" list extra
# a repeated option is an error, never "the last one wins" (qa)
expect_usage "--members twice" owner --algo binary --members a,b --members c k
expect_usage "--format twice" list --format json --format csv
expect_usage "--hash twice (hash)" hash --hash xxh3 --hash fnv1a32 k
expect_usage "--members twice (vnodes)" vnodes --members 3 --members 4 --quiet
expect_usage "--quiet twice (verify)" verify --seed-example --quiet --quiet
expect_usage "table source unknown" table --algo table --members a,b --table-source nope
expect_usage "table source is table" owner --algo table --members a,b --table-source table k

# --- json shapes ---
expect_ok "hash json" hash --hash fnv1a32 --format json "" a foobar
json_check "hash json" hash 3
expect_ok "owner json" owner $R --format json order:9182 "k,\"q\"" "$(printf 'tab\there')"
json_check "owner json" owner 3
expect_ok "table json" table $R --buckets 10 --format json
json_check "table json" table 10
expect_ok "owner json, no keys" owner $R --format json </dev/null
json_check "owner json, no keys" owner 0
expect_ok "list json" list --format json
json_check "list json" list

# --- known values: the published FNV-1a goldens through the CLI ---
expect_ok "hash text" hash --hash fnv1a32 "" a foobar
check "hash fnv1a32 '' a foobar" "$(cut -f2 "$tmp/out" | tr '\n' ' ')" "2166136261 3826002220 3214735720 "

# --- options anywhere, -- ends them ---
# replicas: K distinct owners per key, K > N and algorithms without a scheme are exit 2
expect_ok "owner --replicas 2 of 2" owner --algo binary --members a,b --replicas 2 k1
check "owner --replicas 2 of 2: both members" "$(cut -f4 "$tmp/out" | sort | tr '\n' ' ')" "a b "
check "owner --replicas 2 of 2: replica column" "$(cut -f3 "$tmp/out" | tr '\n' ' ')" "0 1 "
expect_ok "owner --replicas csv" owner --algo rendezvous --members a,b,c --replicas 3 --format csv k1
check "owner --replicas csv header" "$(head -1 "$tmp/out")" "key,bucket,replica,owner"
check "owner --replicas csv: 3 distinct" "$(tail -n +2 "$tmp/out" | cut -d, -f4 | sort -u | wc -l)" "3"
expect_usage "--replicas above N" owner --algo binary --members a,b --replicas 3 k
expect_usage "--replicas 0" owner --algo binary --members a,b --replicas 0 k
expect_usage "--replicas on jump" owner --algo jump --members a,b --replicas 2 k
expect_ok "options after keys" owner --algo binary --members a,b k1 --format json
json_check "options after keys" owner 1
expect_ok "-- ends options" owner --algo binary --members a,b --format csv -- k1 --format
check "-- ends options: keys" "$(tail -n +2 "$tmp/out" | cut -d, -f1 | tr '\n' ' ')" "k1 --format "
expect_ok "negative-looking key" hash --hash xxh3 -5
check "negative-looking key" "$(cut -f1 "$tmp/out")" "-5"

# --- keys from stdin == keys as arguments ---
printf 'order:9182\nrefund:1\n\nreceipt:\303\251\n' >"$tmp/keys"
for fmt in text json csv; do
    "$B" owner $R --hash fnv1a32 --format "$fmt" <"$tmp/keys" >"$tmp/stdin.out" 2>"$tmp/err"
    rc_in=$?
    "$B" owner $R --hash fnv1a32 --format "$fmt" order:9182 refund:1 "" "$(printf 'receipt:\303\251')" >"$tmp/argv.out" 2>>"$tmp/err"
    rc_arg=$?
    if [ $rc_in -eq 0 ] && [ $rc_arg -eq 0 ] && cmp -s "$tmp/stdin.out" "$tmp/argv.out"; then
        pass
    else
        fail "owner $fmt: stdin vs arguments" "got exits $rc_in/$rc_arg and outputs that differ ($(head -c 200 "$tmp/err"))"
    fi
done
check "owner from stdin: 4 rows" "$("$B" owner $R <"$tmp/keys" | wc -l | tr -d ' ')" "4"

# --- the seed's order:9182: bucket = seed's JS hash() mod 1024 ---
if [ "$have_node" -eq 1 ]; then
    seed_js='function hash(str){let h=2166136261;for(let i=0;i<str.length;i++){h^=str.charCodeAt(i);h=Math.imul(h,16777619);}return h>>>0;}'
    js_hash=$(node -e "$seed_js console.log(hash(process.argv[1]))" order:9182)
    js_bucket=$(node -e "$seed_js console.log(hash(process.argv[1]) % 1024)" order:9182)
    expect_ok "seed's order:9182" owner $R --hash fnv1a32 --format csv order:9182
    check "order:9182 bucket (fnv1a32) vs the seed's JavaScript" "$(tail -n 1 "$tmp/out" | cut -d, -f2)" "$js_bucket"
    check "order:9182 hash (fnv1a32) vs the seed's JavaScript" "$("$B" hash --hash fnv1a32 order:9182 | cut -f2)" "$js_hash"
    for k in "é" "日本語" "order:😀"; do
        want=$(node -e "$seed_js console.log(hash(process.argv[1]))" "$k")
        check "fnv1a32-js '$k' vs the seed's JavaScript" "$("$B" hash --hash fnv1a32-js "$k" | cut -f2)" "$want"
    done
fi

# --- table: one row per bucket, owners are members ---
expect_ok "table text" table --algo jump --members w1,w2,w3 --buckets 16
check "table rows" "$(wc -l <"$tmp/out" | tr -d ' ')" "16"
check "table owners are members" "$(cut -f2 "$tmp/out" | sort -u | tr '\n' ' ')" "w1 w2 w3 "
check "table buckets 0..15" "$(cut -f1 "$tmp/out" | tr '\n' ' ')" "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 "

# --- ids that hash alike under a 32-bit ring hash (mlpfs, m4vja: fnv1a32 3706980687) ---
# Under FNV every vnode label of the two collides, so a vnode ring gives one of them nothing:
# one warning line names both (exit 0, the table still printed); rendezvous keys such ids
# apart (no warning, both own buckets); under xxh3 they do not collide.
run table --algo binary --members x,mlpfs,m4vja --hash fnv1a32 --format csv
check "colliding ids, binary: exit" "$rc" "0"
check "colliding ids, binary: one warning line" "$(wc -l <"$tmp/err" | tr -d ' ')" "1"
check "colliding ids, binary: the warning names both" \
    "$(grep -c "warning: members 2 ('mlpfs') and 3 ('m4vja') hash alike under fnv1a32" "$tmp/err")" "1"
check "colliding ids, binary: one of them owns nothing" "$(tail -n +2 "$tmp/out" | cut -d, -f2 | sort -u | wc -l | tr -d ' ')" "2"
expect_ok "colliding ids, rendezvous: no warning" table --algo rendezvous --members x,mlpfs,m4vja --hash fnv1a32 --format csv
check "colliding ids, rendezvous: all three own buckets" "$(tail -n +2 "$tmp/out" | cut -d, -f2 | sort -u | wc -l | tr -d ' ')" "3"
expect_ok "colliding ids, xxh3: no warning" table --algo binary --members x,mlpfs,m4vja --hash xxh3 --format csv
run owner --algo multiprobe --members mlpfs,m4vja --hash fnv1a32 k1
check "colliding ids, multiprobe owner: exit and warning" "$rc $(grep -c 'owns no bucket' "$tmp/err")" "0 1"

# --- runtime failures: exit 1 ---
# A full stdout: exit 1 and one line on stderr, for the text writer and for every JSON
# writer that needs no server (cli/json_out.h: the verify documents, the rb_out rows).
if [ -w /dev/full ]; then
    for args in "table $R" "table $R --format json" "list --format json" \
        "owner $R --format json k1 k2" "verify --seed-example --seeds 2 --format json" \
        "verify --codes --format json" \
        "verify --quiet --members 2..3 --vnodes 1,4 --seeds 1 --n-keys 1000 --format json" \
        "vnodes --quiet --members 3..4 --max-vnodes 4 --seeds 2 --blocks 2 --format json"; do
        "$B" $args >/dev/full 2>"$tmp/err"
        rc=$?
        check "stdout full ($args): exit" "$rc" "1"
        check "stdout full ($args): one line on stderr ($(head -c 200 "$tmp/err"))" \
            "$(wc -l <"$tmp/err" | tr -d ' ')" "1"
    done
fi
"$B" table $R >&- 2>"$tmp/err"
check "stdout closed: exit" "$?" "1"
"$B" owner $R <&- >/dev/null 2>"$tmp/err"
check "stdin closed: exit" "$?" "1"

echo "test_cli: $n_pass passed, $n_fail failed"
[ "$n_fail" -eq 0 ]
