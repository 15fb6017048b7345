"""A real web table for tests: uvicorn serving :func:`rulekit.web.app.create_app`
on a free localhost port in a background thread, and a small synchronous
websocket client to talk to it.

    with serve(["games/regicide.yaml"]) as server:      # a temp DB, agents without delay
        match = server.post("/api/matches", {"game": "regicide", "players": 2,
                                             "seats": ["person", "person"], "seed": 7})
        with server.seat(match["match"], match["seats"][0]["token"]) as table:
            state = table.state           # the state sent after hello
            table.act(state["actions"][0]["action"], state["step"])
            state = table.next_state()

``serve(..., db=path)`` on the same path again is the same server restarted.
"""
from __future__ import annotations

import contextlib
import json
import socket
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parents[1]
REGICIDE = ROOT / "games" / "regicide.yaml"
#: the longest any single wait in these helpers lasts before the test fails
TIMEOUT = 30.0


class Server:
    """A running server: its base URL, HTTP helpers and seat connections."""

    def __init__(self, url: str, app: Any, db: Path):
        self.url, self.app, self.db = url, app, db
        self.ws_url = "ws" + url[len("http"):]

    @property
    def host(self):
        """The server's :class:`rulekit.web.hosting.Host` (its matches, in this process)."""
        return self.app.state.host

    def request(self, method: str, path: str, body: Any = None, raw: bytes | None = None) -> tuple[int, Any]:
        """``(status, parsed JSON or text)`` of one HTTP request."""
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        req = urllib.request.Request(self.url + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=TIMEOUT) as resp:
                status, payload = resp.status, resp.read()
        except urllib.error.HTTPError as err:
            status, payload = err.code, err.read()
        try:
            return status, json.loads(payload)
        except ValueError:
            return status, payload.decode("utf-8", "replace")

    def get(self, path: str) -> Any:
        status, payload = self.request("GET", path)
        assert status == 200, (status, payload)
        return payload

    def post(self, path: str, body: Any) -> Any:
        status, payload = self.request("POST", path, body)
        assert status == 200, (status, payload)
        return payload

    def new_match(self, seats: list[str], seed: int | None = 0, game: str = "regicide",
                  options: dict | None = None) -> dict[str, Any]:
        """POST /api/matches; the reply with ``tokens`` added: seat -> token."""
        reply = self.post("/api/matches", {"game": game, "players": len(seats), "seats": seats,
                                           "seed": seed, "options": options or {}})
        reply["tokens"] = {s["seat"]: s["token"] for s in reply["seats"]}
        return reply

    def connect(self, match_id: str) -> "Client":
        return Client(f"{self.ws_url}/ws/{match_id}")

    @contextlib.contextmanager
    def seat(self, match_id: str, token: str) -> Iterator["Client"]:
        """A socket that has said hello with ``token`` (its first state in ``.state``)."""
        client = self.connect(match_id)
        try:
            client.hello(token)
            yield client
        finally:
            client.close()


class Client:
    """A synchronous websocket client speaking the table's protocol."""

    def __init__(self, url: str):
        from websockets.sync.client import connect

        # entered as a context (closed by close()): websockets 17 warns about a bare connect()
        # close_timeout: a socket the server closed for flooding has hundreds of messages
        # queued before the client's closing frame; the client need not wait long for
        # the server to read through them (the default is 10 s)
        self.ws = connect(url, open_timeout=TIMEOUT, close_timeout=2, max_size=None).__enter__()
        self.state: dict[str, Any] | None = None     # the last state received, its log made whole
        self.raw: dict[str, Any] | None = None       # ... and as it was sent (the new log lines only)
        self.log: list[dict[str, Any]] = []          # the log lines received, as a page holds them

    def send(self, message: Any) -> None:
        self.ws.send(message if isinstance(message, (str, bytes)) else json.dumps(message))

    def recv(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next message (a state is also kept in ``.state``).  A state
        carries the log lines from ``log_from`` on; they replace this
        client's lines from there, and the state returned holds the whole
        log, without ``log_from``, as a page draws it."""
        msg = json.loads(self.ws.recv(timeout=timeout))
        if msg.get("type") == "state":
            self.raw = msg
            assert 0 <= msg["log_from"] <= len(self.log), f"log lines from {msg['log_from']}, {len(self.log)} held"
            self.log = self.log[:msg["log_from"]] + msg["log"]
            msg = {k: v for k, v in msg.items() if k != "log_from"}
            msg["log"] = list(self.log)
            self.state = msg
        return msg

    def next_state(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        msg = self.recv(timeout)
        assert msg["type"] == "state", msg
        return msg

    def next_error(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        msg = self.recv(timeout)
        assert msg["type"] == "error", msg
        return msg

    def hello(self, token: str) -> dict[str, Any]:
        self.send({"type": "hello", "token": token})
        return self.next_state()

    def act(self, action: dict[str, Any], step: int) -> None:
        self.send({"type": "act", "action": action, "step": step})

    def until(self, predicate, timeout: float = TIMEOUT) -> dict[str, Any]:
        """Read states until one satisfies ``predicate``; it is returned."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"no state such as asked within {timeout} s; last: {self.state}"
            msg = self.recv(left)
            if msg["type"] == "state" and predicate(msg):
                return msg

    def close_code(self, timeout: float = TIMEOUT) -> int | None:
        """The code with which the server closes this socket (reading what
        is still sent), or ``None`` if it is still open after ``timeout``."""
        from websockets.exceptions import ConnectionClosed

        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                self.ws.recv(timeout=deadline - time.monotonic())
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd is not None else 1006
        except TimeoutError:
            return None
        return None

    def closed(self, timeout: float = TIMEOUT) -> bool:
        return self.close_code(timeout) is not None

    def close(self) -> None:
        self.ws.close()


def free_socket() -> socket.socket:
    """A socket bound to a free localhost port (handed to uvicorn: no race for the port)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


@contextlib.contextmanager
def serve(paths: list[str | Path] | None = None, db: str | Path | None = None,
          agent_delay: float = 0.0) -> Iterator[Server]:
    """A server on a free localhost port for the duration of the ``with``:
    ``paths`` the rule files (default Regicide), ``db`` its SQLite file
    (default a new one in a temporary folder)."""
    import uvicorn

    from rulekit.web.app import create_app
    from rulekit.web.limits import MAX_FRAME_BYTES

    with tempfile.TemporaryDirectory() as tmp:
        db_path = Path(db) if db is not None else Path(tmp) / "matches.sqlite3"
        app = create_app([str(p) for p in (paths or [REGICIDE])], db=db_path, agent_delay=agent_delay)
        sock = free_socket()
        port = sock.getsockname()[1]
        config = uvicorn.Config(app, log_level="warning", ws_max_size=MAX_FRAME_BYTES, lifespan="on")
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        deadline = time.monotonic() + TIMEOUT
        while not server.started:
            assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.01)
        try:
            yield Server(f"http://127.0.0.1:{port}", app, db_path)
        finally:
            server.should_exit = True
            thread.join(TIMEOUT)
            sock.close()
            assert not thread.is_alive(), "the server did not stop"
