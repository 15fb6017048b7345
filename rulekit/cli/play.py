"""The ``rulekit`` command: check, explain, simulate and play rule files.

    rulekit validate FILE...        check rule files, one line per good file
    rulekit describe FILE           a readable summary of a game's rules
    rulekit simulate FILE ...       play many games with agents, report figures
    rulekit play FILE ...           play a seat yourself in the terminal

Exit status: 0 success, 1 a rule file is broken (it does not load, or a rule
fails while running), 2 the command line asks for something impossible (bad
option, player count or agent name), 3 an unexpected internal error.  Users
never see a Python traceback: every failure is one message saying what went
wrong and how to fix it (set ``RULEKIT_DEBUG=1`` to get the traceback when
reporting a bug in rulekit itself).

Everything game-specific shown here (names, zones, choices, phases, stats) is
read from the loaded rule file; this module knows no game.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import textwrap
import time
from collections import Counter
from typing import Any, Sequence, TextIO

from . import __version__
from .agents import AGENTS, make_agents
from .engine.runtime import Action
from .errors import RuleFileError, RuleRuntimeError, StepBudgetExceeded
from .loader import load_game
from .model import Game
from .progress import Progress, is_tty

EXIT_OK, EXIT_RULES, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3


class CliError(Exception):
    """A failure to report to the user as one message, with an exit status."""

    def __init__(self, message: str, status: int = EXIT_USAGE):
        super().__init__(message)
        self.status = status


# ---- entry point -------------------------------------------------------------

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
        _error(str(err))
        return err.status
    except RuleFileError as err:
        print(str(err), file=sys.stderr)
        return EXIT_RULES
    except (StepBudgetExceeded, RuleRuntimeError) as err:
        _error(f"a rule failed while running: {err}")
        return EXIT_RULES
    except KeyboardInterrupt:
        _error("interrupted")
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
        _error(f"internal error: {type(err).__name__}: {err}\n"
               "    hint: this is a bug in rulekit or a rule the loader did not catch; "
               "rerun with RULEKIT_DEBUG=1 to see where it happened")
        return EXIT_INTERNAL


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rulekit", description="Card games as data: check, describe, simulate and play rule files.")
    parser.add_argument("--version", action="version", version=f"rulekit {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("validate", help="check rule files and report every error",
                       description="Load each rule file and report every problem with file:line:col.")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.set_defaults(run=cmd_validate)

    p = sub.add_parser("describe", help="print a readable summary of a game",
                       description="Summarise a rule file: players, cards, zones, choices, phases.")
    p.add_argument("file", metavar="FILE")
    p.set_defaults(run=cmd_describe)

    agents = ", ".join(AGENTS)
    p = sub.add_parser("simulate", help="play many games with agents and report results",
                       description="Play GAMES games (game i uses seed SEED+i) and report outcomes, "
                                   "stats and speed.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--players", "-p", type=_positive, default=None,
                   help="number of players (default: the game's minimum)")
    p.add_argument("--games", "-g", type=_positive, default=100, help="number of games (default 100)")
    p.add_argument("--seed", "-s", type=int, default=0, help="seed of the first game (default 0)")
    p.add_argument("--agents", "-a", default="random",
                   help=f"agent for every seat, or one per seat comma-separated ({agents}; default random)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.add_argument("--no-progress", action="store_true", help="never show the progress bar")
    p.set_defaults(run=cmd_simulate)

    p = sub.add_parser("play", help="play a seat yourself in the terminal",
                       description="Play one seat; agents play the others.  Type ? during play for help.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--players", "-p", type=_positive, default=None,
                   help="number of players (default: the game's minimum)")
    p.add_argument("--seed", "-s", type=int, default=0, help="seed of the match (default 0)")
    p.add_argument("--seat", type=int, default=0, help="your seat, 0 is the first player (default 0)")
    p.add_argument("--agents", "-a", default="heuristic",
                   help=f"agents for the other seats ({agents}; default heuristic)")
    p.set_defaults(run=cmd_play)
    return parser


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


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


def _error(message: str) -> None:
    print(f"rulekit: error: {message}", file=sys.stderr)


def _load(path: str) -> Game:
    return load_game(path)  # RuleFileError is reported by main()


def _players(game: Game, wanted: int | None) -> int:
    n = game.min_players if wanted is None else wanted
    if not game.min_players <= n <= game.max_players:
        raise CliError(f"{game.name} is for {_player_range(game)}, not {n}: "
                       f"use --players {game.min_players}"
                       + (f" to {game.max_players}" if game.max_players != game.min_players else ""))
    return n


def _player_range(game: Game) -> str:
    lo, hi = game.min_players, game.max_players
    return f"{lo} player{'s' if lo != 1 else ''}" if lo == hi else f"{lo}–{hi} players"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _fmt(value: Any) -> str:
    """A value the way a rule file writes it (true, not True)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, float):
        return f"{value:.3g}"
    return str(value)


