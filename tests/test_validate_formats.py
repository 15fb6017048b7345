"""``rulekit validate --format json|github``: what a pipeline reads.

The same findings as the text a person reads — every error with its
file, line, column and parts, each file ok or not, the same exit status —
as one JSON document, or as GitHub Actions workflow commands that the pull
request shows beside the line they name.  What a rule file says is escaped
so that no text of it can write a command of its own."""
from __future__ import annotations

import json
from pathlib import Path

from rulekit.cli import main
from rulekit.cli.findings import FileFindings, github_commands
from rulekit.errors import RuleError, Where

ROOT = Path(__file__).resolve().parents[1]
GAME = str(ROOT / "games" / "regicide.yaml")
MECH = str(ROOT / "tests" / "games" / "mechanisms.yaml")      # options start_hp, thorns

BROKEN = str(ROOT / "tests" / "broken" / "stat_unknown_name.yaml")    # 'scroe' at 46:11

NEVER_ENDS = str(ROOT / "tests" / "games" / "never_ends.yaml")    # loads; its phase never ends


def validate(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["validate", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_lists_every_file_and_every_error_with_its_parts(capsys):
    bad = BROKEN
    code, out, err = validate(capsys, GAME, str(bad), "--format", "json")
    assert code == 1 and err == ""
    report = json.loads(out)
    assert report["ok"] is False and report["errors"] == 1
    good, broken = report["files"]
    assert good == {"file": GAME, "ok": True, "errors": [], "summary":
                    "Regicide, 1–4 players, 54 cards, 9 zones, 4 phases, 4 choices, 2 procedures"}
    assert broken["ok"] is False and broken["summary"] is None
    (error,) = broken["errors"]
    assert error == {"file": bad, "line": 46, "column": 11, "span": 5,
                     "message": "unknown name 'scroe'", "expected": error["expected"], "hint": "did you mean 'score'?"}
    assert "a variable, table, zone" in error["expected"]


def test_json_of_files_that_are_ok_says_so_and_exits_0(capsys):
    code, out, _ = validate(capsys, GAME, MECH, "--format", "json", "--play", "2")
    report = json.loads(out)
    assert code == 0 and report["ok"] is True and report["errors"] == 0
    assert all(f["summary"].endswith("2 random games per player count played cleanly") for f in report["files"])


def test_json_carries_what_playing_found_and_a_bad_option_without_a_position(capsys):
    code, out, _ = validate(capsys, NEVER_ENDS, "--format", "json", "--play", "1")
    (found,) = json.loads(out)["files"]
    assert code == 1 and not found["ok"] and found["errors"][0]["line"] is None
    assert "ran past the step budget" in found["errors"][0]["message"]
    code, out, _ = validate(capsys, GAME, "--format", "json", "-o", "thorns=yes")
    assert code == 2 and "Regicide has no option 'thorns'" in json.loads(out)["files"][0]["errors"][0]["message"]


def test_github_writes_a_command_for_each_error_at_its_line(capsys):
    bad = BROKEN
    code, out, err = validate(capsys, GAME, str(bad), "--format", "github")
    assert code == 1 and err == ""
    notice, error = out.strip().split("\n")
    assert notice.startswith(f"::notice file={GAME},title=rulekit validate::ok — Regicide")
    assert error.startswith(f"::error file={bad},line=46,col=11,endColumn=15,title=rulekit validate::"
                            "unknown name 'scroe'%0Aexpected: a variable")
    assert error.endswith("%0Ahint: did you mean 'score'?")


def test_a_github_command_cannot_be_written_by_the_text_it_carries():
    """A line break would end the command and start another; ':' and ','
    in a property would end it; '%' is the escape itself."""
    hostile = RuleError(Where("a,b:c.yaml", 3, 4), "100% bad\n::error file=x::forged\rand\x1b[2J",
                        hint="x\ny")
    (line,) = github_commands([FileFindings("a,b:c.yaml", errors=[hostile])])
    assert "\n" not in line and "\r" not in line and "\x1b" not in line
    assert line.startswith("::error file=a%2Cb%3Ac.yaml,line=3,col=4,title=rulekit validate::100%25 bad%0A")
    assert line.count("::") == 4          # its own two, and the forged command's two, inside the message


def test_text_is_the_default_and_reads_as_before(capsys):
    bad = BROKEN
    code, out, err = validate(capsys, str(bad))
    assert code == 1 and out == ""
    assert err.startswith(f"{bad}:46:11: error: unknown name 'scroe'\n") and err.endswith(f"{bad}: 1 error\n")


def test_a_folder_of_games_is_checked_game_by_game(capsys, tmp_path):
    """One command for a folder of variants: each rule file in it and each
    folder in it holding a game.yaml, in name order; a module (``module:``,
    no ``name:``) is checked with the games that include it, not alone."""
    last_card = (ROOT / "docs" / "examples" / "last_card.yaml").read_text(encoding="utf-8")
    (tmp_path / "a.yaml").write_text(last_card, encoding="utf-8")
    (tmp_path / "b.yaml").write_text(last_card.replace("move play.cards to pile", "move play.cards to piel"),
                                     encoding="utf-8")
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "game.yaml").write_text(last_card, encoding="utf-8")
    (tmp_path / "parts.yaml").write_text("module: some procedures\nprocedures: {}\n", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a rule file", encoding="utf-8")
    code, out, err = validate(capsys, str(tmp_path))
    assert code == 1
    assert [line.split(":")[0] for line in out.splitlines()] == [str(tmp_path / "a.yaml"), str(tmp_path / "c")]
    assert f"{tmp_path / 'b.yaml'}:" in err and "unknown name 'piel'" in err and "parts.yaml" not in out + err
