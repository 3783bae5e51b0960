# Scenario 8: a worker whose clock is far off makes no different lease decision, because leases
# are now() + lease on the server. The workers run under libfaketime (`faketime -f ±1h`, package
# faketime), so every wall clock the process reads (time, gettimeofday, clock_gettime) is 1 h off:
# lease arithmetic done on the client would show. Checks:
#   control  each shifted worker's own event stamps (its client clock) are 1 h off the server's
#            now(): the shift is real, so the checks below can fail (if they did not, a worker
#            computing leases from its clock would pass unseen);
#   leases   a claim by a client 1 h behind has lease_expires_at - claimed_at = the lease and
#            ends after the server's now(); a housekeeper 1 h ahead does not reap that live
#            lease; a client 1 h behind still reclaims an expired one (lease_generation 2).
source "$(dirname "$0")/lib.sh"
if ! command -v faketime >/dev/null 2>&1; then
    [[ ${RINGBENCH_PG_REQUIRED:-0} == 1 ]] && fail "faketime not installed (scripts/bootstrap installs it)"
    echo "SKIP [$TEST]: faketime not installed (scripts/bootstrap installs it)"
    exit 77
fi
# ASan must come first in the library list; libfaketime is preloaded before it (harmless here).
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
# bg_shifted NAME OFFSET ARGS... — bg (lib.sh) with the process clock shifted by OFFSET (+1h/-1h).
bg_shifted() {
    local name=$1 off=$2
    shift 2
    FAKETIME_DONT_FAKE_MONOTONIC=1 faketime -f "$off" "$RB" pg "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" &
    PIDS+=($!)
    eval "PID_$name=$!"
}
# expect_shift NAME SECONDS — NAME's first event stamp minus the server's epoch is SECONDS ± 60.
expect_shift() {
    local t server
    t=$(grep -o 't=[0-9.]*' "$TMP/$1.err" | head -1 | cut -d= -f2)
    [[ -n $t ]] || fail "control: worker $1 logged no event with its clock stamp"
    server=$(q "SELECT extract(epoch FROM now())")
    python3 -c "import sys; d = float(sys.argv[1]) - float(sys.argv[2]); sys.exit(0 if abs(d - $2) < 60 else 1)" "$t" "$server" ||
        fail "control: worker $1's clock is $(python3 -c "print(round(float('$t') - float('$server')))") s off the server, expected about $2 s (is libfaketime in effect?)"
}
"$RB" pg migrate >/dev/null
printf 'k:1\nk:2\n' | "$RB" pg enqueue >/dev/null
bg_shifted a -1h worker --id wA --batch 1 --lease-ms 3000 --heartbeat-ms 100 --ttl-ms 5000 \
    --stall-after-claim-ms 2000 --max-claims 1
wait_for 10 "SELECT count(*) = 1 FROM inbox_all WHERE claimed_by = 'wA'"
expect_eq "lease of a client 1 h behind: length, and it ends after the server's now()" \
    "$(q "SELECT lease_expires_at - claimed_at, lease_expires_at > now() FROM inbox_all WHERE claimed_by = 'wA'")" "00:00:03|t"
expect_shift a -3600
bg_shifted h +1h worker --id wH --heartbeat-ms 100 --ttl-ms 5000 --lease-ms 3000 --duration-ms 1200
wait_ok h
expect_shift h 3600
wait_ok a
expect_eq "A's completion after a housekeeper 1 h ahead ran" "$(field a completed) $(field a lost)" "1 0"
expect_eq "A's row" "$(q "SELECT worker_id || ' gen=' || lease_generation FROM effects WHERE partition_key = 'k:1'")" "wA gen=1"
echo "k:3" | "$RB" pg enqueue >/dev/null
bg e worker --id wE --lease-ms 300 --heartbeat-ms 100 --ttl-ms 400 --exit-after-claim --max-claims 1
wait_ok e
bg_shifted f -1h worker --id wF --heartbeat-ms 100 --ttl-ms 3000 --lease-ms 3000 --until-empty
wait_ok f
expect_shift f -3600
expect_eq "expired lease reclaimed by a client 1 h behind" "$(q "SELECT worker_id || ' gen=' || lease_generation FROM effects WHERE partition_key = 'k:3'")" "wF gen=2"
echo "PASS [$TEST]"
