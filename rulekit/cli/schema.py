"""``rulekit schema``: the JSON Schema of a rule file as written, for editors
(see :mod:`rulekit.editor_schema`)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..editor_schema import editor_schema_text
from .common import EXIT_OK, CliError


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("schema", help="print the JSON Schema of rule files, for editors",
                       description="Print the JSON Schema that editors use to check a rule file as you type "
                                   "(a game, a file it includes, or a module). Point the YAML language "
                                   "server at it with a first line '# yaml-language-server: $schema=PATH'.")
    p.add_argument("--out", "-o", metavar="FILE", help="write it to FILE instead of the standard output")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    text = editor_schema_text()
    if args.out is None:
        sys.stdout.write(text)
        return EXIT_OK
    try:
        Path(args.out).write_text(text, encoding="utf-8")
    except OSError as err:
        raise CliError(f"cannot write {args.out}: {err.strerror or err}") from None
    print(f"wrote {args.out}")
    return EXIT_OK
