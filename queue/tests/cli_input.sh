# Bad input to the pg commands, found by a fresh user; each is a kind, checked across the
# commands. Needs no server: --db points at a socket folder that does not exist, so input the
# commands accept ends in "cannot connect" (exit 1) and bad input must be exit 2 with one line
# `ringbench pg CMD: message` before any connection.
#  1. every whole-number option states the range it checks (pg worker --batch said
#     "0..86400000", copied from the ms options): the range in the message of a huge value is
#     the range accepted, for every numeric option in `pg worker --help`, and a whole number
#     outside it says "out of range (MIN..MAX)", not "not a whole number";
#  2. comma lists refuse an empty item (by position) and a repeated one (pg bench, planner
#     switches);
#  3. an uncreatable --out is exit 2 in pg chaos and pg bench alike (one helper), a missing
#     folder is created with its parents;
#  4. options a queue does not record (--param, --table-source) and a seed the bucket trigger
#     cannot pass on (above 2^63 - 1) are refused by pg migrate; ring options the worker
#     would silently not use (B, bucket hash, seed: always the queue's) by pg worker;
#  5. a worker --id that is not UTF-8.
set -uo pipefail
TEST=cli_input
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
unset RINGBENCH_PG_CONNINFO
fails=0
fail() { echo "FAIL [$TEST] $*" >&2; fails=$((fails + 1)); }
db=(--db "host=$TMP/nowhere port=1" --retry-ms 0)
dbb=(--db "host=$TMP/nowhere port=1") # pg bench has no --retry-ms

# usage PATTERN ARGS... — `ringbench pg ARGS`: exit 2, one stderr line matching PATTERN (grep -E).
usage() {
    local pattern=$1 rc=0
    shift
    "$RB" pg "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
    if [[ $rc != 2 || $(wc -l <"$TMP/err") != 1 ]] || ! grep -Eq -- "$pattern" "$TMP/err"; then
        fail "pg $*: exit $rc, stderr '$(head -c 400 "$TMP/err")'; expected exit 2, one line /$pattern/"
    fi
}

