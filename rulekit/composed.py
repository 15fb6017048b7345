"""A rule file put together from several files, that still knows where each
value was written.

:mod:`rulekit.modules` merges a game from the files it includes or extends
into one mapping, the same shape as a single rule file, so every later stage
(limits, schema, compiler) works on it unchanged.  Errors must still point
at the file, line and column where an author wrote the faulty rule, so the
merged data keeps, for every item it took from a file, that file's
:class:`~rulekit.yamlsafe.LoadedYaml` and the item's path there (its
*origin*).  :class:`ComposedYaml` answers the position questions of a
``LoadedYaml`` (``where``, ``key_where``, ``text_where``, ``span_at``) by
asking the file of the nearest origin.
"""
from __future__ import annotations

from typing import Any, Callable

import attrs

from .errors import Where
from .lang.bindings import Bindings
from .yamlsafe import LoadedYaml, value_at

Path = tuple
#: merged path -> (the file it came from, its path in that file)
Origins = dict[Path, tuple[LoadedYaml, Path]]


@attrs.frozen
class ComposedYaml:
    """Merged data of several files, with the origin of every item in it.

    ``file`` is the file that was loaded (the game); ``origins`` maps a path
    of the merged data to the file and path it was taken from.  A path with
    no origin of its own takes that of its nearest ancestor that has one.
    """

    data: Any
    file: str
    origins: Origins = attrs.field(repr=False)
    #: every file read, by name (what error display needs)
    files: dict[str, LoadedYaml] = attrs.field(repr=False)
    #: skill -> {"options": [[choice, option]...], "triggers": [index...],
    #: "procedures": [name...]}: where :func:`rulekit.skills.expand_skills` put its parts
    skill_parts: dict[str, dict] = attrs.field(factory=dict, repr=False)
    #: file -> what its module parameters stand for (see :mod:`rulekit.lang.bindings`)
    bindings: dict[str, Bindings] = attrs.field(factory=dict, repr=False)

    def origin(self, path: Path) -> tuple[LoadedYaml, Path]:
        path = tuple(path)
        for k in range(len(path), -1, -1):
            found = self.origins.get(path[:k])
            if found is not None:
                loaded, there = found
                return loaded, there + path[k:]
        return self.files[self.file], path

    def where(self, path: Path) -> Where:
        loaded, there = self.origin(path)
        return loaded.where(there)

    def key_where(self, path: Path) -> Where:
        loaded, there = self.origin(path)
        return loaded.key_where(there)

    def text_where(self, path: Path, line: int, column: int) -> Where:
        loaded, there = self.origin(path)
        return loaded.text_where(there, line, column)

    def value_at(self, path: Path) -> Any:
        return value_at(self.data, path)

    def bindings_at(self, path: Path) -> Bindings | None:
        """The parameters of the module the text at ``path`` was written in."""
        return self.bindings.get(self.origin(path)[0].file)

    def span_at(self, where: Where) -> int:
        loaded = self.files.get(where.file)
        return loaded.span_at(where) if loaded is not None else 0

    def sources(self) -> dict[str, tuple[str, ...]]:
        """The lines of every file, by name: what error display shows."""
        return {name: loaded.lines() for name, loaded in self.files.items()}

    def remapped(self, data: Any, remap: Callable[[dict], dict]) -> "ComposedYaml":
        """The same files for ``data`` whose list items moved (see
        :func:`rulekit.structure.salvage`): ``remap`` moves the paths."""
        return attrs.evolve(self, data=data, origins=remap(self.origins))


#: a rule file as the checks read it: one file, or a game composed of several
RuleSource = LoadedYaml | ComposedYaml
