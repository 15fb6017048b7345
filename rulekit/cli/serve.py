"""``rulekit serve [FILES or DIRS]``: host matches of rule files that people play
in their browsers (the web table, :mod:`rulekit.web`; needs the ``web`` extra).

Imports the web extra only when run, so ``rulekit`` works without it and says
how to install it instead of failing with a traceback."""
from __future__ import annotations

import argparse
import importlib.util
import logging
import socket
import sqlite3
from pathlib import Path

from .common import EXIT_OK, CliError


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="host matches played in web browsers",
                       description="Serve a lobby, tables and replays of the rule files given (default: "
                                   "games/ of the current folder) to web browsers.  Matches are kept in a "
                                   "SQLite file and resumed when the server starts again.")
    p.add_argument("paths", nargs="*", metavar="FILE_OR_DIR",
                   help="rule files, game folders, or folders of games (default: games)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this computer only; 0.0.0.0 for everyone "
                        "who can reach it)")
    p.add_argument("--port", type=_port, default=8000, help="port to listen on (default 8000)")
    p.add_argument("--db", default="rulekit-matches.sqlite3",
                   help="SQLite file of the matches (default rulekit-matches.sqlite3 in the current folder)")
    p.add_argument("--agent-delay", type=_seconds, default=0.4, metavar="S",
                   help="seconds between two agents' moves, so people can follow them (default 0.4)")
    p.set_defaults(run=run)


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a port number") from None
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is from 1 to 65535, not {value}")
    return value


def _listen(host: str, port: int) -> socket.socket:
    """The listening socket, bound here so that a port in use is one clear message."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as err:
        sock.close()
        raise CliError(f"cannot listen on {host} port {port}: {err.strerror or err}\n"
                       "    hint: another program may be using the port: choose another with --port") from None
    return sock


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number of seconds") from None
    if not 0 <= value <= 60:
        raise argparse.ArgumentTypeError(f"must be from 0 to 60 seconds, not {value}")
    return value


def run(args: argparse.Namespace) -> int:
    missing = [m for m in ("starlette", "uvicorn", "websockets") if importlib.util.find_spec(m) is None]
    if missing:
        raise CliError(f"rulekit serve needs the web extra ({', '.join(missing)} not installed)\n"
                       "    hint: pip install 'rulekit[web]'")
    import uvicorn

    from ..web.app import create_app
    from ..web.games import find_rule_files
    from ..web.limits import MAX_FRAME_BYTES

    paths = args.paths or ["games"]
    for p in paths:
        if not Path(p).exists():
            raise CliError(f"{p}: no such file or folder" + ("" if args.paths else
                           "\n    hint: name the rule files or folders to serve: rulekit serve games/"))
    if not find_rule_files(paths):
        raise CliError(f"no rule file in {', '.join(paths)} (a folder offers its *.yaml and */game.yaml)")
    logging.basicConfig(level=logging.INFO, format="rulekit: %(message)s")
    sock = _listen(args.host, args.port)
    try:
        app = create_app(paths, db=args.db, agent_delay=args.agent_delay)
    except sqlite3.Error as err:
        sock.close()
        raise CliError(f"{args.db}: cannot use it as the database of matches ({err})", 1) from None
    games = app.state.host.catalogue
    if not games:
        sock.close()
        raise CliError(f"no rule file in {', '.join(paths)} loads (see the messages above)", 1)
    print(f"rulekit: serving {len(games)} game{'s' * (len(games) != 1)} ({', '.join(games)}) at "
          f"http://{args.host}:{args.port}/ ; matches kept in {args.db}", flush=True)
    config = uvicorn.Config(app, ws_max_size=MAX_FRAME_BYTES, log_level="warning")
    uvicorn.Server(config).run(sockets=[sock])
    return EXIT_OK
