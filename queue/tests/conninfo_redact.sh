# Issue 10, kind 9: a conninfo echoed in an error line hides its password (key=value, quoted,
# URI user info, URI query parameter). Needs no server: the conninfo points at a socket folder
# that does not exist (exit 1, "cannot connect") or does not parse (exit 2, "bad conninfo").
set -uo pipefail
TEST=conninfo_redact
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL [$TEST] $*" >&2; exit 1; }
unset RINGBENCH_PG_CONNINFO PGPASSWORD
nowhere="$TMP/nowhere"
# check WANT_RC SECRET CONNINFO — the error line never holds the secret.
check() {
    local want=$1 secret=$2 ci=$3 rc=0
    "$RB" pg status --db "$ci" --retry-ms 0 >"$TMP/out" 2>"$TMP/err" || rc=$?
    [[ $rc == "$want" ]] || fail "--db '$ci': exit $rc, expected $want ($(cat "$TMP/err"))"
    [[ $(wc -l <"$TMP/err") == 1 ]] || fail "--db '$ci': expected one stderr line, got: $(cat "$TMP/err")"
    grep -qF -- "$secret" "$TMP/err" && fail "--db '$ci': the secret '$secret' is in the error: $(cat "$TMP/err")"
    # exit 1 (parsed, not reachable): the conninfo is shown with its secret hidden; exit 2 (not
    # parsed): it is not shown at all
    if [[ $want == 1 ]]; then
        grep -qF '***' "$TMP/err" || fail "--db '$ci': no '***' in the error: $(cat "$TMP/err")"
    else
        grep -qF 'bad conninfo (not shown)' "$TMP/err" || fail "--db '$ci': not 'bad conninfo (not shown)': $(cat "$TMP/err")"
    fi
    return 0
}
check 1 hunter2 "host=$nowhere port=1 user=rb password=hunter2"
check 1 "two words" "host=$nowhere port=1 password='two words'"
check 1 hunter2 "postgresql://rb:hunter2@/db?host=$nowhere&port=1"
check 1 hunter2 "postgresql:///db?host=$nowhere&port=1&password=hunter2"
check 2 hunter2 "host=$nowhere password=hunter2 bogus_option=1"
check 2 hunter2 "host=$nowhere password='hunter2"
check 2 hunter2 "postgresql://rb:hunter2@/db?bogus_option=1"
# libpq's own reason may echo the URI or a token of it; sslpassword is a secret too.
check 2 hunter2 "postgresql://rb:hunter2%zz@/db?host=$nowhere"
check 2 hunter2 "postgresql://rb:hunter2@[bad/db"
check 1 hunter2 "host=$nowhere port=1 sslpassword=hunter2"
# a conninfo libpq cannot parse is not echoed, and its quoted pieces in libpq's message are
# hidden unless they are a keyword as typed (fresh user: each of these showed the password)
check 2 hunter2 " postgresql://bob:hunter2@localhost:1/db"
check 2 hunter2 "postgresql://localhost:1/db?passwd=hunter2"
check 2 hunter2 "host=$nowhere password hunter2"
check 2 hunter2 "host=$nowhere password:hunter2"
check 2 S3cr3tPW "host=127.0.0.1 port=1 passwrd=S3cr3tPW"
grep -qF 'invalid connection option "passwrd"' "$TMP/err" || fail "expected the mistyped keyword named: $(cat "$TMP/err")"
# The rest of the conninfo stays, so the user can see which server was meant.
"$RB" pg status --db "host=$nowhere port=1 password=hunter2" --retry-ms 0 2>"$TMP/err" >/dev/null
grep -qF "host=$nowhere port=1 password=***" "$TMP/err" || fail "expected the host and port kept: $(cat "$TMP/err")"
echo "PASS [$TEST]"
