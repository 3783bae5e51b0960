#!/bin/sh
# test_schema.sh BINARY SCHEMA_DIR — ctest verify.schema: the JSON that `ringbench vnodes`,
# `verify --seed-example` and `verify --codes` print (small parameters) validates against the
# committed schemas in results/schema/ (python3-jsonschema). SKIPPED without the module.
set -u
RB=$1
S=$2
python3 -c 'import jsonschema' 2>/dev/null || { echo "SKIP: python3-jsonschema not installed (scripts/bootstrap installs it)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! { "$RB" vnodes --quiet --members 3..6 --max-vnodes 64 --seeds 2 --format json >"$tmp/vnodes.json" &&
    "$RB" vnodes --quiet --members 3..6 --max-vnodes 64 --seeds 2 --target-peak 3 --format json >"$tmp/vnodes-rec.json" &&
    "$RB" verify --seed-example --seeds 2 --format json >"$tmp/seed.json" &&
    "$RB" verify --codes --format json >"$tmp/codes.json"; }; then
    echo "FAIL a command failed"; exit 1
fi
python3 - "$S" "$tmp" <<'PY'
import json, sys
import jsonschema
S, t = sys.argv[1], sys.argv[2]
bad = 0
for out, schema in (("vnodes.json", "vnodes"), ("vnodes-rec.json", "vnodes"), ("seed.json", "seed-example"),
                    ("codes.json", "verify-codes")):
    sch = json.load(open(f"{S}/{schema}.schema.json"))
    jsonschema.Draft202012Validator.check_schema(sch)
    errors = list(jsonschema.Draft202012Validator(sch).iter_errors(json.load(open(f"{t}/{out}"))))
    for e in errors[:5]:
        print(f"FAIL {out} against {schema}.schema.json: {'/'.join(map(str, e.path))}: {e.message}")
    bad += len(errors)
    print(f"{out}: {'valid' if not errors else str(len(errors)) + ' errors'} ({schema}.schema.json)")
sys.exit(1 if bad else 0)
PY
