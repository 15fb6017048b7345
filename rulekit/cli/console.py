"""Line input and output with the person at the terminal."""
from __future__ import annotations

from typing import Iterable, TextIO

from ..progress import is_tty


class Quit(Exception):
    """The person asked to leave, or their input ended."""


class Console:
    """Line input and output for a person; EOF and Ctrl-C become :class:`Quit`."""

    def __init__(self, inp: TextIO, out: TextIO):
        self.inp, self.out = inp, out

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def say_lines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.say(line)

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
