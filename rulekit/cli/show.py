"""What the person playing sees, as lines of text: the table from their seat,
the options of a decision, help, log events and the result.

``who(p)`` names player ``p`` for the person ("player 0 (you)"); every
function here only writes lines and never reads input or changes the match.
"""
from __future__ import annotations

import json
import shutil
from typing import TYPE_CHECKING, Callable, Iterator

from ..model import Game
from .text import fmt, one_line, pairs, plural

if TYPE_CHECKING:
    from ..engine.match import Match
    from ..engine.runtime import Action, Decision

Who = Callable[[int], str]

HELP = """\
commands:
  NUMBER      play that option (the numbers listed under the prompt)
  TEXT        play the option written exactly so, e.g. "{example}"
  v, view     show the table again
  log [N]     the last N events you could see (default 15)
  ?, help     this help
  q, quit     leave the match"""

SKILL_HELP = """  ?NAME       the text of a skill, e.g. ?{example} (also ?skill NAME; ?skills lists them)"""


def table_lines(match: Match, seat: int, who: Who,
                numbered: list[tuple[int, Action]] | None = None) -> list[str]:
    """The table as ``seat`` sees it, then the decision to make and its options."""
    return view_lines(match, seat, who) + options_lines(match, numbered)


def view_lines(match: Match, seat: int | None, who: Who) -> list[str]:
    """Shared zones first, then one block per player: what the rule file's
    ``display:`` says about them (or their variables), then their own
    non-empty zones, so a table of many players with many small zones (hand,
    equipment slots, ...) still reads at a glance."""
    view = match.view(seat)
    whose = "your" if view["current"] == seat else f"player {view['current']}'s"
    phase = view["phase"] if view["phase"] is not None else "setup"
    out = ["", f"── turn {view['turn']} · {whose} turn · {'phase ' + phase if phase != 'setup' else phase} ──"]
    shared = [z for z in match.all_zones() if z.owner is None]
    width = max(len(z.name) for z in match.all_zones())
    empty = []
    for zone in shared:
        info = view["zones"][zone.name]
        if info["count"] == 0:
            if zone.name != match.game.zones[0].name:
                empty.append(zone.name)
            continue
        out.append(f"  {zone.name:<{width + 8}} {_zone_text(info, start=match.game.card_vars)}")
    if empty:
        out.append(f"  empty: {', '.join(empty)}")
    if view["public"]:
        # what the rule file says every player sees; its bookkeeping variables stay out
        out.append("  " + pairs(view["public"], " · "))
    elif view["vars"]:
        out.append("  " + pairs(view["vars"], " · "))
    out += player_lines(match, view, who)
    return out


def _zone_text(info: dict, most: int = 10, start: dict | None = None) -> str:
    if "cards" in info:
        cards = info["cards"]        # top first: a long pile shows its top cards
        if "state" in info:          # with each card's state, where it is not the starting one
            cards = [name + _state_text(st, start or {}) for name, st in zip(cards, info["state"])]
        more = f" … (+{len(cards) - most} below)" if len(cards) > most else ""
        return f"{info['count']}: " + " ".join(cards[:most]) + more
    if "top" in info:
        return f"{plural(info['count'], 'card')}, top {info['top']}"
    return f"{plural(info['count'], 'card')}, face down"


def _state_text(state: dict, start: dict) -> str:
    changed = [f"{k} {fmt(v)}" for k, v in state.items() if v != start.get(k)]
    return f"[{' '.join(changed)}]" if changed else ""


def player_lines(match: Match, view: dict, who: Who) -> list[str]:
    """A block a player: the file's ``display:`` values about them (or else
    their variables as the viewer may see them, in the order the file
    declares them; a variable kept from the viewer shows as ``(hidden)``),
    then their non-empty zones.  Eliminated players are marked out."""
    game = match.game
    declared = list(game.player_vars)
    gone = set(view.get("out", ()))
    display = view.get("display") or []
    zones_of: dict[int, list] = {}
    for z in match.all_zones():
        if z.owner is not None:
            zones_of.setdefault(z.owner, []).append(z)
    out = []
    for p, pv in enumerate(view["player_vars"]):
        if display:
            shown = " · ".join(f"{k} {fmt(v)}" for k, v in display[p].items())
        else:
            names = declared + [k for k in pv if k not in declared]
            shown = " · ".join(f"{k} {fmt(pv[k])}" if k in pv else f"{k} (hidden)" for k in names)
        label = who(p) + (" — out" if p in gone else "")
        out.append(f"  {label}" + (f": {shown}" if shown else ""))
        for z in zones_of.get(p, ()):
            info = view["zones"][z.name]
            if info["count"]:
                # a player's own zones in full (a hand is read card by card); piles by their top
                most = info["count"] if z.owner == view["viewer"] else 10
                out.append(f"      {z.zdef.name:<12} {_zone_text(info, most, start=game.card_vars)}")
    return out


