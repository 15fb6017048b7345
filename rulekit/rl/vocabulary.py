"""The strings an observation can name, read from the rule file.

An observation is a fixed-size vector, so a variable holding text (a
secret role, a faction, a list of skills) becomes a one-hot (or multi-hot)
over a fixed list of strings.  The list is derived from the rule file, not
from matches played, so it is the same for every match and every machine:
every string value of a card property (lists included), every key and
value of a table, every value a match option allows, every skill's name, every string
literal written in effect text or expressions, and every text constant of
the compiled rules (``game.code``: a module's parameters, such as the
names of the identities, are only there) that is not the name of something
the file declares.  Text longer
than :data:`MAX_WORD` characters (rulebook prose, card texts) is left out:
no variable compares it, and it would only widen the vectors.  A string
not in the list falls in the encoder's "other/hidden" bucket.
"""
from __future__ import annotations

import ast
import io
import re
import tokenize

from ..derived import derived
from ..model import Game

#: longer strings are prose, not values (a skill's name, a role, a suit...)
MAX_WORD = 24

_LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\'')


#: keys of the source whose text is prose for people, not rules: their
#: apostrophes would read as string literals
_PROSE = frozenset({"doc", "description", "text", "prompt"})


def _strings(value, out: list, skip: frozenset = frozenset()) -> None:
    """Every string in a nested structure of dicts and lists, keys included
    (but nothing under a key in ``skip``)."""
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            if k in skip:
                continue
            out.append(str(k))
            _strings(v, out, skip)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _strings(v, out, skip)


@derived
def string_vocabulary(game: Game) -> tuple[str, ...]:
    """The game's words, each once, in the order first met (cards, options,
    skills, starting values, then tables and literals in the source's text,
    which are also kept only when they hold no space: a log line or a win's
    reason is not a value)."""
    words: list[str] = []
    for card in game.cards:
        for v in card.props.values():
            _strings(v if isinstance(v, (str, list)) else (), words)
    for spec in game.options.values():
        _strings(spec.get("values") or [spec["default"]], words)
    words += list(game.skills)
    _strings([v for v in (*game.vars.values(), *game.player_vars.values(), *game.card_vars.values())
              if isinstance(v, (str, list))], words)
    scanned: list[str] = []
    _strings(game.tables, scanned)
    texts: list[str] = []
    _strings(game.source, texts, _PROSE)
    for text in texts:
        for double, single in _LITERAL.findall(text):
            scanned.append(double or single)
    declared = _declared_names(game)
    scanned += [w for w in _code_constants(game.code) if w not in declared]
    words += [w for w in scanned if not any(ch.isspace() for ch in w)]
    return tuple(w for w in dict.fromkeys(words) if _is_word(w))


def _code_constants(code: str) -> list[str]:
    """The text constants of generated Python, in order."""
    out = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(code).readline):
            if tok.type == tokenize.STRING:
                value = ast.literal_eval(tok.string)
                if type(value) is str:
                    out.append(value)
    except (tokenize.TokenError, ValueError, SyntaxError):     # pragma: no cover - the engine wrote it
        pass
    return out


def _declared_names(game: Game) -> set[str]:
    """Names the rule file gives to its parts: the generated code quotes
    them as keys (``m.pvars[p]['hp']``), but no variable holds them."""
    names = {*game.vars, *game.player_vars, *game.card_vars, *game.choices, *game.procedures,
             *game.tables, *game.options, *game.triggers, *game.stats, *game.player_stats,
             *game.display, *game.public}
    names |= {z.name for z in game.zones} | {p.name for p in game.phases}
    names |= {k for c in game.cards for k in c.props}
    return names


def _is_word(text: str) -> bool:
    """Short and not a sentence (a card's rules text is not a value); a
    symbol alone (``"?"``, ``"-"``) is a word."""
    return len(text) <= MAX_WORD and "\n" not in text and (
        len(text) <= 2 or not any(ch in _SENTENCE for ch in text))


#: punctuation that ends or splits a sentence, in Latin and CJK text
_SENTENCE = frozenset(".,;:!?。，；：！？、")
