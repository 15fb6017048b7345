"""``rulekit play FILE``: a person plays one seat in the terminal; agents play the
others.  The person only ever sees what their seat may see."""
from __future__ import annotations

import argparse
import sys

from ..engine.runtime import Action, Decision
from ..model import Game
from .common import (
    EXIT_OK,
    CliError,
    add_agents,
    add_file_and_players,
    add_options,
    add_seed,
    game_and_players,
    game_options,
    options_text,
    seats,
)
from .console import Console, Quit
from .numbering import OptionNumbers
from .show import event_line, help_lines, only_pass, result_lines, table_lines, told_events
from .skill_text import card_lines, find_skill, skill_lines, skill_names
from .text import one_line, plural


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("play", help="play a seat yourself in the terminal",
                       description="Play one seat; agents play the others.  Type ? during play for help.")
    add_file_and_players(p)
    add_seed(p, "the match")
    p.add_argument("--seat", type=int, default=0, help="your seat, 0 is the first player (default 0)")
    add_agents(p, "heuristic", "agents for the other seats")
    add_options(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    game, players = game_and_players(args)
    if not 0 <= args.seat < players:
        raise CliError(f"--seat {args.seat} does not exist with {plural(players, 'player')}: "
                       f"seats are 0 to {players - 1}")
    agents = seats(args.agents, players, args.seed)
    options = game_options(game, args.options)
    return Session(game, players, args.seed, args.seat, agents, Console(sys.stdin, sys.stdout),
                   options).run()


class Session:
    """One person playing one seat of a match against agents."""

    def __init__(self, game: Game, players: int, seed: int, seat: int, agents: list, console: Console,
                 options: dict | None = None):
        self.game, self.seat, self.agents, self.io = game, seat, agents, console
        self.seed = seed
        self.match = game.new_match(players, seed=seed, options=options)
        self.told_out = False
        self.seen = 0          # log entries already told to the person
        self.numbers = OptionNumbers()

    def who(self, p: int) -> str:
        if p == self.seat:
            return f"player {p} (you)"
        return f"player {p} ({getattr(self.agents[p], 'name', type(self.agents[p]).__name__)})"

    def run(self) -> int:
        m, io = self.match, self.io
        others = ", ".join(self.who(p) for p in range(m.n) if p != self.seat)
        io.say(f"{self.game.name} — {plural(m.n, 'player')}, seed {self.seed}.  "
               f"You are player {self.seat}" + (f"; also playing: {others}." if others else ".")
               + "  Type ? for help" + (", ?NAME for a skill's text." if self.game.skills else "."))
        if m.options:
            io.say(f"Options: {options_text(m.options)}.")
        try:
            while m.decision is not None:
                self._tell_if_out()
                dec = m.decision
                if dec.player == self.seat and self._only_pass(dec):
                    # asked only so that the others cannot tell: answer for the person
                    self._catch_up()
                    self.io.say(f"  {one_line(dec.prompt)} — you have nothing to answer with, "
                                f"so you {dec.options[0].option}")
                    self.seen = len(m.log)
                    m.apply(0)
                elif dec.player == self.seat:
                    self._catch_up()
                    action = self.ask_person(dec)
                    self.seen = len(m.log)      # what follows the person's answer is told later
                    m.apply(action)
                else:
                    m.apply(self.agents[dec.player].act(m, dec))
        except (Quit, KeyboardInterrupt) as stop:
            reason = stop if isinstance(stop, Quit) else "interrupted"
            io.say(f"Leaving the match unfinished at turn {m.turn} ({reason}).")
            return EXIT_OK
        self._catch_up()
        self._tell_if_out()
        io.say_lines(result_lines(m, self.who))
        return EXIT_OK

    def _only_pass(self, dec) -> bool:
        """A response window the person can only pass: the match asks every
        seat it names so that the others learn nothing from who is asked,
        but there is nothing for the person to decide."""
        return only_pass(self.game, dec)

    def _catch_up(self) -> None:
        """Tell what the others did since the person last decided, as their
        seat's redacted log shows it.  Told late rather than as it happens,
        so a card that was played face up shows by name (see
        :func:`rulekit.engine.view.event_dicts`)."""
        m = self.match
        for _, line in told_events(self.game, m.view(self.seat, since=self.seen)["log"], self.who,
                                   self.narrate, mine=self.seat):
            self.io.say("  " + line)
        self.seen = len(m.log)

    def narrate(self, ev: dict) -> str:
        """A narrated event in the rule file's words, seats said for this person."""
        return self.game.narration[ev["name"]].say(ev.get("fields", {}), self.who)

    def _tell_if_out(self) -> None:
        """Once the person's seat is eliminated the agents play on without them: say so once."""
        m = self.match
        if not self.told_out and m.out[self.seat]:
            self._catch_up()
            self.told_out = True
            self.io.say(f"  You are out of the game (turn {m.turn})"
                        + ("; the others play on." if m.decision is not None else "."))

    # -- the person's turn
    def ask_person(self, dec: Decision) -> Action:
        m, io = self.match, self.io
        numbered = self.numbers.number(dec, m.turn)
        by_number = dict(numbered)
        io.say_lines(table_lines(m, self.seat, self.who, numbered))
        listed = _numbers_text([k for k, _ in numbered])
        while True:
            text = io.ask(f"your choice [{listed}, ? for help]: ")
            word = text.lower()
            if not text:
                io.say(f"  type one of the numbers listed, {listed} (or ? for help)")
            elif word in ("q", "quit", "exit"):
                raise Quit("you quit")
            elif word in ("?", "h", "help"):
                io.say_lines(help_lines(self.game, m))
            elif text.startswith("?"):
                self.show_skill(text[1:])
            elif word in ("v", "view"):
                io.say_lines(table_lines(m, self.seat, self.who, numbered))
            elif word.split()[0] == "log":
                self.show_log(word.split()[1:])
            elif text.isdigit():
                k = int(text)
                if k in by_number:
                    return by_number[k]
                io.say(f"  there is no option {k}: choose {listed}")
            else:
                wanted = one_line(word)
                for a in dec.options:
                    if one_line(m.describe_action(a).lower()) == wanted:
                        return a
                io.say(f"  '{text}' is not an option or a command: type one of the numbers "
                       f"listed ({listed}), or ? for help")

    def show_skill(self, asked: str) -> None:
        """``?skill NAME`` or ``?NAME``: a skill's rulebook text (``?skills``:
        every skill's name), so a person can read what a skill option does
        before choosing it; ``?CARD``: a card's properties and the text of
        each skill a property names."""
        asked = asked.strip()
        skill = find_skill(self.game, asked)
        words = asked.split(maxsplit=1)
        if isinstance(skill, str) and words and words[0].lower() in ("skill", "skills"):
            if len(words) == 1:
                self.io.say_lines(skill_names(self.game))
                return
            skill = find_skill(self.game, words[1])
        if isinstance(skill, str) and self.game.card_named(asked):
            self.io.say_lines(card_lines(self.game, asked))
            return
        self.io.say_lines(["  " + skill] if isinstance(skill, str) else skill_lines(skill, "  ", parts=False))

    def show_log(self, rest: list[str]) -> None:
        count = 15
        if rest:
            if not rest[0].isdigit():
                self.io.say("  usage: log [N], e.g. log 30")
                return
            count = int(rest[0])
        events = self.match.view(self.seat)["log"][-count:] if count else []
        self.io.say_lines("  " + event_line(ev, self.who, self.narrate) for ev in events)


def _numbers_text(numbers: list[int]) -> str:
    """``1-5`` for a run, ``1, 3, 5-7`` once some options have gone."""
    runs: list[list[int]] = []
    for k in numbers:
        if runs and k == runs[-1][1] + 1:
            runs[-1][1] = k
        else:
            runs.append([k, k])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)
