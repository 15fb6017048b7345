"""The ``rulekit`` command: check, explain, simulate and play rule files.

    rulekit validate FILE...        check rule files, one line per good file
    rulekit describe FILE           a readable summary of a game's rules
    rulekit simulate FILE ...       play many games with agents, report figures
    rulekit profile FILE ...        which rules those games spend their time in
    rulekit play FILE ...           play a seat yourself in the terminal
    rulekit schema                  the JSON Schema of rule files, for editors
    rulekit serve [FILES/DIRS]      host matches played in web browsers (the web extra)
    rulekit show-code FILE [RULE]   the Python a rule is compiled to, line by line

Exit status: 0 success, 1 a rule file is broken (it does not load, or a rule
fails while running), 2 the command line asks for something impossible (bad
option, player count or agent name), 3 an unexpected internal error.  Users
never see a Python traceback: every failure is one message saying what went
wrong and how to fix it (set ``RULEKIT_DEBUG=1`` to get the traceback when
reporting a bug in rulekit itself).

Everything game-specific shown here (names, zones, choices, phases, stats) is
read from the loaded rule file; this package knows no game.  One module a
command (``validate``, ``describe``, ``simulate``, ``play``), each adding its
own sub-command to the parser; ``common`` holds what the commands share on the
command line, ``text`` how values are written, ``show`` and ``console`` the
terminal side of ``play``.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from .. import __version__
from ..errors import RuleFileError, RuleRuntimeError, StepBudgetExceeded
from . import describe, play, profile, report, schema, serve, show_code, simulate, validate
from .common import EXIT_INTERNAL, EXIT_OK, EXIT_RULES, EXIT_USAGE, CliError, error

__all__ = ["EXIT_INTERNAL", "EXIT_OK", "EXIT_RULES", "EXIT_USAGE", "CliError", "build_parser", "main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (never raise, never a traceback)."""
    _tolerant_output()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # argparse already printed usage or help
        return stop.code if isinstance(stop.code, int) else EXIT_USAGE
    try:
        return args.run(args)
    except CliError as err:
        error(str(err))
        return err.status
    except RuleFileError as err:
        print(str(err), file=sys.stderr)
        return EXIT_RULES
    except (StepBudgetExceeded, RuleRuntimeError) as err:
        error(f"a rule failed while running: {err}")
        return EXIT_RULES
    except KeyboardInterrupt:
        error("interrupted")
        return 130
    except BrokenPipeError:  # e.g. `rulekit describe x | head`
        try:  # the reader left; stop Python complaining while it flushes at exit
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):
            pass
        return EXIT_OK
    except Exception as err:  # noqa: BLE001 - the last guard before the user
        if os.environ.get("RULEKIT_DEBUG"):
            raise
        error(f"internal error: {type(err).__name__}: {err}\n"
              "    hint: this is a bug in rulekit or a rule the loader did not catch; "
              "rerun with RULEKIT_DEBUG=1 to see where it happened")
        return EXIT_INTERNAL


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rulekit", description="Card games as data: check, describe, simulate and play rule files.")
    parser.add_argument("--version", action="version", version=f"rulekit {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in (validate, describe, simulate, profile, play, report, schema, show_code, serve):
        command.add_parser(sub)
    return parser


def _tolerant_output() -> None:
    """Card names may use symbols (suits, emoji); a terminal that cannot show them should
    get a replacement character, not a crash."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="replace")
            except (ValueError, OSError):
                pass
