"""The JSON Schema for editors accepts every rule file as an editor reads it
(YAML 1.2: ``on:`` is a text key), one file at a time — games, the files
they include and modules — and still refuses what the loader refuses."""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from rulekit.cli import main
from rulekit.editor_schema import editor_schema, editor_schema_text
from rulekit.yamlsafe import load_yaml

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted(p for folder in ("games", "docs/examples") for p in (ROOT / folder).rglob("*.yaml"))


@pytest.fixture(scope="module")
def validator():
    return jsonschema.Draft202012Validator(editor_schema())


def test_the_schema_is_a_valid_json_schema():
    jsonschema.Draft202012Validator.check_schema(editor_schema())


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_rule_file_validates_as_written(validator, path):
    data = load_yaml(path.read_text(encoding="utf-8"), str(path)).data
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(data)]
    assert not errors, errors[:5]


def test_trigger_on_keys_are_text_as_editors_read_them(validator):
    data = load_yaml("triggers:\n  - on: turn_start\n    effect: pass\n", "t.yaml").data
    assert data == {"triggers": [{"on": "turn_start", "effect": "pass"}]}
    assert validator.is_valid(data)


@pytest.mark.parametrize("text, where", [
    ("zones: {deck: {visibility: everyone}}\n", "zones/deck/visibility"),
    ("include: [3]\n", "include"),
    ("override: {tabels: {}}\n", "override"),
    ("module: the cards\ncardz: []\n", ""),
])
def test_mistakes_are_still_refused(validator, text, where):
    errors = list(validator.iter_errors(load_yaml(text, "bad.yaml").data))
    assert errors and any("/".join(map(str, e.absolute_path)).startswith(where) for e in errors)


def test_the_published_copy_is_up_to_date_and_the_command_prints_it(capsys, tmp_path):
    published = (ROOT / "docs" / "rulekit.schema.json").read_text(encoding="utf-8")
    assert published == editor_schema_text(), "run `rulekit schema -o docs/rulekit.schema.json`"
    assert main(["schema"]) == 0
    assert json.loads(capsys.readouterr().out) == editor_schema()
    out = tmp_path / "s.json"
    assert main(["schema", "--out", str(out)]) == 0 and out.read_text(encoding="utf-8") == published


def test_the_example_names_the_schema_in_its_modeline():
    first = (ROOT / "docs" / "examples" / "last_card.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=../rulekit.schema.json"
