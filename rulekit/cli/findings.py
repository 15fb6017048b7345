"""What ``rulekit validate`` found, written for a person or for a program.

A person reads errors as compilers show them (``text``).  A pipeline reads
them otherwise: an editor or a script wants one JSON document with every
error's position and parts (``json``), a GitHub Actions job wants workflow
commands, which the pull request shows beside the line they name
(``github``).  The findings are gathered file by file, the same for every
format; text is written as each file is checked (a long ``--play`` shows
its files one by one), the others once, at the end.
"""
from __future__ import annotations

import json
import sys
from typing import Any

import attrs

from ..errors import RuleError, printable
from .common import error

FORMATS = ("text", "json", "github")


@attrs.define
class FileFindings:
    """One file: the errors of its load, or the problems of its games, or
    what it holds once it is ok."""

    path: str
    errors: list[RuleError] = attrs.field(factory=list)      # the load's, with positions
    problems: list[str] = attrs.field(factory=list)          # without a position: --play's, --option's
    summary: str | None = None                               # what it holds, once it is ok
    verdict: str | None = None                               # the text's last line of a file not ok
    usage: bool = False                                      # a problem of the command line (--option)

    @property
    def ok(self) -> bool:
        return not self.errors and not self.problems


def as_json(found: list[FileFindings]) -> str:
    """One document: every file, ok or not, with each error's parts."""
    files: list[dict[str, Any]] = []
    for f in found:
        errors = [{"file": e.where.file, "line": e.where.line or None, "column": e.where.column or None,
                   "span": e.span or None, "message": e.message, "expected": e.expected or None,
                   "hint": e.hint or None} for e in f.errors]
        errors += [{"file": f.path, "line": None, "column": None, "span": None, "message": p,
                    "expected": None, "hint": None} for p in f.problems]
        files.append({"file": f.path, "ok": f.ok, "summary": f.summary, "errors": errors})
    return json.dumps({"ok": all(f.ok for f in found), "errors": sum(len(f["errors"]) for f in files),
                       "files": files}, ensure_ascii=False, indent=1)


def github_commands(found: list[FileFindings]) -> list[str]:
    """A workflow command (``::error file=…,line=…,col=…::…``) for each error,
    a notice for each file that is ok.  What the file says is escaped as the
    commands require, so no text of it can start a command of its own."""
    out = []
    for f in found:
        for e in f.errors:
            where = {"file": e.where.file, "line": e.where.line, "col": e.where.column}
            if e.where.line and e.span > 1:
                where["endColumn"] = e.where.column + e.span - 1     # (the last column it covers)
            text = e.message + "".join(f"\n{label}: {part}" for label, part in
                                       (("expected", e.expected), ("hint", e.hint)) if part)
            out.append(_command("error", {k: v for k, v in where.items() if v}, text))
        for p in f.problems:
            out.append(_command("error", {"file": f.path}, p))
        if f.ok:
            out.append(_command("notice", {"file": f.path}, f"ok — {f.summary}"))
    return out


def _command(kind: str, properties: dict[str, Any], message: str) -> str:
    props = ",".join(f"{k}={_property(str(v))}" for k, v in properties.items())
    return f"::{kind} {props},title=rulekit validate::{_data(message)}"


def _data(text: str) -> str:
    return printable(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def write(found: list[FileFindings], fmt: str) -> None:
    """Write every file's findings as a JSON document or as workflow commands,
    on standard output (text is written file by file: :func:`write_text`)."""
    print(as_json(found) if fmt == "json" else "\n".join(github_commands(found)))


def write_text(f: FileFindings) -> None:
    """One file's findings as a person reads them: errors on standard error,
    the file's summary on standard output once it is ok."""
    for e in f.errors:
        print(e.format(), file=sys.stderr)
    for p in f.problems:
        if f.usage:
            error(printable(f"{f.path}: {p}"))
        else:
            print(printable(f"{f.path}: {p}"), file=sys.stderr)
    if f.verdict is not None:
        print(f.verdict, file=sys.stderr)
    if f.ok:
        print(f"{f.path}: ok — {f.summary}")