def _pending(match: Match) -> Decision:
    """The decision being made: what the lines below show, asked for only
    while the match waits for one."""
    dec = match.decision
    if dec is None:
        raise ValueError("the match is over: there is no decision to show")
    return dec


def options_lines(match: Match, numbered: list[tuple[int, Action]] | None = None) -> list[str]:
    """The decision's prompt and its options, numbered by position or as
    ``numbered`` gives (see :mod:`rulekit.cli.numbering`)."""
    dec = _pending(match)
    if numbered is None:
        numbered = list(enumerate(dec.options, 1))
    items = [f"{i:>3}. {match.describe_action(a)}" for i, a in numbered]
    told = _skills_told(match, [a for _, a in numbered])
    if told:                 # choosing a hero: each with the text of its skills
        return [f"{dec.choice}: {dec.prompt}"] + [line for item, lines in zip(items, told)
                                                  for line in [item] + lines]
    return [f"{dec.choice}: {dec.prompt}"] + columns(items)


def _skills_told(match: Match, options: list[Action]) -> list[list[str]] | None:
    """For a choice among single cards that list skills (heroes, generals):
    under each, its skills' text, one line each; else None."""
    skills = match.game.skills
    if not skills or not all(len(a.cards) == 1 for a in options):
        return None
    out, any_skill = [], False
    for a in options:
        props = match.cards[a.cards[0]].props
        named = [x for v in props.values() if isinstance(v, list) for x in v
                 if isinstance(x, str) and x in skills]
        any_skill = any_skill or bool(named)
        out.append([f"       {name}: {one_line(skills[name].text)}" for name in named])
    return out if any_skill else None


def help_lines(game: Game, match: Match) -> list[str]:
    """The commands, then what the rule file says about the choice being made."""
    dec = _pending(match)
    out = [HELP.format(example=match.describe_action(dec.options[0]))]
    if game.skills:
        out.append(SKILL_HELP.format(example=next(iter(game.skills))))
    spec = game.source.get("choices", {}).get(dec.choice, {})
    docs = [(o["name"], o["doc"]) for o in spec.get("options", []) if o.get("doc")]
    offered = {a.option for a in dec.options}
    skills = [(option, s) for s in game.skills.values() for choice, option in s.options
              if choice == dec.choice and option in offered]
    if spec.get("doc") or docs or skills:
        out.append(f"about '{dec.choice}':")
        if spec.get("doc"):
            out.append(f"  {spec['doc']}")
        out += [f"  {name}: {doc}" for name, doc in docs]
        # an option a skill adds does what the skill's text says
        out += [f"  {option}: skill {s.name} — {one_line(s.text)}" for option, s in skills]
    return out


def event_line(ev: dict, who: Who, narrator: Callable[[dict], str] | None = None) -> str:
    """One event of a seat's log (cards that seat could not see are None
    there); ``narrator`` says a narrated event for the person ("you")."""
    kind = ev.get("event")
    if kind == "move":
        shown = [n for n in ev["cards"] if n is not None]
        hidden = len(ev["cards"]) - len(shown)
        if hidden:
            shown.append(plural(hidden, "hidden card") if hidden > 1 else "a hidden card")
        names = ", ".join(shown)
        sources = ", ".join(dict.fromkeys(ev["from"]))
        return f"{names}: {sources} → {ev['to']}"
    if kind == "decide":
        parts = [] if ev["option"] == "player" and ev.get("target") is not None else [ev["option"]]
        if ev.get("cards"):
            parts += [n if n is not None else "(hidden)" for n in ev["cards"]]
        if ev.get("target") is not None:
            parts.append(who(ev["target"]))
        if ev.get("number") is not None:
            parts.append(str(ev["number"]))
        return f"{who(ev['player'])} — {ev['choice']}: {' '.join(parts)}"
    if kind == "turn":
        return f"turn of {who(ev['player'])}"
    if kind == "shuffle":
        return f"shuffled {ev['zone']}"
    if kind == "start":
        seed = f", seed {ev['seed']}" if "seed" in ev else ""   # players are not shown the seed
        return f"start: {ev['game']}, {plural(ev['players'], 'player')}{seed}"
    if kind == "end":
        return f"end: {ev['outcome']} — {ev['reason']}"
    if kind == "note":
        return str(ev.get("text"))
    if kind == "eliminate":
        return f"{who(ev['player'])} is out of the game"
    if kind == "emit":
        if "text" in ev:            # the rule file's narration, seats said for this person
            return narrator(ev) if narrator is not None else ev["text"]
        fields = ev.get("fields") or {}
        said = ", ".join(f"{k} {_said(v, who, k)}" for k, v in fields.items())
        return f"event {ev['name']}" + (f": {said}" if said else "")
    return json.dumps(ev, ensure_ascii=False)