# ---- validate ----------------------------------------------------------------

def cmd_validate(args: argparse.Namespace) -> int:
    status = EXIT_OK
    for path in args.files:
        try:
            game = load_game(path)
        except RuleFileError as err:
            print(str(err), file=sys.stderr)
            print(f"{path}: {_plural(len(err.errors), 'error')}", file=sys.stderr)
            status = EXIT_RULES
            continue
        print(f"{path}: ok — {summary(game)}")
    return status


def summary(game: Game) -> str:
    """One line: name, players and the size of each part of the rules."""
    return ", ".join([
        game.name, _player_range(game), _plural(len(game.cards), "card"),
        _plural(len(game.zones), "zone"), _plural(len(game.phases), "phase"),
        _plural(len(game.choices), "choice"), _plural(len(game.procedures), "procedure"),
    ])


# ---- describe ----------------------------------------------------------------

def cmd_describe(args: argparse.Namespace) -> int:
    print(describe(_load(args.file)))
    return EXIT_OK


def describe(game: Game) -> str:
    """A readable summary of the whole rule file, taken from the loaded game."""
    src = game.source
    out: list[str] = [game.name, "=" * len(game.name)]
    if game.description:
        out += textwrap.wrap(" ".join(game.description.split()), 78)
    lo, hi = game.min_players, game.max_players
    out += ["", f"players: {lo if lo == hi else f'{lo}–{hi}'}", ""]
    out += _describe_cards(game)
    out += ["", f"zones ({len(game.zones)}):"]
    width = max(len(z.name) for z in game.zones)
    for z in game.zones:
        spec = src.get("zones", {}).get(z.name, {})
        traits = [z.visibility] + (["per player"] if z.per_player else [])
        if spec.get("limit") is not None:
            traits.append(f"limit {spec['limit']}")
        doc = f" — {z.doc}" if z.doc else ""
        out.append(f"  {z.name:<{width}}  {', '.join(traits)}{doc}")
    if game.tables:
        out += ["", "tables:"]
        for name, table in game.tables.items():
            out.append(f"  {name}: " + ", ".join(f"{_fmt(k)} → {_fmt(v)}" for k, v in table.items()))
    if game.vars or game.player_vars:
        out += ["", "vars:"]
        out += [f"  {k} = {_fmt(v)}" for k, v in game.vars.items()]
        out += [f"  {k} = {_fmt(v)}  (each player)" for k, v in game.player_vars.items()]
    out += ["", f"choices ({len(game.choices)}):"]
    for name, choice in game.choices.items():
        out += _describe_choice(name, choice, src)
    if game.procedures:
        out += ["", f"procedures ({len(game.procedures)}):"]
        for name in game.procedures:
            out += [f"  {name}:"] + _code(src.get("procedures", {}).get(name, ""))
    if src.get("setup"):
        out += ["", "setup:"] + _code(src["setup"])
    turn = src.get("turn", {})
    first = f"; first player: {turn['first']}" if "first" in turn else ""
    out += ["", f"phases of a turn ({len(game.phases)}{first}):"]
    phase_src = {p.get("name"): p for p in turn.get("phases", [])}
    for i, phase in enumerate(game.phases, 1):
        doc = f" — {phase.doc}" if phase.doc else ""
        out += [f"  {i}. {phase.name}{doc}"] + _code(phase_src.get(phase.name, {}).get("effect", ""))
    triggers = src.get("triggers") or []
    if triggers:
        out += ["", f"triggers ({len(triggers)}):"]
        for t in triggers:
            when = f" when {t['when']}" if t.get("when") else ""
            out += [f"  on {t.get('on')}{when}:"] + _code(t.get("effect", ""))
    if src.get("stats"):
        out += ["", "stats (recorded at the end of every match):"]
        out += [f"  {k} = {v}" for k, v in src["stats"].items()]
    return "\n".join(out)


def _code(text: Any, indent: str = "      ") -> list[str]:
    lines = str(text).rstrip().splitlines()
    return [indent + line if line.strip() else "" for line in lines]


