"""The web table as an ASGI application: the pages, the JSON API and each
seat's websocket (docs/web.md, "Protocol").

This module only translates between HTTP/websockets and :class:`Host`, which
owns the matches; a socket never touches a match except through it.
"""
from __future__ import annotations

import asyncio
import json
import logging
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator, Iterable

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from . import protocol
from .games import load_catalogue
from .hosting import BadRequest, Host, Hosted
from .limits import FLOOD_CLOSE, MAX_MESSAGE_BYTES, MAX_SAVED_BYTES, RateLimit
from .replays import Replays
from .store import Store

log = logging.getLogger("rulekit.web")
STATIC = Path(__file__).parent / "static"
#: states queued for one socket that does not read them before it is let go
MAX_QUEUED = 256
#: the websocket close code for a socket let go for what it sent (a bad token, a flood)
POLICY = 1008
#: ... and for one let go because the server failed (it may come back: the match is unchanged)
INTERNAL = 1011


def create_app(paths: Iterable[str | Path] = ("games",), db: str | Path = "rulekit-matches.sqlite3",
               agent_delay: float = 0.4) -> Starlette:
    """The application serving the rule files in ``paths`` with its matches
    in the SQLite file ``db``; the unfinished matches found there are resumed."""
    catalogue = load_catalogue(paths)
    store = Store(db)
    host = Host(catalogue, store, agent_delay)
    resumed = host.resume_all()
    if resumed:
        log.info("resumed %d unfinished match%s from %s", resumed, "es" * (resumed != 1), db)
    replays = Replays(catalogue)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        for hosted in list(host.matches.values()):
            host.kick(hosted)
        yield
        await host.close()
        store.close()

    api = _Api(host, replays)
    routes = [
        Route("/", _page("index.html")), Route("/table", _page("table.html")), Route("/replay", _page("replay.html")),
        Route("/api/games", api.games), Route("/api/matches", api.matches, methods=["GET", "POST"]),
        Route("/api/matches/{mid}/saved", api.saved),
        Route("/api/replays", api.new_replay, methods=["POST"]),
        Route("/api/replays/{rid}/{step:int}", api.replay_frame),
        WebSocketRoute("/ws/{mid}", api.socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static") if STATIC.is_dir()
        else Route("/static/{path:path}", _no_pages),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.host = host
    return app


def _page(name: str):
    async def page(request: Request) -> Response:
        path = STATIC / name
        if path.is_file():
            return FileResponse(path, media_type="text/html")
        return HTMLResponse(f"<!doctype html><title>rulekit</title><p>This server has no {name} page "
                            "(the pages are not installed).  The API is at /api/games.", status_code=404)
    return page


async def _no_pages(request: Request) -> Response:
    return _error(404, "the pages are not installed")


def _error(status: int, text: str) -> JSONResponse:
    return JSONResponse({"error": text}, status_code=status)


async def _body(request: Request, limit: int = MAX_MESSAGE_BYTES) -> Any:
    """The request's JSON body, at most ``limit`` bytes (read no further)."""
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise BadRequest(f"the body may hold at most {limit} bytes")
        chunks.append(chunk)
    try:
        return json.loads(b"".join(chunks))
    except (ValueError, RecursionError):
        raise BadRequest("the body is not JSON") from None


class _Api:
    """The request handlers, all over one :class:`Host`."""

    def __init__(self, host: Host, replays: Replays):
        self.host, self.replays = host, replays

    async def games(self, request: Request) -> Response:
        return JSONResponse([o.describe() for o in self.host.catalogue.values()])

    async def matches(self, request: Request) -> Response:
        host = self.host
        if request.method == "GET":
            rows = await asyncio.to_thread(host.store.listing)
            for row in rows:
                offered = host.catalogue.get(row["game"])
                row["title"] = offered.game.name if offered else row["game"]
            return JSONResponse(rows)
        try:
            body = await _body(request)
            if not isinstance(body, dict):
                raise BadRequest('the body is an object: {"game", "players", "seats", "seed", "options"}')
            hosted, tokens = await asyncio.to_thread(host.create, body.get("game"), body.get("players"),
                                                     body.get("seats"), body.get("seed"), body.get("options"))
        except BadRequest as err:
            return _error(400, str(err))
        host.kick(hosted)
        return JSONResponse({"match": hosted.id, "seats": [{"seat": i, "token": t} for i, t in tokens.items()]})

    async def saved(self, request: Request) -> Response:
        hosted = await asyncio.to_thread(self.host.load, request.path_params["mid"])
        if hosted is None:
            return _error(404, "no such match")
        async with hosted.lock:
            if not hosted.match.is_over():
                return _error(409, "a match is saved (with its seed, which reveals every hidden card) "
                                   "only once it is over")
            saved = hosted.match.save()
        self.host.forget_if_done(hosted)
        return JSONResponse(saved)

    async def new_replay(self, request: Request) -> Response:
        try:
            body = await _body(request, MAX_SAVED_BYTES)
            return JSONResponse(await asyncio.to_thread(self.replays.add, body))
        except BadRequest as err:
            return _error(400, str(err))

    async def replay_frame(self, request: Request) -> Response:
        seat = request.query_params.get("seat", "all")
        try:
            frame = await asyncio.to_thread(self.replays.frame, request.path_params["rid"],
                                            request.path_params["step"], seat)
        except BadRequest as err:
            return _error(400, str(err))
        except KeyError:
            return _error(404, "no such replay (replays are kept in memory: post the saved match again)")
        return JSONResponse(frame)

    async def socket(self, ws: WebSocket) -> None:
        await ws.accept()
        out = _Outbox(ws)
        writer = asyncio.get_running_loop().create_task(out.run())
        hosted: Hosted | None = None
        seat: int | None = None
        try:
            hosted = await asyncio.to_thread(self.host.load, ws.path_params["mid"])
            if hosted is None:
                out.send(protocol.error("token", f"there is no match {ws.path_params['mid']!r} on this server"))
                out.close(POLICY)
                return
            seat = await self._converse(ws, out, hosted)
        finally:
            if hosted is not None and seat is not None:
                self.host.leave(hosted, seat, out)
            out.close()
            await writer

    async def _converse(self, ws: WebSocket, out: _Outbox, hosted: Hosted) -> int | None:
        """Read the socket's messages until it leaves; the seat it held, if any."""
        seat: int | None = None
        limit = RateLimit()
        while not out.closed:
            try:
                message = await ws.receive()
            except (WebSocketDisconnect, RuntimeError):
                break
            if message["type"] == "websocket.disconnect":
                break
            if not limit.allow():
                if limit.refused == 1:
                    out.send(protocol.error("rate", "too many messages: wait a second"))
                if limit.refused > FLOOD_CLOSE:
                    out.close(POLICY)
                    break
                continue
            frame = message.get("text") if message.get("text") is not None else message.get("bytes")
            try:
                msg = protocol.read(frame)
                if isinstance(msg, protocol.Hello):
                    held = hosted.seat_of(msg.token)
                    if held is None or (seat is not None and held != seat):
                        out.send(protocol.error("token", "that token holds no seat of this match"))
                        out.close(POLICY)
                        break
                    if seat is None:
                        seat = held
                    await self.host.join(hosted, seat, out)
                elif seat is None:
                    raise protocol.Refused("token", 'say {"type": "hello", "token": ...} first')
                else:
                    await self.host.act(hosted, seat, msg)
            except protocol.Refused as refused:
                out.send(refused.reply())
            except Exception:  # noqa: BLE001 - e.g. the database failed: the match was left as it was
                log.exception("match %s: a message could not be handled; the socket is let go", hosted.id)
                out.close(INTERNAL)
                break
        return seat


class _Outbox:
    """What the server sends one socket, in order, written by one task so a
    slow reader delays only itself; a reader far behind is let go."""

    def __init__(self, ws: WebSocket):
        self.ws = ws
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.code = 1000

    def push(self, text: str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= MAX_QUEUED:
            self.close()
            return
        self.queue.put_nowait(text)

    def send(self, message: dict[str, Any]) -> None:
        self.push(json.dumps(message, ensure_ascii=False))

    def close(self, code: int = 1000) -> None:
        if not self.closed:
            self.closed, self.code = True, code
            self.queue.put_nowait(None)

    async def run(self) -> None:
        try:
            while (text := await self.queue.get()) is not None:
                await self.ws.send_text(text)
            await self.ws.close(code=self.code)
        except Exception:  # noqa: BLE001 - the socket went away; nothing is owed to it
            pass
