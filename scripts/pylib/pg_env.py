#!/usr/bin/env python3
"""scripts/pylib/pg_env.py — the libpq connection string in $RB_CONNINFO as shell `export`
lines of the PG* variables libpq reads (PGHOST, PGPORT, PGDATABASE, PGUSER, PGPASSWORD, ...),
so a script can hand a conninfo that may hold a password to psql through the environment
instead of a command line that `ps` shows. The string is parsed by libpq itself
(PQconninfoParse, through ctypes: keyword=value strings and postgresql:// URIs alike); each
keyword given becomes its PQconninfoOption.envvar. Keywords without a variable are refused.

usage: RB_CONNINFO=STR python3 scripts/pylib/pg_env.py
Exit 0; 2 on a string libpq cannot parse or a keyword without a variable (one line on
stderr); 1 when libpq cannot be loaded.
"""
import ctypes
import ctypes.util
import os
import shlex
import sys


class Option(ctypes.Structure):  # PQconninfoOption (libpq-fe.h)
    _fields_ = [("keyword", ctypes.c_char_p), ("envvar", ctypes.c_char_p),
                ("compiled", ctypes.c_char_p), ("val", ctypes.c_char_p),
                ("label", ctypes.c_char_p), ("dispchar", ctypes.c_char_p),
                ("dispsize", ctypes.c_int)]


def main():
    try:
        pq = ctypes.CDLL(ctypes.util.find_library("pq") or "libpq.so.5")
    except OSError as e:
        print(f"pg_env.py: cannot load libpq: {e}", file=sys.stderr)
        return 1
    pq.PQconninfoParse.restype = ctypes.POINTER(Option)
    pq.PQconninfoParse.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
    pq.PQconninfoFree.argtypes = [ctypes.POINTER(Option)]
    err = ctypes.c_void_p()
    opts = pq.PQconninfoParse(os.environ.get("RB_CONNINFO", "").encode(), ctypes.byref(err))
    if not opts:
        msg = ctypes.string_at(err.value).decode(errors="replace").strip() if err.value else "?"
        print(f"pg_env.py: the connection string does not parse: {msg}", file=sys.stderr)
        return 2
    lines, bad = [], []
    i = 0
    while opts[i].keyword:
        o = opts[i]
        if o.val is not None:
            if o.envvar:
                lines.append(f"export {o.envvar.decode()}={shlex.quote(o.val.decode())}")
            else:
                bad.append(o.keyword.decode())
        i += 1
    pq.PQconninfoFree(opts)
    if bad:
        print(f"pg_env.py: no environment variable for {', '.join(bad)}", file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