def _describe_choice(name: str, choice: Any, src: dict) -> list[str]:
    spec = src.get("choices", {}).get(name, {})
    who = spec.get("who", "current")
    heuristic = src.get("heuristics", {}).get(name)
    out = [f"  {name} (who: {who}): {choice.prompt}"]
    if spec.get("doc"):
        out += textwrap.wrap(spec["doc"], 76, initial_indent="    ", subsequent_indent="    ")
    for o in spec.get("options", []):
        parts = []
        if "cards" in o:
            parts.append(f"{o['cards']} card{'' if o['cards'] == 1 else 's'}"
                         + (f" from {o['from']}" if o.get("from") else ""))
        if "player" in o:
            parts.append(f"a player from {o['player']}")
        for key, label in (("where", "where"), ("same", "same"), ("require", "require"), ("when", "when")):
            if o.get(key) is not None:
                parts.append(f"{label} {o[key]}")
        line = f"    - {o['name']}" + (": " + "; ".join(parts) if parts else "")
        out.append(line)
        if o.get("doc"):
            out.append(f"        {o['doc']}")
    if spec.get("if_none"):
        out.append(f"    if none is legal: {' '.join(str(spec['if_none']).split())}")
    if heuristic:
        out.append(f"    heuristic: {' '.join(str(heuristic).split())}")
    return out


def _describe_cards(game: Game) -> list[str]:
    cards = game.cards
    names = Counter(c.name for c in cards)
    out = [f"cards: {len(cards)} ({_plural(len(names), 'distinct name')})"]
    props: list[str] = []
    for c in cards:
        props += [p for p in c.props if p not in props]
    group = _grouping_prop(cards, props)
    if group is None:
        out.append("  " + _compact_names(cards))
    else:
        out.append(f"  by {group}:")
        groups: dict[Any, list] = {}
        for c in cards:
            groups.setdefault(c.props.get(group), []).append(c)
        for value, members in groups.items():
            line = f"    {_fmt(value)} ({len(members)}): {_compact_names(members)}"
            out += textwrap.wrap(line, 78, subsequent_indent="        ")
    if props:
        out.append("  properties:")
        for p in props:
            out.append(f"    {p}: {_prop_summary(cards, p)}")
    return out


def _grouping_prop(cards: Sequence, props: list[str]) -> str | None:
    """The property that splits the cards into the most groups, 2 to 8 of them:
    the one a reader would sort a physical deck by."""
    best, best_n = None, 1
    for p in props:
        n = len({_fmt(c.props.get(p)) for c in cards})
        if best_n < n <= 8:
            best, best_n = p, n
    return best


def _compact_names(cards: Sequence) -> str:
    counts = Counter(c.name for c in cards)
    seen: list[str] = []
    for c in cards:
        if c.name not in seen:
            seen.append(c.name)
    return " ".join(n if counts[n] == 1 else f"{n} ×{counts[n]}" for n in seen)


def _prop_summary(cards: Sequence, prop: str) -> str:
    values = [c.props[prop] for c in cards if prop in c.props]
    on = "" if len(values) == len(cards) else f" (on {len(values)} cards)"
    numbers = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    if numbers and len(numbers) == len(values):
        lo, hi = min(numbers), max(numbers)
        return (f"{_fmt(lo)}" if lo == hi else f"{_fmt(lo)}..{_fmt(hi)}") + on
    counts = Counter(_fmt(v) for v in values)
    if len(counts) <= 6:
        return ", ".join(f"{k} {n}" for k, n in counts.items()) + on
    shown = ", ".join(list(counts)[:8])
    return f"{len(counts)} values ({shown}{', …' if len(counts) > 8 else ''}){on}"


# ---- simulate ----------------------------------------------------------------

def cmd_simulate(args: argparse.Namespace) -> int:
    game = _load(args.file)
    players = _players(game, args.players)
    try:
        make_agents(args.agents, players, 0)
    except ValueError as err:
        raise CliError(str(err)) from None
    progress = Progress(args.games, "simulating", enabled=not args.no_progress)
    try:
        report = simulate(game, players, args.games, args.seed, args.agents, progress)
    finally:
        progress.close()
    if args.json:
        print(json.dumps(report, ensure_ascii=False, sort_keys=False))
    else:
        print(format_report(report))
    return EXIT_OK


