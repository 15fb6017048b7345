"""The JSON Schema for editors: every rule file as it is written.

``rulekit/schema/game.schema.json`` describes a *whole* game, after its
modules are merged: that is what the loader checks.  An editor sees one file
at a time — a game that includes its cards, a module of skills, a variant
that ``extends`` a base and ``override``\\ s a table — so the schema it is
given must accept each part on its own.  This one is derived from the game
schema (one description of every section, never two to keep in step): no
section is required, and the module keys (``module``, ``include``,
``extends``, ``override``, ``params``) are added.

Editors parse YAML 1.2, as rulekit does: ``on:`` is the text "on", not a
truth value, so a trigger's ``on:`` key validates as written.

``rulekit schema`` prints it; ``docs/rulekit.schema.json`` is a copy that a
test keeps up to date, for the ``yaml-language-server`` modeline::

    # yaml-language-server: $schema=../rulekit.schema.json
"""
from __future__ import annotations

import copy
import json
from typing import Any

from .structure import schema

_FILES = {"anyOf": [{"type": "array", "items": {"$ref": "#/$defs/module_entry"}},
                     {"$ref": "#/$defs/module_entry"}]}


def editor_schema() -> dict[str, Any]:
    """The schema of one rule file as written (a game, a part or a module)."""
    game = schema()
    out = copy.deepcopy(game)
    out["$id"] = game["$id"].replace("game.schema.json", "rulekit.schema.json")
    out["title"] = "rulekit rule file (a game, a part of one, or a module)"
    out["description"] = ("One rulekit rule file as written: a game, a file it includes, or a module. "
                          "No section is required here; `rulekit validate` checks the merged game.")
    out.pop("required", None)
    sections = copy.deepcopy(game["properties"])
    out["properties"].update({
        "module": {"description": "What this module is for: a file with 'module:' and no 'name:' is a "
                                  "part of the games that include it.", "type": "string", "minLength": 1},
        "include": {"description": "Files or folders this file is made of, relative to it: a path, a list, "
                                   "or {file, with} giving a module's parameters.", **_FILES},
        "extends": {"description": "A whole game this file changes (a path, or {file, with}).", **_FILES},
        "override": {"description": "Items that replace on purpose those of the files included or extended, "
                                    "section by section.",
                     "type": "object", "additionalProperties": False, "properties": sections},
        "params": {"description": "The module's parameters by name: {doc, kind: value|name, default}.",
                   "type": "object", "additionalProperties": {
                       "type": "object", "additionalProperties": False,
                       "properties": {"doc": {"type": "string"}, "kind": {"enum": ["value", "name"]},
                                      "default": {}}}},
    })
    out["$defs"]["module_entry"] = {
        "anyOf": [
            {"type": "string", "minLength": 1},
            {"type": "object", "additionalProperties": False, "required": ["file"],
             "properties": {"file": {"type": "string", "minLength": 1},
                            "with": {"type": "object", "description": "The module's parameters by name."}}},
        ],
    }
    return out


def editor_schema_text() -> str:
    return json.dumps(editor_schema(), ensure_ascii=False, indent=2) + "\n"
