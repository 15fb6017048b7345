"""Balance reports: is a game fair to each side, seat, hero and player count?

``balance(game, counts, games, ...)`` simulates ``games`` matches for each
player count and gathers the win rates the rule file's ``player_stats``
declare (identity, hero, deck...), the wins by seat, the games' length and
the file's ``stats``, every rate with its 95 % interval.  ``write_report``
turns that into one self-contained HTML page (plots embedded as PNG, made
with matplotlib: ``pip install 'rulekit[plot]'``) and a JSON file with the
same numbers.  ``rulekit report`` is the command.
"""
from __future__ import annotations

import base64
import html
import io
import json
import logging
from pathlib import Path
from typing import Any

from .model import Game
from .simulation import simulate
from .tally import win_rate


def balance(game: Game, counts: list[int], games: int, seed: int = 0, agents: str = "random",
            options: dict | None = None, jobs: int = 1, coverage: bool = False) -> dict:
    """The numbers of the report: one simulation per player count."""
    runs = {}
    for n in counts:
        r = simulate(game, n, games, seed, agents, options, jobs, coverage=coverage)
        seats = {str(p): win_rate(games, r["results"]["winners"].get(str(p), 0)) for p in range(n)}
        runs[str(n)] = {**r, "wins_by_seat": seats}
    return {"game": game.name, "games": games, "seed": seed, "agents": agents, "runs": runs}


def write_report(data: dict, out: Path) -> tuple[Path, Path]:
    """``out``/report.html and ``out``/report.json; raises ImportError with a
    hint when matplotlib is missing."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        # a machine without one of the CJK fonts tried: no warning for each label
        logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)
    except ImportError as err:
        raise ImportError("the report's plots need matplotlib: pip install 'rulekit[plot]'") from err
    out.mkdir(parents=True, exist_ok=True)
    page = _Page(data["game"], plt)
    runs = data["runs"]
    page.para(f"{data['games']} games for each player count ({', '.join(runs)}), agents "
              f"{data['agents']}, seeds from {data['seed']}. Every rate has its 95 % interval (Wilson).")
    if len(runs) > 1:
        page.by_count(runs)
    for n, r in runs.items():
        page.heading(f"{n} players")
        page.bars(f"wins by seat, {n} players", {f"seat {p}": e for p, e in r["wins_by_seat"].items()})
        for name, rows in r.get("wins_by", {}).items():
            page.bars(f"wins by {name}, {n} players", rows)
        page.table("game length", [(k, _agg(v)) for k, v in r["length"].items()])
        if r["stats"]:
            page.table("the rule file's stats", [(k, _agg(v)) for k, v in r["stats"].items()])
        if "coverage" in r:
            never = [(kind, ", ".join(names)) for kind, names in r["coverage"]["never"].items() if names]
            page.table("rules that never ran", never or [("—", "every rule ran")])
    html_path, json_path = out / "report.html", out / "report.json"
    html_path.write_text(page.html(), encoding="utf-8")
    json_path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    return html_path, json_path


def _agg(a: dict) -> str:
    if "mean" in a:
        return f"mean {a['mean']:.2f} · min {a['min']} · max {a['max']}"
    return ", ".join(f"{k} {v}" for k, v in a.get("counts", {}).items())


class _Page:
    """The HTML page, built part by part; plots are embedded PNGs."""

    def __init__(self, title: str, plt: Any):
        self.title, self.plt = title, plt
        self.parts: list[str] = []

    def heading(self, text: str) -> None:
        self.parts.append(f"<h2>{html.escape(text)}</h2>")

    def para(self, text: str) -> None:
        self.parts.append(f"<p>{html.escape(text)}</p>")

    def table(self, caption: str, rows: list[tuple[str, str]]) -> None:
        body = "".join(f"<tr><th>{html.escape(str(a))}</th><td>{html.escape(str(b))}</td></tr>" for a, b in rows)
        self.parts.append(f"<table><caption>{html.escape(caption)}</caption>{body}</table>")

    def bars(self, title: str, rows: dict) -> None:
        """A horizontal bar a value, its rate with the interval as an error bar."""
        rows = {k: e for k, e in rows.items() if e.get("rate") is not None}
        if not rows:
            return
        names = list(rows)[::-1]
        rates = [rows[k]["rate"] for k in names]
        lo = [rows[k]["rate"] - rows[k]["ci95"][0] for k in names]
        hi = [rows[k]["ci95"][1] - rows[k]["rate"] for k in names]
        fig, ax = self.plt.subplots(figsize=(7, 0.9 + 0.28 * len(names)))
        ax.barh(range(len(names)), rates, xerr=[lo, hi], color="#4a7fb5", ecolor="#333", capsize=2)
        ax.set_yticks(range(len(names)), [f"{k} ({rows[k]['seats']})" for k in names],
                      fontfamily=_CJK_FONTS)
        ax.set_xlim(0, 1)
        ax.set_xlabel("win rate (95 % interval); in brackets: seats")
        ax.set_title(title, fontfamily=_CJK_FONTS)
        self._figure(fig, title)
        self.table(title, [(k, f"{e['wins']} of {e['seats']}: {e['rate']:.1%} "
                               f"[{e['ci95'][0]:.1%}, {e['ci95'][1]:.1%}]") for k, e in rows.items()])

    def by_count(self, runs: dict) -> None:
        """Win rate by player count, one line a value of the first player stat."""
        first = next((name for r in runs.values() for name in r.get("wins_by", {})), None)
        if first is None:
            return
        values = sorted({v for r in runs.values() for v in r["wins_by"].get(first, {}) if " · " not in v})
        fig, ax = self.plt.subplots(figsize=(7, 3.5))
        counts = [int(n) for n in runs]
        for v in values:
            pts = [(int(n), r["wins_by"][first][v]) for n, r in runs.items() if v in r["wins_by"].get(first, {})]
            xs = [x for x, _ in pts]
            ax.errorbar(xs, [e["rate"] for _, e in pts],
                        yerr=[[e["rate"] - e["ci95"][0] for _, e in pts], [e["ci95"][1] - e["rate"] for _, e in pts]],
                        marker="o", capsize=3, label=v)
        ax.set(xlabel="players", ylabel="win rate", ylim=(0, 1), xticks=counts)
        ax.set_title(f"wins by {first} and player count", fontfamily=_CJK_FONTS)
        ax.legend(prop={"family": _CJK_FONTS}, fontsize="small")
        self._figure(fig, f"wins by {first} and player count")

    def _figure(self, fig, alt: str) -> None:
        buf = io.BytesIO()
        fig.tight_layout()
        fig.savefig(buf, format="png", dpi=90)
        self.plt.close(fig)
        data = base64.b64encode(buf.getvalue()).decode("ascii")
        self.parts.append(f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">')

    def html(self) -> str:
        title = html.escape(self.title)
        return ("<!doctype html><html><head><meta charset='utf-8'>"
                f"<title>{title} — balance report</title><style>{_CSS}</style></head><body>"
                f"<h1>{title} — balance report</h1>" + "\n".join(self.parts) + "</body></html>\n")


#: fonts tried in turn for labels in Chinese or Japanese (the first found is used)
_CJK_FONTS = ["WenQuanYi Zen Hei", "Noto Sans CJK SC", "Noto Sans CJK JP", "DejaVu Sans"]
_CSS = ("body{font-family:sans-serif;max-width:60em;margin:2em auto;color:#222}"
        "table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #ccc;padding:.2em .6em;"
        "text-align:left}caption{font-weight:bold;text-align:left}img{display:block;margin:1em 0}")
