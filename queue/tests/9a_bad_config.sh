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
check 2 "lease must be > 0" worker --lease-ms 0 --until-empty
check 2 "batch must be >= 1" worker --batch 0 --until-empty
check 2 "TTL must be > 0" worker --ttl-ms 0 --until-empty
check 2 "unknown claim mode" worker --mode fifo --until-empty
check 2 "schema must match" worker --schema 'Bad-Name' --until-empty
check 2 "give --until-empty" worker
check 2 "members is not used" worker --members a,b --until-empty
check 2 "unknown planner switch" explain --planner-off hashjoins
start=$SECONDS
check 1 "cannot connect to PostgreSQL" status --db "host=$TMP/nowhere port=1" --retry-ms 300
((SECONDS - start < 10)) || fail "unreachable server: took $((SECONDS - start)) s, expected a bounded retry"
echo "k:1" >"$TMP/keys"
check 1 "no queue tables (run .ringbench pg migrate. first)" enqueue --schema t_never_migrated_$$ "$TMP/keys"
check 1 "no queue tables" worker --schema t_never_migrated_$$ --until-empty
"$RB" pg migrate >/dev/null
check 2 "was migrated with buckets=1024" migrate --buckets 512
echo "PASS [$TEST]"