# 1. pg worker: every numeric option of its help, against the range its message states.
mapfile -t opts < <("$RB" pg worker --help | grep -oE '^  --[a-z-]+ (MS|N|P)( |$)' | awk '{print $1}' | grep -vxE -- '--(clock-offset-ms|on-failed-key|retry-ms)')
((${#opts[@]} >= 16)) || fail "pg worker --help lists ${#opts[@]} numeric options, expected at least 16"
for opt in "${opts[@]}"; do
    "$RB" pg worker "${db[@]}" --until-empty "$opt" 99999999999999999999 >/dev/null 2>"$TMP/err"
    range=$(sed -nE "s/^ringbench pg worker: $opt: 99999999999999999999 is out of range \(([0-9]+)\.\.([0-9]+)\)$/\1 \2/p" "$TMP/err")
    if [[ -z $range ]]; then
        fail "pg worker $opt 99999999999999999999: '$(cat "$TMP/err")', expected '$opt: ... is out of range (MIN..MAX)'"
        continue
    fi
    read -r lo hi <<<"$range"
    for v in "$lo" "$hi"; do # the ends of the stated range pass the option's own check
        "$RB" pg worker "${db[@]}" --until-empty "$opt" "$v" >/dev/null 2>"$TMP/err"
        grep -Eq -- "$opt(:| must)" "$TMP/err" && fail "pg worker $opt $v (inside the stated range $lo..$hi) refused: $(cat "$TMP/err")"
    done
    usage "^ringbench pg worker: $opt: $((hi + 1)) is out of range \($lo\.\.$hi\)$" worker "${db[@]}" --until-empty "$opt" $((hi + 1))
    ((lo > 0)) && usage "^ringbench pg worker: $opt: $((lo - 1)) is out of range \($lo\.\.$hi\)$" worker "${db[@]}" --until-empty "$opt" $((lo - 1))
    usage "^ringbench pg worker: $opt must be a whole number from $lo to $hi, got '12x'$" worker "${db[@]}" --until-empty "$opt" 12x
done
usage "^ringbench pg worker: --batch: 0 is out of range \(1\.\.1000000\)$" worker "${db[@]}" --until-empty --batch 0
# options of other modes: an error, not silently ignored (in either order)
usage "^ringbench pg worker: --on-failed-key applies to --mode ordered only \(got --mode affinity\)$" worker "${db[@]}" --until-empty --on-failed-key skip --mode affinity
usage "^ringbench pg worker: --on-failed-key applies to --mode ordered only \(got --mode competing\)$" worker "${db[@]}" --until-empty --on-failed-key block
usage "^ringbench pg worker: --claim-scan applies to --mode affinity and ordered only \(got --mode competing\)$" worker "${db[@]}" --until-empty --mode competing --claim-scan walk
usage "^ringbench pg worker: --age-bound-ms applies to --mode affinity only \(got --mode competing\)$" worker "${db[@]}" --until-empty --age-bound-ms 5000
usage "^ringbench pg worker: --age-bound-ms applies to --mode affinity only \(got --mode ordered\)$" worker "${db[@]}" --until-empty --age-bound-ms 0 --mode ordered
usage "^ringbench pg explain: --aged applies to --mode affinity only \(got --mode ordered\)$" explain "${db[@]}" --aged --mode ordered
usage "^ringbench pg explain: --aged and --alone exclude each other" explain "${db[@]}" --mode affinity --alone --aged
usage "^ringbench pg explain: --head applies to the competing claim only \(--mode competing, or affinity with --alone; got --mode affinity\)$" explain "${db[@]}" --mode affinity --head
usage "^ringbench pg explain: --head and --aged exclude each other" explain "${db[@]}" --mode affinity --aged --head
usage "^ringbench pg worker: --claim-scan must be auto or walk, got 'WALK'$" worker "${db[@]}" --until-empty --mode ordered --claim-scan WALK
usage "^ringbench pg worker: --clock-offset-ms: 99999999999999999999 is out of range \(-86400000\.\.86400000\)$" worker "${db[@]}" --until-empty --clock-offset-ms 99999999999999999999
usage "^ringbench pg worker: --clock-offset-ms must be a whole number of ms from -86400000 to 86400000, got '5s'$" worker "${db[@]}" --until-empty --clock-offset-ms 5s
usage "^ringbench pg explain: --batch: 1000001 is out of range \(1\.\.1000000\)$" explain "${db[@]}" --batch 1000001
usage "^ringbench pg status: --limit: 0 is out of range \(1\.\.1000000000\)$" status "${db[@]}" --dead-letters --limit 0
usage "^ringbench pg status: --retry-ms: 3600001 is out of range \(0\.\.3600000\)$" status --retry-ms 3600001
usage "^ringbench pg retry: row id: 99999999999999999999 is out of range \(1\.\.9223372036854775807\)$" retry "${db[@]}" 99999999999999999999
usage "^ringbench pg chaos: --seed: 99999999999999999999 is out of range \(0\.\.18446744073709551615\)$" chaos "${db[@]}" --seed 99999999999999999999
usage "^ringbench pg bench: --keys: 99999999999999999999 is out of range \(1\.\.100000000\)$" bench "${dbb[@]}" --keys 99999999999999999999
usage "^ringbench pg bench: --repeats: 10 is out of range \(1\.\.9\)$" bench "${dbb[@]}" --repeats 10
usage "^ringbench pg bench: --secs must be a decimal number from 0.1 to 3600, got 'x'$" bench "${dbb[@]}" --secs x
# decimal options take decimal numbers only (fresh user, stop 38: strtod's syntax let '0x14',
# ' 20', 'inf' through as 20, 20 and a refusal worded as a bad number), and a number out of
# range is worded as the whole-number options' ("out of range (MIN..MAX)")
for v in 0x14 " 20" "20 " inf nan "" . 1e 20s --1 1..2; do
    usage "^ringbench pg bench: --soak must be a decimal number from 10 to 86400, got '$v'$" bench "${dbb[@]}" --soak "$v"
done
usage "^ringbench pg bench: --soak: 9 is out of range \(10\.\.86400\)$" bench "${dbb[@]}" --soak 9
usage "^ringbench pg bench: --soak: 1e6 is out of range \(10\.\.86400\)$" bench "${dbb[@]}" --soak 1e6
usage "^ringbench pg bench: --soak: 1e999 is out of range \(10\.\.86400\)$" bench "${dbb[@]}" --soak 1e999
usage "^ringbench pg bench: --pgbench-secs: 0.5 is out of range \(1\.\.3600\)$" bench "${dbb[@]}" --pgbench-secs 0.5
usage "^ringbench pg bench: --zipf-s: -0.1 is out of range \(0\.\.10\)$" bench "${dbb[@]}" --dist zipf --zipf-s -0.1
# a pgbench that cannot start is refused before anything runs (the run measured its whole
# matrix, then failed; fresh user, helper-69); not where no part runs pgbench
usage "^ringbench pg bench: --pgbench: '/nonexistent/pgbench' is not an executable file$" bench "${dbb[@]}" --smoke --pgbench /nonexistent/pgbench
for opt in --pgbench --queue-db --pgbench-db --out; do # (--pgbench '' ran the default one)
    usage "^ringbench pg bench: $opt: empty value \(omit it for the default\)$" bench "${dbb[@]}" --smoke "$opt" ""
done
usage "^ringbench pg bench: --db: empty value \\(omit it for the default\\)$" bench --smoke --db ""
# an empty --db or --schema (an unset variable in a script) took libpq's defaults, another
# server, or failed later
for c in status worker migrate enqueue explain retry chaos; do
    for opt in --db --schema; do
        usage "^ringbench pg $c: $opt: empty value \(omit it for the default\)$" "$c" "$opt" ""
    done
done
usage "^ringbench pg bench: --pgbench: '/etc' is not an executable file$" bench "${dbb[@]}" --smoke --pgbench /etc
usage "^ringbench pg bench: --pgbench: 'no-such-pgbench' is not an executable file$" bench "${dbb[@]}" --smoke --pgbench no-such-pgbench
RINGBENCH_PGBENCH=/nonexistent usage "^ringbench pg bench: RINGBENCH_PGBENCH: '/nonexistent' is not an executable file$" bench "${dbb[@]}" --smoke
rc=0
RINGBENCH_PGBENCH=/nonexistent "$RB" pg bench "${dbb[@]}" --batch none --chain-workers none --no-scale --no-crash --backlog 1k >/dev/null 2>"$TMP/err" || rc=$?
if [[ $rc != 1 ]] || ! grep -q "cannot connect" "$TMP/err"; then
    fail "pg bench without pgbench's parts, RINGBENCH_PGBENCH=/nonexistent: exit $rc, $(cat "$TMP/err"); expected exit 1, cannot connect"
fi
# a stray argument is an argument, not an unknown option (it was "unknown option 'foo'")
usage "^ringbench pg bench: unexpected argument 'foo' \(pg bench takes none\)$" bench "${dbb[@]}" foo
usage "^ringbench pg migrate: --vnodes: 99999999999999999999 is out of range \(1\.\.67108864\)$" migrate "${db[@]}" --vnodes 99999999999999999999

usage "^ringbench pg migrate: --retention-batch: 100001 is out of range \(1\.\.100000\)$" migrate "${db[@]}" --retention-batch 100001
usage "^ringbench pg migrate: --retention-ms must be off or a whole number of ms from 1000 to 315360000000 \(out of range\), got '99999999999999999999'$" migrate "${db[@]}" --retention-ms 99999999999999999999

# 2. comma lists: an empty item by position, a repeated item, a bad one by position.
usage "^ringbench pg bench: --workers: item 2 of '1,,2' is empty \(items count from 1\)$" bench "${dbb[@]}" --workers 1,,2
usage "^ringbench pg bench: --workers: '2' is listed twice \(items 1 and 2\)$" bench "${dbb[@]}" --workers 2,2
usage "^ringbench pg bench: --workers item 2: 65 is out of range \(1\.\.64\)$" bench "${dbb[@]}" --workers 1,65
usage "^ringbench pg bench: --batch: '08' is listed twice \(items 1 and 2\)$" bench "${dbb[@]}" --batch 8,08
usage "^ringbench pg bench: --modes: 'affinity' is listed twice \(items 1 and 3\)$" bench "${dbb[@]}" --modes affinity,ordered,affinity
usage "^ringbench pg bench: --modes item 1: unknown 'fifo' \(known: competing, affinity, ordered\)$" bench "${dbb[@]}" --modes fifo
usage "^ringbench pg bench: --dist: item 2 of 'uniform,' is empty" bench "${dbb[@]}" --dist uniform,
usage "^ringbench pg bench: --backlog: '10000' is listed twice \(items 1 and 2\)$" bench "${dbb[@]}" --backlog 10k,10000
usage "^ringbench pg bench: --backlog item 1: 0k is out of range \(1000\.\.10000000 rows\)$" bench "${dbb[@]}" --backlog 0k
usage "^ringbench pg bench: --backlog item 2: 11M is out of range \(1000\.\.10000000 rows\)$" bench "${dbb[@]}" --backlog 1M,11M
usage "^ringbench pg bench: --workers takes at most 8 items, got 9" bench "${dbb[@]}" --workers 1,2,3,4,5,6,7,8,9
usage "^ringbench pg bench: --heap-order wants loaded, id or bucket, got 'random'$" bench "${dbb[@]}" --heap-order random
usage "^ringbench pg bench: --heap-order needs a value$" bench "${dbb[@]}" --heap-order
usage "^ringbench pg bench: --age-bound-ms: 86400001 is out of range \(0\.\.86400000\)$" bench "${dbb[@]}" --age-bound-ms 86400001
usage "^ringbench pg bench: --age-bound-ms must be a whole number from 0 to 86400000, got '-1'$" bench "${dbb[@]}" --age-bound-ms -1
usage "^ringbench pg bench: --age-bound-ms must be a whole number from 0 to 86400000, got '5s'$" bench "${dbb[@]}" --age-bound-ms 5s
usage "^ringbench pg bench: --age-bound-ms: no affinity worker in this run reads it" bench "${dbb[@]}" --modes competing,ordered --age-bound-ms 5 --no-scale --no-crash
# every option a part of the run reads is refused without that part (the first such option named)
usage "^ringbench pg bench: --kills: this run has no crash run \(--no-crash\)$" bench "${dbb[@]}" --no-crash --kills 2
usage "^ringbench pg bench: --zipf-s: no cell of this run draws Zipf keys" bench "${dbb[@]}" --dist uniform --zipf-s 1.2
usage "^ringbench pg bench: --soak-retention-ms: this run has no soak" bench "${dbb[@]}" --soak-retention-ms 5000
usage "^ringbench pg bench: --backlog-secs: this run has no backlog sweep" bench "${dbb[@]}" --backlog-secs 2 --backlog none
usage "^ringbench pg bench: --complete: this run has no matrix cell" bench "${dbb[@]}" --batch none --backlog none --complete each
usage "^ringbench pg bench: --heap-order: this run has no matrix or chain-group cell" bench "${dbb[@]}" --heap-order id --batch none --chain-workers none
usage "^ringbench pg bench: --pgbench-group-secs: this run has no matrix or chain-group cell" bench "${dbb[@]}" --batch none --chain-workers none --pgbench-group-secs 5
usage "^ringbench pg bench: --repeats: this run has no cell and no backlog sweep" bench "${dbb[@]}" --batch none --chain-workers none --backlog none --repeats 5
usage "^ringbench pg bench: --modes: this run has no cell and no backlog sweep" bench "${dbb[@]}" --batch none --chain-workers none --backlog none --modes ordered
# a run without cells (--batch none --chain-workers none) runs no pgbench reference: the
# options of the cells and of the reference are refused, --rows also needs no scale event
for o in --workers --secs --pgbench-secs --pgbench --pgbench-db; do
    usage "^ringbench pg bench: $o: this run has no matrix or chain-group cell" bench "${dbb[@]}" --batch none --chain-workers none --backlog 10k "$o" 2
done
# a soak has a pgbench reference: --workers is refused for want of cells, not of a reference
# (it said "so no pgbench reference")
usage "^ringbench pg bench: --workers: this run has no matrix or chain-group cell \(the backlog sweep runs 2 workers, the soak 4\)$" bench "${dbb[@]}" --batch none --chain-workers none --backlog none --no-scale --no-crash --soak 20 --workers 2
usage "^ringbench pg bench: --rows: this run has no matrix or chain-group cell and no scale event" bench "${dbb[@]}" --batch none --chain-workers none --no-scale --backlog 10k --rows 5000
usage "^ringbench pg bench: --algo: no worker of this run owns buckets" bench "${dbb[@]}" --batch none --chain-workers none --no-scale --no-crash --backlog 10k --modes competing --algo modn
usage "^ringbench pg bench: unexpected argument '--x' \(pg bench takes none\)$" bench "${dbb[@]}" -- --x
# an option's value is not read as an option: not as a profile (--pgbench-db --quick: the
# database "--quick", profile smoke; it was "give one of --smoke, --quick, --full"), nor as an
# earlier copy of an option (--pgbench-db --smoke --smoke: one --smoke; it was "given twice"):
# accepted, so cannot connect
# (the last: options whose parts run are accepted)
for args in "--smoke --pgbench-db --quick" "--pgbench-db --smoke --smoke" "--queue-db --db --pgbench-db x" \
    "--dist zipf --zipf-s 1.2 --kills 2 --soak 10 --soak-retention-ms 5000 --complete each --heap-order id" \
    "--batch none --chain-workers none --complete chain --repeats 2 --modes affinity" \
    "--batch none --chain-workers none --no-scale --no-crash --backlog 10k --complete each" \
    "--batch none --chain-workers none --no-crash --backlog none --rows 5000" \
    "--modes competing,ordered --no-scale --no-crash --backlog none --algo modn" \
    "--batch none --chain-workers none --no-scale --no-crash --backlog none --soak 10 --pgbench-secs 2 --pgbench-db x" \
    "--secs .5 --pgbench-secs 1e1 --dist zipf --zipf-s +1.25 --soak 10.5"; do
    rc=0
    read -ra extra <<<"$args"
    "$RB" pg bench "${dbb[@]}" "${extra[@]}" >/dev/null 2>"$TMP/err" || rc=$?
    if [[ $rc != 1 ]] || ! grep -q "cannot connect" "$TMP/err"; then
        fail "pg bench $args: exit $rc, '$(head -c 300 "$TMP/err")'; expected exit 1, cannot connect"
    fi
done
usage "^ringbench pg worker: --crash-on needs a partition key, got ''$" worker "${db[@]}" --until-empty --crash-on ""
usage "^ringbench pg worker: --fail-attempts needs --fail-pct above 0" worker "${db[@]}" --until-empty --fail-attempts 2
# pg bench, found by a fresh user on 50021a1: --db and --conninfo are one option (the second
# used to win silently), a conninfo libpq cannot parse is bad input (exit 2, not shown; was
# exit 1 after trying to connect), and a run that measures nothing is refused (was exit 0).
usage "^ringbench pg bench: --conninfo is given twice \(give each option once; --db and --conninfo are one\)$" bench "${dbb[@]}" --conninfo "host=/nowhere"
usage "^ringbench pg bench: bad conninfo \(not shown\): " bench --db "host=x password=s3cr3t bogus=1"
usage "^ringbench pg bench: bad conninfo \(not shown\): " bench --db "host=x password=p s3cr3t"
! grep -q s3cr3t "$TMP/err" || fail "pg bench: a bad conninfo's password shown: $(cat "$TMP/err")"
usage "^ringbench pg bench: nothing to measure: " bench "${dbb[@]}" --batch none --chain-workers none --no-scale --no-crash --backlog none
usage "^ringbench pg explain: planner switches 'seqscan,,sort': item 2 is empty$" explain "${db[@]}" --planner-off seqscan,,sort
usage "^ringbench pg worker: planner switches 'sort,sort': 'sort' is listed twice$" worker "${db[@]}" --until-empty --planner-off sort,sort

# 3. --out: one helper, exit 2 in both commands; a missing folder is made with its parents
#    (exit 1, not 2, says it was: no server), and removed again when nothing ran (an empty
#    folder was left behind; fresh user, helper-69): the folders made go, those that were
#    there stay.
touch "$TMP/file"
for c in chaos bench; do
    if [[ $c == chaos ]]; then cdb=("${db[@]}"); else cdb=("${dbb[@]}"); fi
    usage "^ringbench pg $c: cannot create --out folder '/dev/null/x': Not a directory$" "$c" "${cdb[@]}" --out /dev/null/x
    usage "^ringbench pg $c: cannot create --out folder '$TMP/file': it exists and is not a folder$" "$c" "${cdb[@]}" --out "$TMP/file"
    mkdir -p "$TMP/$c-there/kept" "$TMP/$c-there/empty"
    # (new/../empty: the folder that existed stays, new goes; it deleted empty/, helper-70;
    # "." components make nothing: dot/./x/. is undone whole, x/./y left x/y, helper-70)
    for out in "$TMP/$c/a/b" "$TMP/$c-there/a/b/" "$TMP/$c-there/kept" "$TMP/$c-there/new/../empty" \
        "$TMP/$c-there/dot/./x/." "$TMP/$c-there/d//e/./"; do
        rc=0
        "$RB" pg "$c" "${cdb[@]}" --out "$out" >/dev/null 2>"$TMP/err" || rc=$?
        [[ $rc == 1 ]] || fail "pg $c --out $out: exit $rc (expected 1: no server): $(cat "$TMP/err")"
    done
    [[ ! -e $TMP/$c && ! -e $TMP/$c-there/a && ! -e $TMP/$c-there/dot && ! -e $TMP/$c-there/d &&
        ! -e $TMP/$c-there/new &&
        -d $TMP/$c-there/kept && -d $TMP/$c-there/empty ]] ||
        fail "pg $c: after no server, $(cd "$TMP" && find "$c" "$c-there" 2>/dev/null | tr '\n' ' '); expected only $c-there/kept and $c-there/empty"
    # a folder holding files (an earlier run's) is refused before anything runs, untouched: an
    # interrupted second run into it overwrote the first's results and logs (helper-71)
    mkdir -p "$TMP/$c-run" && echo first >"$TMP/$c-run/pgbench.json"
    usage "^ringbench pg $c: --out folder '$TMP/$c-run' is not empty \(it holds 'pgbench.json'\): a run would overwrite or mix with it; give a new or empty folder$" "$c" "${cdb[@]}" --out "$TMP/$c-run"
    [[ $(cat "$TMP/$c-run/pgbench.json") == first ]] || fail "pg $c: the earlier run's file changed"
    # ... and the folders made on the way to a refused one go again (new/ stayed; helper-72)
    usage "^ringbench pg $c: --out folder '$TMP/$c-new/../$c-run' is not empty" "$c" "${cdb[@]}" --out "$TMP/$c-new/../$c-run"
    [[ ! -e $TMP/$c-new ]] || fail "pg $c: refused --out $c-new/../$c-run: $c-new/ stayed"
    # a symbolic link to nothing, and an existing folder it cannot write to, say so
    ln -s "$TMP/nothing-here" "$TMP/$c-dangling"
    usage "^ringbench pg $c: cannot create --out folder '$TMP/$c-dangling': it is a symbolic link to nothing$" "$c" "${cdb[@]}" --out "$TMP/$c-dangling"
done

# a folder as pg enqueue's FILE is bad input, as a missing file (it was exit 1; helper-71)
usage "^ringbench pg enqueue: cannot read '$TMP': Is a directory$" enqueue "${db[@]}" "$TMP"

# 4. pg migrate: what the queue cannot keep is refused before connecting; --vnodes with an
#    algorithm without vnodes was recorded and then fixed the queue for nothing (helper-71)
for a in jump modn maglev; do
    usage "^ringbench pg migrate: --vnodes does not apply to --algo $a \(it has no vnodes" migrate "${db[@]}" --algo "$a" --vnodes 16
done
usage "^ringbench pg migrate: --param does not apply to a queue" migrate "${db[@]}" --algo maglev --param table_size=1009
usage "^ringbench pg migrate: --table-source does not apply to a queue" migrate "${db[@]}" --algo table --table-source maglev
usage "^ringbench pg migrate: --seed: 9223372036854775808 is out of range \(0\.\.9223372036854775807\)$" migrate "${db[@]}" --seed 9223372036854775808
usage "^ringbench pg migrate: --seed: 18446744073709551615 is out of range \(0\.\.9223372036854775807\)$" migrate "${db[@]}" --seed 18446744073709551615
# ... and says that range for a seed that is no number (it said 0..18446744073709551615)
usage "^ringbench pg migrate: --seed must be a whole number from 0 to 9223372036854775807, got '0x10'$" migrate "${db[@]}" --seed 0x10
# ... and the worker refuses ring options it would silently not use: B, bucket hash and seed
# are always the queue's; --param is checked against the --algo it overrides with.
usage "^ringbench pg worker: --buckets, --bucket-hash and --seed are the queue's" worker "${db[@]}" --until-empty --buckets 512
usage "^ringbench pg worker: --buckets, --bucket-hash and --seed are the queue's" worker "${db[@]}" --until-empty --seed 7
usage "^ringbench pg worker: --param and --table-source need --algo here" worker "${db[@]}" --until-empty --param table_size=1009
usage "^ringbench pg worker: unknown parameter 'foo'" worker "${db[@]}" --until-empty --algo binary --param foo=1
usage "^ringbench pg worker: --table-source does not apply to --algo binary" worker "${db[@]}" --until-empty --algo binary --table-source jump
# ... and --help lists no option the command refuses (pg worker listed all nine ring options,
# pg migrate --members; fresh user, stop 38), while a refused option still gets its reason.
"$RB" pg worker --help >"$TMP/worker-help"
"$RB" pg migrate --help >"$TMP/migrate-help"
for o in --members --buckets --bucket-hash --seed; do
    ! grep -q -- "^  $o " "$TMP/worker-help" || fail "pg worker --help lists $o, which it refuses"
done
! grep -q -- "^  --members " "$TMP/migrate-help" || fail "pg migrate --help lists --members, which it refuses"
for o in --algo --vnodes --hash --table-source --param; do
    grep -q -- "^  $o " "$TMP/worker-help" || fail "pg worker --help does not list $o"
done
for o in --buckets --bucket-hash --seed; do
    grep -q -- "^  $o " "$TMP/migrate-help" || fail "pg migrate --help does not list $o"
done
grep -q "^  skeleton " "$TMP/worker-help" || fail "pg worker --help lists no algorithms"
# each command's --help gives its own --retry-ms default (pg chaos's said 10000 in the session
# lines and 60000 in its own text)
grep -q -- "^  --retry-ms MS .*(default 10000)$" "$TMP/worker-help" || fail "pg worker --help: --retry-ms default"
"$RB" pg chaos --help | grep -q -- "^  --retry-ms MS .*(default 60000)$" || fail "pg chaos --help: --retry-ms default"
usage "^ringbench pg migrate: --members is not used" migrate "${db[@]}" --members a,b
# `pg` alone: one line (it was the 18-line usage on stderr); an empty --restart-cmd (sh -c ''
# restarts nothing and "succeeds"; both fresh user, helper-69)
rc=0
"$RB" pg >"$TMP/out" 2>"$TMP/err" || rc=$?
if [[ $rc != 2 || -s $TMP/out ]] || [[ $(cat "$TMP/err") != "ringbench pg: a subcommand is needed (ringbench pg --help lists them)" ]]; then
    fail "ringbench pg: exit $rc, stderr '$(head -c 300 "$TMP/err")'; expected exit 2, one line"
fi
usage "^ringbench pg chaos: --restart-cmd is empty" chaos "${db[@]}" --restart-cmd ""
usage "^ringbench pg chaos: --restart-cmd is empty" chaos "${db[@]}" --restart-cmd "  "
# --format of status and enqueue names the value refused (it did not)
usage "^ringbench pg status: --format must be text, json or csv, got 'xml'$" status "${db[@]}" --format xml
usage "^ringbench pg enqueue: --format needs a value$" enqueue "${db[@]}" --format
# no server configured and none reachable: one line, the hint on it (it was a second line)
rc=0
PGHOST=$TMP/nowhere PGPORT=1 env -u RINGBENCH_PG_CONNINFO "$RB" pg status >/dev/null 2>"$TMP/err" || rc=$?
if [[ $rc != 1 || $(wc -l <"$TMP/err") != 1 ]] || ! grep -q "cannot connect.*(hint: start the embedded server with .scripts/pg start." "$TMP/err"; then
    fail "pg status, no --db (no server): exit $rc, stderr '$(cat "$TMP/err")'; expected exit 1, one line with the hint"
fi
# 5. a worker id is text: it is stored in a text column and written in JSON, where bytes that
#    are not UTF-8 would read back as other characters (fresh user, #14).
usage "^ringbench pg worker: --id must be UTF-8 text" worker "${db[@]}" --until-empty --id "$(printf 'w\377')"
# white space split the summary's words ("worker a b mode=..."; fresh user, helper-70)
usage "^ringbench pg worker: --id must not contain white space or control characters \(byte 2\)$" worker "${db[@]}" --until-empty --id "a b"
usage "^ringbench pg worker: --id must not contain white space or control characters \(byte 3\)$" worker "${db[@]}" --until-empty --id "$(printf 'ab\tc')"
# ... Unicode's too: NEL (C1), NO-BREAK SPACE, LINE SEPARATOR, IDEOGRAPHIC SPACE (helper-72)
for ch in '\302\205' '\302\240' '\342\200\250' '\343\200\200'; do
    usage "^ringbench pg worker: --id must not contain white space or control characters \(byte 2\)$" worker "${db[@]}" --until-empty --id "$(printf "a%bb" "$ch")"
done
rc=0
"$RB" pg worker "${db[@]}" --until-empty --id "$(printf 'w\303\277')" >/dev/null 2>"$TMP/err" || rc=$?
[[ $rc == 1 ]] || fail "pg worker --id 'wÿ' (UTF-8): exit $rc, expected 1 (accepted; no server): $(cat "$TMP/err")"
rc=0
"$RB" pg worker "${db[@]}" --mode affinity --until-empty --algo maglev --param table_size=1009 >/dev/null 2>"$TMP/err" || rc=$?
[[ $rc == 1 ]] || fail "pg worker --mode affinity --algo maglev --param table_size=1009: exit $rc, expected 1 (accepted; no server): $(cat "$TMP/err")"
# ... and a competing worker, which owns no buckets, refuses every ring option (they were
# accepted and ignored; fresh user, helper-69), wherever --mode stands
for o in "--algo maglev" "--vnodes 7" "--hash fnv1a32"; do
    read -ra ro <<<"$o"
    usage "^ringbench pg worker: ring options apply to --mode affinity and ordered only \(got --mode competing" worker "${db[@]}" --until-empty "${ro[@]}"
    usage "^ringbench pg worker: ring options apply to --mode affinity and ordered only \(got --mode competing" worker "${db[@]}" "${ro[@]}" --until-empty --mode competing
done
rc=0
"$RB" pg migrate "${db[@]}" --seed 9223372036854775807 >/dev/null 2>"$TMP/err" || rc=$?
[[ $rc == 1 ]] || fail "pg migrate --seed 2^63-1 (the largest queue seed): exit $rc, expected 1 (no server): $(cat "$TMP/err")"

((fails == 0)) || exit 1
echo "PASS [$TEST]"
