"""rb_argparse — argparse with the project's command-line conventions, for the Python scripts
(scripts/report, scripts/gate, bench/report.py, verify/kat/jump_ref.py).

    from rb_argparse import parser
    p = parser("gate", __doc__)          # -h/--help prints the script's docstring, exit 0
    p.add_argument("--build", action="store", ...)
    o = p.parse_args()

Conventions kept: bad arguments print ONE line `PROG: message` on stderr and exit 2 (never
argparse's usage block); an option given twice is an error, as in every ringbench command
(not "the last one wins"); options are not abbreviated (--thresh is unknown). Standard
library only.
"""
import argparse
import sys


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        print(f"{self.prog}: {message}", file=sys.stderr)
        sys.exit(2)

    def parse_known_args(self, args=None, namespace=None):
        args = sys.argv[1:] if args is None else list(args)
        seen = set()
        for a in args:
            if a == "--":
                break
            name = a.split("=", 1)[0]
            if name.startswith("--") and name in self._option_string_actions:
                if name in seen:
                    self.error(f"{name} is given twice")
                seen.add(name)
        return super().parse_known_args(args, namespace)


class _DocHelp(argparse.Action):
    def __init__(self, option_strings, dest, doc, **kw):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kw)
        self.doc = doc

    def __call__(self, parser, namespace, values, option_string=None):
        print(self.doc.strip())
        parser.exit(0)


def parser(prog, doc):
    """An ArgumentParser named `prog` whose -h/--help prints `doc` (the script's docstring)."""
    p = _Parser(prog=prog, add_help=False, allow_abbrev=False)
    p.add_argument("-h", "--help", action=_DocHelp, doc=doc)
    return p
