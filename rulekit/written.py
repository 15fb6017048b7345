"""Values written the way a rule file writes them (``true``, ``none``,
``[a, b]``): for reports and messages, of the library and the commands alike."""
from __future__ import annotations

from typing import Any


def fmt(value: Any) -> str:
    """A value the way a rule file writes it (true, not True; [a, b] for a list)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, float):
        return f"{value:.3g}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(fmt(v) for v in value) + "]"
    if value == "":
        return '""'                 # empty text would be invisible
    return str(value)
