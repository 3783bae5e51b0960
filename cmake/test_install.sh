#!/usr/bin/env bash
# test_install.sh BUILD_DIR CONSUMER_DIR VERSION — the install.consumer ctest (issue 15).
# Installs BUILD_DIR into a temporary prefix, then builds cmake/consumer against the installed
# copy three ways — pkg-config (shared), find_package + ringbench::ringbench (shared) and
# find_package + ringbench::ringbench_static — runs each and checks that it reports VERSION and
# routes order:9182 to bucket 43 (fnv1a32, B = 1024: the seed's example) owned by worker-2 (what
# `ringbench owner --algo binary --members worker-1,worker-2,worker-3 --hash fnv1a32` prints).
# Environment: CC (compiler), RB_CONSUMER_FLAGS (e.g. the sanitizer flags of the build).
set -euo pipefail
build=$1 consumer=$2 version=$3
cc=${CC:-cc}
flags=${RB_CONSUMER_FLAGS:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL [install.consumer] $*" >&2; exit 1; }

cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" || { cat "$tmp/install.log" >&2; fail "cmake --install failed"; }
pc=$(find "$tmp/prefix" -name ringbench.pc)
[[ -n $pc ]] || fail "no ringbench.pc installed"
libdir=$(dirname "$(dirname "$pc")")
for f in "$libdir/libringbench.a" "$libdir/libringbench.so" "$tmp/prefix/include/ringbench/version.h" \
    "$tmp/prefix/include/ringbench/ringbench.h" "$libdir/cmake/ringbench/ringbenchConfig.cmake" \
    "$libdir/cmake/ringbench/ringbenchConfigVersion.cmake"; do
    [[ -e $f ]] || fail "not installed: ${f#"$tmp/prefix/"}"
done

# check NAME BINARY — run a consumer, compare its output with the expected lines.
expected=$(printf "ringbench %s (%s)\norder:9182\t43\tworker-2" "$version" "$version")
check() {
    local out
    out=$("$2" order:9182) || fail "$1: the consumer exited $?"
    [[ $out == "$expected" ]] || fail "$1: got '$out', expected '$expected'"
    echo "ok: $1"
}

# 1. pkg-config, shared library.
export PKG_CONFIG_PATH=$libdir/pkgconfig
[[ $(pkg-config --modversion ringbench) == "$version" ]] || fail "pkg-config --modversion: $(pkg-config --modversion ringbench), expected $version"
# shellcheck disable=SC2046,SC2086 # word splitting of the flag lists is intended
"$cc" $flags -o "$tmp/consumer-pc" "$consumer/consumer.c" $(pkg-config --cflags --libs ringbench) \
    -Wl,-rpath,"$libdir" || fail "pkg-config build failed"
# (ldd into a variable: `ldd | grep -q` under pipefail fails when grep quits early)
deps=$(ldd "$tmp/consumer-pc")
[[ $deps == *"$libdir/libringbench.so"* ]] || fail "pkg-config consumer does not load the installed libringbench.so: $deps"
check "pkg-config (shared)" "$tmp/consumer-pc"

# 2-3. find_package, shared and static targets.
for target in ringbench::ringbench ringbench::ringbench_static; do
    b=$tmp/build-${target##*::}
    cmake -S "$consumer" -B "$b" -DCMAKE_PREFIX_PATH="$tmp/prefix" -DRB_VERSION="$version" \
        -DRB_LINK="$target" -DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS="$flags" \
        -DCMAKE_EXE_LINKER_FLAGS="$flags" >"$b.log" 2>&1 || { cat "$b.log" >&2; fail "find_package configure ($target) failed"; }
    cmake --build "$b" >>"$b.log" 2>&1 || { cat "$b.log" >&2; fail "find_package build ($target) failed"; }
    deps=$(ldd "$b/consumer")
    if [[ $target == *_static ]]; then
        [[ $deps != *libringbench* ]] || fail "$target: the consumer loads a shared libringbench: $deps"
    else
        [[ $deps == *"$libdir/libringbench.so"* ]] || fail "$target: the consumer does not load the installed libringbench.so: $deps"
    fi
    check "find_package ($target)" "$b/consumer"
done
echo "PASS [install.consumer]"