def simulate(game: Game, players: int, games: int, seed: int, agents: str,
             progress: Progress | None = None) -> dict:
    """Play ``games`` matches (match i seeded ``seed + i``) and aggregate the results."""
    outcomes: Counter = Counter()
    reasons: Counter = Counter()
    winners: Counter = Counter()
    stats: dict[str, list] = {}
    decisions = 0
    start = time.perf_counter()
    for i in range(games):
        s = seed + i
        try:
            match = game.new_match(players, seed=s)
            seats = make_agents(agents, players, s)
            while True:
                dec = match.decision
                if dec is None:
                    break
                match.apply(seats[dec.player].act(match, dec))
        except (StepBudgetExceeded, RuleRuntimeError) as err:
            raise CliError(f"game {i + 1} (seed {s}) failed: {err}\n"
                           f"    hint: reproduce it alone with: rulekit simulate {game.file} --players {players} "
                           f"--games 1 --seed {s} --agents {agents}", EXIT_RULES) from None
        decisions += len(match.actions)
        result = match.result()
        outcomes[result["outcome"]] += 1
        reasons[result["reason"]] += 1
        winners.update(result["winners"])
        for name, value in result["stats"].items():
            stats.setdefault(name, []).append(value)
        if progress is not None:
            progress.update(i + 1)
    seconds = time.perf_counter() - start
    return {
        "game": game.name,
        "players": players,
        "agents": agents,
        "seed": seed,
        "games": games,
        "seconds": round(seconds, 6),
        "decisions": decisions,
        "results": {
            "win_rate": outcomes["win"] / games,
            "outcomes": dict(sorted(outcomes.items())),
            "reasons": dict(reasons.most_common()),
            "winners": {str(p): winners[p] for p in range(players)},
        },
        "stats": {name: aggregate(values) for name, values in stats.items()},
        "games_per_second": games / seconds if seconds > 0 else None,
        "decisions_per_second": decisions / seconds if seconds > 0 else None,
    }


def aggregate(values: list) -> dict:
    """Numbers: mean, min, max.  Anything else (text, true/false): counts."""
    if values and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return {"mean": sum(values) / len(values), "min": min(values), "max": max(values)}
    return {"counts": dict(Counter(_fmt(v) for v in values).most_common())}


def format_report(r: dict) -> str:
    res = r["results"]
    wins = res["outcomes"].get("win", 0)
    out = [
        f"{r['game']}: {_plural(r['games'], 'game')}, {_plural(r['players'], 'player')}, "
        f"agents {r['agents']}, seeds {r['seed']}..{r['seed'] + r['games'] - 1}",
        f"win rate:  {res['win_rate']:.2%} ({wins} of {r['games']})",
        "outcomes:  " + ", ".join(f"{k} {v}" for k, v in res["outcomes"].items()),
    ]
    out.append("reasons:")
    out += [f"  {n:>7}  {reason}" for reason, n in res["reasons"].items()]
    if any(res["winners"].values()):
        out.append("winners:   " + ", ".join(f"player {p} {n}" for p, n in res["winners"].items()))
    if r["stats"]:
        out.append("stats:")
        width = max(len(k) for k in r["stats"])
        for name, agg in r["stats"].items():
            if "counts" in agg:
                text = ", ".join(f"{k} {v}" for k, v in agg["counts"].items())
            else:
                text = f"mean {agg['mean']:.3f}  min {_fmt(agg['min'])}  max {_fmt(agg['max'])}"
            out.append(f"  {name:<{width}}  {text}")
    gps, dps = r["games_per_second"], r["decisions_per_second"]
    speed = f"{gps:,.0f} games/s, {dps:,.0f} decisions/s" if gps is not None else "too fast to time"
    out.append(f"speed:     {r['seconds']:.2f} s for {r['decisions']:,} decisions — {speed}")
    return "\n".join(out)


# ---- play --------------------------------------------------------------------

HELP = """\
commands:
  NUMBER      play that option (the numbers listed under the prompt)
  TEXT        play the option written exactly so, e.g. "{example}"
  v, view     show the table again
  log [N]     the last N events you could see (default 15)
  ?, help     this help
  q, quit     leave the match"""


class Quit(Exception):
    """The person asked to leave, or their input ended."""