def told_events(game: Game, events: list[dict], who: Who, narrator: Callable[[dict], str] | None = None,
                mine: int | None = None) -> Iterator[tuple[dict, str]]:
    """The events of a seat's log that a person is told, each with its line:
    decisions (but the person's own, seat ``mine``), eliminations, notes,
    turns and narrated events; moves and unnarrated events are left out,
    since the narration says them better.  Answers nobody made (a run of
    seats passing on one response window) read as one line, given with the
    first of those events and ``"players"``: every seat that passed.  The
    terminal and the web table both tell a match this way."""
    told = {"decide", "eliminate", "note", "turn"}
    passed: list = []
    for ev in events:
        narrated = ev["event"] == "emit" and "text" in ev
        if not (narrated or (ev["event"] in told and not (ev["event"] == "decide" and ev["player"] == mine))):
            continue
        if ev["event"] == "decide" and _no_answer(game, ev):
            if passed and (passed[0]["choice"], passed[0]["option"]) != (ev["choice"], ev["option"]):
                yield _passed(passed, who)
            passed.append(ev)
            continue
        if passed:
            yield _passed(passed, who)
        yield ev, event_line(ev, who, narrator)
    if passed:
        yield _passed(passed, who)


def only_pass(game: Game, dec) -> bool:
    """A response window whose only answer is to pass: the match asks every
    seat it names, so that nobody learns who holds an answer, but the seat
    asked has nothing to decide (a person's table may answer for them)."""
    window = game.choices[dec.choice].window
    return window is not None and len(dec.options) == 1 and dec.options[0].option == window


def _no_answer(game: Game, ev: dict) -> bool:
    """A seat's answer to a response window that was its window option (pass)."""
    choice = game.choices.get(ev["choice"])
    return choice is not None and choice.window == ev["option"] and not ev.get("cards")


def _passed(passed: list, who: Who) -> tuple[dict, str]:
    first = dict(passed[0], players=[ev["player"] for ev in passed])
    line = f"{', '.join(who(ev['player']) for ev in passed)} — {first['choice']}: {first['option']}"
    passed.clear()
    return first, line


def _said(v, who: Who, key: str) -> str:
    """An event field for a person: hidden cards as "(hidden)", lists spaced."""
    if v is None:
        return "(hidden)" if key in ("card", "cards") else "none"
    if isinstance(v, list):
        return " ".join(_said(x, who, key) for x in v) or "none"
    return fmt(v)


def result_lines(match: Match, who: Who) -> list[str]:
    result = match.result()
    if result is None:
        raise ValueError(f"the match is not over (turn {match.turn}): there is no result to show")
    out = ["", f"== game over after {match.turn} turns: {result['outcome']} — {result['reason']} =="]
    if result["winners"]:
        out.append("winners: " + ", ".join(who(p) for p in result["winners"]))
    else:
        out.append("winners: nobody")
    secrets = [k for k in match.game.var_visibility]
    if secrets:                       # the game is over: every hidden value is shown
        for p in range(match.n):
            out.append(f"  {who(p)}: " + " · ".join(f"{k} {fmt(match.pvars[p][k])}" for k in secrets))
    if result["stats"]:
        out.append("stats: " + pairs(result["stats"], " · "))
    return out


def columns(items: list[str]) -> list[str]:
    """Lay out many short items in columns that fit the terminal."""
    if len(items) <= 12:
        return items
    width = max(len(s) for s in items) + 2
    cols = max(1, shutil.get_terminal_size((100, 24)).columns // width)
    rows = -(-len(items) // cols)
    return ["".join(items[r + c * rows].ljust(width) for c in range(cols) if r + c * rows < len(items)).rstrip()
            for r in range(rows)]
