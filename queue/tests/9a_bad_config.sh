# Scenario 9 (config): bad configuration exits 2 with one clear line; an unreachable server
# exits 1 with the libpq reason after the retry budget; an unmigrated schema is reported.
source "$(dirname "$0")/lib.sh"
check() { # check EXPECTED_RC PATTERN ARGS...
    local want=$1 pat=$2 rc=0
    shift 2
    "$RB" pg "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
    [[ $rc == "$want" ]] || fail "'ringbench pg $*': exit $rc, expected $want ($(cat "$TMP/err"))"
    grep -q -- "$pat" "$TMP/err" || fail "'ringbench pg $*': stderr '$(cat "$TMP/err")', expected /$pat/"
}
check 2 "must be <= TTL/3" worker --heartbeat-ms 500 --ttl-ms 1000 --until-empty
# The CLI refuses these with the range it checks (pg_cli_input checks every option's range).
check 2 "--lease-ms: 0 is out of range (1..86400000)" worker --lease-ms 0 --until-empty
check 2 "--batch: 0 is out of range (1..1000000)" worker --batch 0 --until-empty
check 2 "--ttl-ms: 0 is out of range (1..86400000)" worker --ttl-ms 0 --until-empty
check 2 "unknown claim mode" worker --mode fifo --until-empty
check 2 "schema must match" worker --schema 'Bad-Name' --until-empty
check 2 "give --until-empty" worker
check 2 "members is not used" worker --members a,b --until-empty
# An empty id, or one longer than the id buffer (it was cut to 255 bytes silently).
check 2 "worker id must be 1 to 255 bytes, got 0" worker --id "" --until-empty
check 2 "worker id must be 1 to 255 bytes, got 256" worker --id "$(printf 'w%.0s' $(seq 1 256))" --until-empty
check 2 "unknown planner switch" explain --planner-off hashjoins
check 2 "give one of --smoke, --quick, --full, not --quick and --full" bench --quick --full
# A repeated option is an error project-wide, not "the last one wins".
check 2 "--batch is given twice" worker --batch 4 --batch 5 --until-empty
check 2 "--schema is given twice" status --schema a --schema b
check 2 "--db is given twice" status --db "$RINGBENCH_PG_CONNINFO" --db "host=$TMP/nowhere"
check 2 "--vnodes is given twice" migrate --vnodes 64 --vnodes 32
check 2 "--format is given twice" enqueue --format json --format csv /dev/null
# A malformed conninfo is bad input (exit 2), not an unreachable server (exit 1).
check 2 'bad conninfo (not shown): invalid connection option "garbage"' status --db "garbage=="
check 2 "bad conninfo .*unterminated quoted string" worker --db "host='x" --until-empty
start=$SECONDS
check 1 "cannot connect to PostgreSQL" status --db "host=$TMP/nowhere port=1" --retry-ms 300
((SECONDS - start < 10)) || fail "unreachable server: took $((SECONDS - start)) s, expected a bounded retry"
echo "k:1" >"$TMP/keys"
check 1 "no queue tables (run .ringbench pg migrate. first)" enqueue --schema t_never_migrated_$$ "$TMP/keys"
check 1 "no queue tables" worker --schema t_never_migrated_$$ --until-empty
"$RB" pg migrate >/dev/null
# A key file with invalid UTF-8 (here after two full batches): exit 2 naming the line, and no
# row inserted (not the server's error after the first batches went in).
{ seq 1 2500 | sed 's/^/u:/'; printf 'caf\xc3\n'; } >"$TMP/bad_utf8"
check 2 "bad_utf8 line 2501: not valid UTF-8" enqueue "$TMP/bad_utf8"
expect_eq "rows after a rejected key file" "$(q "SELECT count(*) FROM inbox_all")" 0
head -c 2000 /dev/urandom | tr -d '\0' >"$TMP/binary"
check 2 "not valid UTF-8" enqueue "$TMP/binary"
# Options may stand after the FILE, as in every other command.
out=$("$RB" pg enqueue "$TMP/keys" --format json) || fail "enqueue FILE --format json: exit $?, expected 0"
expect_eq "enqueue FILE --format json" "$out" '{"rows": 1, "inserted": 1, "duplicates": 0}'
# A JSON report that cannot be written (stdout full): exit 1 and one line (cli/json_out.h).
if [[ -w /dev/full ]]; then
    for args in "status --format json" "status --dead-letters --format json" "retry --all --format json"; do
        rc=0
        # shellcheck disable=SC2086 # the words of $args on purpose
        "$RB" pg $args >/dev/full 2>"$TMP/full.err" || rc=$?
        [[ $rc == 1 && $(wc -l <"$TMP/full.err") == 1 ]] ||
            fail "'ringbench pg $args' into a full stdout: exit $rc, stderr '$(cat "$TMP/full.err")', expected exit 1 and one line"
    done
    # pg enqueue's report into a full stdout: the rows are committed, and the line says so
    # (it said only "writing output"; fresh user, helper-71)
    rc=0
    printf 'full:1\nfull:2\n' | "$RB" pg enqueue >/dev/full 2>"$TMP/full.err" || rc=$?
    expect_eq "enqueue into a full stdout: exit, stderr" "$rc $(cat "$TMP/full.err")" \
        "1 ringbench pg enqueue: writing output: No space left on device (the rows were enqueued: 2 inserted)"
    expect_eq "enqueue into a full stdout: the rows" "$(q "SELECT count(*) FROM inbox_all WHERE partition_key LIKE 'full:%'")" 2
fi
check 2 "was migrated with buckets=1024" migrate --buckets 512
# A second process with the id of a live worker is refused (it would share the member's
# buckets) and does not mark the first one left on its way out.
bg dup worker --id wDup --heartbeat-ms 100 --ttl-ms 3000 --duration-ms 2000
wait_for 10 "SELECT count(*) = 1 FROM workers WHERE id = 'wDup' AND status = 'alive'"
check 2 "worker id 'wDup' is already alive" worker --id wDup --heartbeat-ms 100 --ttl-ms 3000 --duration-ms 300
expect_eq "the first wDup after the refused one" "$(q "SELECT status FROM workers WHERE id = 'wDup'")" alive
wait_ok dup
grep -q "rejoin" "$TMP/dup.err" && fail "the first wDup rejoined under a new id: $(grep rejoin "$TMP/dup.err")"
# The recorded default ring is fixed too: a migrate asking for another one must not print
# "ready" while the workers keep the recorded ring.
check 2 "was migrated with .* algo=binary vnodes=128; asked for .* algo=linear vnodes=64" migrate --algo linear --vnodes 64
expect_eq "queue_config after a refused migrate" "$(q "SELECT algo || ' ' || n_vnodes FROM queue_config")" "binary 128"
echo "PASS [$TEST]"