class Console:
    """Line input and output for a person; EOF and Ctrl-C become :class:`Quit`."""

    def __init__(self, inp: TextIO, out: TextIO):
        self.inp, self.out = inp, out

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def ask(self, prompt: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        try:
            line = self.inp.readline()
        except KeyboardInterrupt:
            self.say()
            raise Quit("interrupted") from None
        if not line:
            self.say()
            raise Quit("input ended") from None
        if not is_tty(self.inp):  # piped input: echo it so a transcript reads like a session
            self.out.write(line if line.endswith("\n") else line + "\n")
        return line.strip()



def cmd_play(args: argparse.Namespace) -> int:
    game = _load(args.file)
    players = _players(game, args.players)
    if not 0 <= args.seat < players:
        raise CliError(f"--seat {args.seat} does not exist with {_plural(players, 'player')}: "
                       f"seats are 0 to {players - 1}")
    try:
        agents = make_agents(args.agents, players, args.seed)
    except ValueError as err:
        raise CliError(str(err)) from None
    return Session(game, players, args.seed, args.seat, agents, Console(sys.stdin, sys.stdout)).run()


class Session:
    """One person playing one seat of a match against agents."""

    def __init__(self, game: Game, players: int, seed: int, seat: int, agents: list, console: Console):
        self.game, self.seat, self.agents, self.io = game, seat, agents, console
        self.seed = seed
        self.match = game.new_match(players, seed=seed)

    def who(self, p: int) -> str:
        if p == self.seat:
            return f"player {p} (you)"
        return f"player {p} ({getattr(self.agents[p], 'name', type(self.agents[p]).__name__)})"

    def run(self) -> int:
        m, io = self.match, self.io
        others = ", ".join(self.who(p) for p in range(m.n) if p != self.seat)
        io.say(f"{self.game.name} — {_plural(m.n, 'player')}, seed {self.seed}.  "
               f"You are player {self.seat}" + (f"; also playing: {others}." if others else ".")
               + "  Type ? for help.")
        try:
            while m.decision is not None:
                dec = m.decision
                if dec.player == self.seat:
                    m.apply(self.ask_person())
                else:
                    action = self.agents[dec.player].act(m, dec)
                    hidden = self._hidden_before(action)
                    m.apply(action)
                    io.say(f"  {self.who(dec.player)} — {dec.choice}: {self._visible(action, hidden)}")
        except (Quit, KeyboardInterrupt) as stop:
            reason = stop if isinstance(stop, Quit) else "interrupted"
            io.say(f"Leaving the match unfinished at turn {m.turn} ({reason}).")
            return EXIT_OK
        self.show_result()
        return EXIT_OK

    # -- the person's turn
    def ask_person(self) -> Action:
        m, io = self.match, self.io
        dec = m.decision
        self.show_view()
        self.show_options()
        n = len(dec.options)
        while True:
            text = io.ask(f"your choice [1-{n}, ? for help]: ")
            word = text.lower()
            if not text:
                io.say(f"  type a number from 1 to {n} (or ? for help)")
            elif word in ("q", "quit", "exit"):
                raise Quit("you quit")
            elif word in ("?", "h", "help"):
                self.show_help()
            elif word in ("v", "view"):
                self.show_view()
                self.show_options()
            elif word.split()[0] == "log":
                self.show_log(word.split()[1:])
            elif text.isdigit():
                k = int(text)
                if 1 <= k <= n:
                    return dec.options[k - 1]
                io.say(f"  there is no option {k}: choose 1 to {n}")
            else:
                wanted = " ".join(word.split())
                for a in dec.options:
                    if " ".join(m.describe_action(a).lower().split()) == wanted:
                        return a
                io.say(f"  '{text}' is not an option or a command: type a number from 1 to {n}, "
                       "or ? for help")

    def show_view(self) -> None:
        m, io, seat = self.match, self.io, self.seat
        view = m.view(seat)
        io.say()
        whose = "your" if view["current"] == seat else f"player {view['current']}'s"
        io.say(f"── turn {view['turn']} · {whose} turn · phase {view['phase']} ──")
        empty = []
        width = max(len(z.name) for z in m.all_zones())
        for zone in m.all_zones():
            info = view["zones"][zone.name]
            if info["count"] == 0:
                if zone.name != m.game.zones[0].name:
                    empty.append(zone.name)
                continue
            label = zone.name + (" (yours)" if zone.owner == seat else "")
            if "cards" in info:
                text = f"{info['count']}: " + " ".join(info["cards"])
            elif "top" in info:
                text = f"{_plural(info['count'], 'card')}, top {info['top']}"
            else:
                text = f"{_plural(info['count'], 'card')}, face down"
            io.say(f"  {label:<{width + 8}} {text}")
        if empty:
            io.say(f"  empty: {', '.join(empty)}")
        if view["vars"]:
            io.say("  " + " · ".join(f"{k} {_fmt(v)}" for k, v in view["vars"].items()))
        for p, pv in enumerate(view["player_vars"]):
            if pv:
                io.say(f"  {self.who(p)}: " + " · ".join(f"{k} {_fmt(v)}" for k, v in pv.items()))

    def show_options(self) -> None:
        m, dec = self.match, self.match.decision
        self.io.say(f"{dec.choice}: {dec.prompt}")
        items = [f"{i:>3}. {m.describe_action(a)}" for i, a in enumerate(dec.options, 1)]
        for line in _columns(items):
            self.io.say(line)

    def show_help(self) -> None:
        m, dec = self.match, self.match.decision
        self.io.say(HELP.format(example=m.describe_action(dec.options[0])))
        spec = self.game.source.get("choices", {}).get(dec.choice, {})
        docs = [(o["name"], o["doc"]) for o in spec.get("options", []) if o.get("doc")]
        if spec.get("doc") or docs:
            self.io.say(f"about '{dec.choice}':")
            if spec.get("doc"):
                self.io.say(f"  {spec['doc']}")
            for name, doc in docs:
                self.io.say(f"  {name}: {doc}")

    def show_log(self, rest: list[str]) -> None:
        count = 15
        if rest:
            if not rest[0].isdigit():
                self.io.say("  usage: log [N], e.g. log 30")
                return
            count = int(rest[0])
        events = self.match.view(self.seat)["log"][-count:] if count else []
        for ev in events:
            self.io.say("  " + self.format_event(ev))

    def format_event(self, ev: dict) -> str:
        kind = ev.get("event")
        if kind == "move":
            names = ", ".join(n if n is not None else "a hidden card" for n in ev["cards"])
            sources = ", ".join(dict.fromkeys(ev["from"]))
            return f"{names}: {sources} → {ev['to']}"
        if kind == "decide":
            parts = [ev["option"]]
            if ev.get("cards"):
                parts += [n if n is not None else "(hidden)" for n in ev["cards"]]
            if ev.get("target") is not None:
                parts.append(f"player {ev['target']}")
            return f"{self.who(ev['player'])} — {ev['choice']}: {' '.join(parts)}"
        if kind == "turn":
            return f"turn of {self.who(ev['player'])}"
        if kind == "shuffle":
            return f"shuffled {ev['zone']}"
        if kind == "start":
            return f"start: {ev['game']}, {_plural(ev['players'], 'player')}, seed {ev['seed']}"
        if kind == "end":
            return f"end: {ev['outcome']} — {ev['reason']}"
        if kind == "note":
            return str(ev.get("text"))
        return json.dumps(ev, ensure_ascii=False)

    # -- agents' actions, as the person may see them
    def _sees(self, cid: int) -> bool:
        for zone in self.match.all_zones():
            if any(c.id == cid for c in zone.cards):
                vis = zone.zdef.visibility
                return (vis == "public" or (vis == "owner" and zone.owner == self.seat)
                        or (vis == "top" and zone.cards[-1].id == cid))
        return False

    def _hidden_before(self, action: Action) -> set[int]:
        return {cid for cid in action.cards if not self._sees(cid)}

    def _visible(self, action: Action, hidden_before: set[int]) -> str:
        """The action in words, naming only cards the person saw before or sees now."""
        m = self.match
        parts = [action.option]
        for cid in action.cards:
            shown = cid not in hidden_before or self._sees(cid)
            parts.append(m.card(cid).name if shown else "(hidden card)")
        if action.player is not None:
            parts.append(self.who(action.player))
        return " ".join(parts)

    def show_result(self) -> None:
        result = self.match.result()
        io = self.io
        io.say()
        io.say(f"== game over after {self.match.turn} turns: {result['outcome']} — {result['reason']} ==")
        if result["winners"]:
            io.say("winners: " + ", ".join(self.who(p) for p in result["winners"]))
        else:
            io.say("winners: nobody")
        if result["stats"]:
            io.say("stats: " + " · ".join(f"{k} {_fmt(v)}" for k, v in result["stats"].items()))


def _columns(items: list[str]) -> list[str]:
    """Lay out many short items in columns that fit the terminal."""
    if len(items) <= 12:
        return items
    width = max(len(s) for s in items) + 2
    cols = max(1, shutil.get_terminal_size((100, 24)).columns // width)
    rows = -(-len(items) // cols)
    return ["".join(items[r + c * rows].ljust(width) for c in range(cols) if r + c * rows < len(items)).rstrip()
            for r in range(rows)]
