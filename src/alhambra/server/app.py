"""The ASGI app: JSON API, WebSocket live updates and the browser table.

:func:`create_app` builds a FastAPI app over one database. The API is documented at
``/openapi.json`` (and browsable at ``/docs``); see ``docs/server.md`` for the protocol.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import inspect
import json
import logging
import math
import re
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from dataclasses import asdict
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

import anyio
from fastapi import Depends, FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..companion import TableError, parse_table, score_table
from ..companion.catalogue import companion_catalogue
from ..errors import ConfigError
from ..hooks import Module, available_modules, load_module
from ..layout import LayoutError, decode_json, score_layout
from ..rulesets import game_ids, ruleset
from ..state import GameConfig
from ..view import catalogue
from .botpool import DEFAULT_MAX_BOT_TABLES, BotPool
from .conns import DEFAULT_WS_IDLE, DEFAULT_WS_PER_ADDRESS, DEFAULT_WS_PER_TABLE, Connections
from .db import Database, default_database_url
from .janitor import DEFAULT_EVICT_AFTER, DEFAULT_EXPIRE_IDLE, DEFAULT_EXPIRE_WAITING, Janitor
from .limits import DEFAULT_CREATE_RATE, DEFAULT_REQUEST_TIMEOUT, MAX_BODY, BodyLimit, RateLimit
from .scale import Coordinator, RedisConnections, RedisRateLimit
from .service import BOT_LEVELS, SeatSpec, ServiceError, Snapshot, Table, TableService, message

__all__ = ["create_app"]

log = logging.getLogger("alhambra.server")

MAX_WS_MESSAGE = 16 * 1024
"""Largest WebSocket message a client may send, in characters (docs/server.md, Limits)."""
WS_SEND_TIMEOUT = 30.0
"""Seconds one update may take to be sent before the client counts as not reading (4408)."""
STATIC = Path(str(resources.files("alhambra.server") / "static"))
SWAGGER_ASSETS = Path(str(resources.files("fastapi_offline") / "static"))
"""Swagger UI and ReDoc, shipped inside a Python package (fastapi-offline): /docs needs no CDN."""

UI_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".webp": "image/webp",
    ".gif": "image/gif",
    ".woff2": "font/woff2",
}
"""Files a module's front-end folder may serve, by suffix, with their content types."""

_UI_PART = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}")


def module_ui_dir(module: Module) -> Path:
    """The front-end folder of a module: ``ui/`` next to the file that defines its class
    (``src/alhambra/modules/<id>/ui/`` for the built-in modules)."""
    return Path(inspect.getfile(type(module))).resolve().parent / "ui"


def module_ui_file(module_id: str, path: str) -> Path | None:
    """The file ``path`` of a module's ``ui/`` folder, or None: unknown module, a name with
    anything but plain segments (no ``..``, no hidden files, no backslashes), a suffix not in
    :data:`UI_TYPES`, or no such file inside the folder."""
    if module_id not in available_modules():
        return None
    parts = path.split("/")
    if not path or len(parts) > 4 or not all(_UI_PART.fullmatch(p) and ".." not in p for p in parts):
        return None
    if Path(parts[-1]).suffix.lower() not in UI_TYPES:
        return None
    try:
        root = module_ui_dir(load_module(module_id)).resolve()
    except (ConfigError, TypeError, OSError):  # pragma: no cover - a broken third-party module serves nothing
        return None
    target = root.joinpath(*parts).resolve()
    if not target.is_relative_to(root) or not target.is_file():
        return None
    return target


# ---------------------------------------------------------------------------------- schemas
class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class SeatRequest(_Strict):
    """One seat of a new table: a person (gets an invitation link) or a bot with a level."""

    kind: Literal["person", "bot"]
    bot: str | None = Field(default=None, max_length=32, description="Bot level, one of GET /api/bots (bots only).")
    name: str | None = Field(default=None, max_length=40)
    open: bool = Field(
        default=False,
        description="A person seat left open for strangers (public tables only): it has no invitation link, and an anonymous "
        "join takes it; the other person seats stay the creator's to hand out.",
    )


class CreateTableRequest(_Strict):
    """A new table: 2-6 seats, Big Box modules by id (GET /api/modules)."""

    seats: list[SeatRequest] = Field(min_length=2, max_length=6)
    modules: list[str] = Field(default_factory=list, max_length=26)
    options: dict[str, dict[str, bool | int | str]] = Field(
        default_factory=dict,
        description="Module options as {module id: {option key: value}} (GET /api/modules lists every module's options).",
    )
    name: str | None = Field(default=None, max_length=40)
    public: bool = Field(default=False, description="Listed among the open tables; anyone may take a free seat.")
    hints: bool = Field(
        default=False, description="The seats may ask what the strongest bot would play (GET .../hint); private tables only (422)."
    )
    game: str = Field(default="alhambra", max_length=40, description="The game of the family: alhambra or granada (GET /api/games).")


class SeatLink(BaseModel):
    """A seat of a newly created table; persons get their secret token and invitation link."""

    seat: int
    kind: str
    name: str | None
    token: str | None = None
    invite_url: str | None = None


class CreateTableResponse(BaseModel):
    """The new table with one secret invitation link per person seat."""

    table: dict[str, Any]
    seats: list[SeatLink]
    spectator_url: str
    creator_token: str = Field(description="Deletes the table before it starts: DELETE /api/tables/{id} with this as Bearer token.")


class JoinRequest(_Strict):
    """Take a seat (optionally with a name shown to everyone)."""

    name: str | None = Field(default=None, max_length=40)


class JoinResponse(BaseModel):
    """The seat taken; ``token`` is set when a free seat of a public table was given out."""

    seat: int
    token: str | None = None
    invite_url: str | None = None
    table: dict[str, Any]


class ActionRequest(_Strict):
    """An action in text notation, chosen on the state ``version`` the client saw."""

    action: str = Field(min_length=1, max_length=200, examples=["take b3+g2", "buy 2 b7+b2", "place G8sw 1,-2"])
    version: int = Field(ge=0, le=10**9)


class UndoRequest(_Strict):
    """Take back your last move of this turn, chosen on ``version``."""

    version: int = Field(ge=0, le=10**9)


class Accepted(BaseModel):
    """The new version after an accepted action or undo."""

    version: int
    status: str


class ModuleInfo(BaseModel):
    """A Big Box module that can be added to a table."""

    id: str
    title: str
    summary: str = Field(default="", description="What the module does, in one line.")
    description: str
    assumptions: list[str] = Field(description="Rule readings where the rulebook is silent.")
    component_assumptions: list[str] = Field(
        default_factory=list, description="Component facts that are unknown and assumed; non-empty: the module rests on assumptions."
    )
    ui: bool = Field(default=False, description="The module has a front-end plug-in: /modules/{id}/ui/ui.js.")
    ui_css: bool = Field(default=False, description="The plug-in has a style sheet: /modules/{id}/ui/ui.css.")
    options: list[dict[str, Any]] = Field(
        default_factory=list, description="The module's options: key, default (bool, int or str), description, choices."
    )
    games: list[str] = Field(default_factory=lambda: ["alhambra"], description="The games of the family it works with (GET /api/games).")


class BotInfo(BaseModel):
    """A bot level a seat can be given."""

    id: str
    label: str
    description: str


_bearer = HTTPBearer(auto_error=False, description="The seat's secret token from its invitation link.")


def _seat_token(creds: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]) -> str | None:
    return creds.credentials if creds is not None else None


Token = Annotated[str | None, Depends(_seat_token)]
"""The seat token of a request (``Authorization: Bearer <token>``), or None."""


# ---------------------------------------------------------------------------------- websocket hub
class _Subscriber:
    def __init__(self, ws: WebSocket, table: Table, seat: int | None, since: tuple[int, int] | None) -> None:
        self.ws = ws
        self.table = table
        self.seat = seat
        self.since = since
        self.last: Snapshot | None = None
        self.dirty = asyncio.Event()
        self.dirty.set()
        self.active = time.monotonic()
        """When something last went either way on this socket (idle sockets are closed)."""

    def touch(self) -> None:
        """Something was sent or received just now."""
        self.active = time.monotonic()


class Hub:
    """Who watches which table; pushes each subscriber its own message after every change."""

    def __init__(self) -> None:
        self.subs: dict[str, set[_Subscriber]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self._closing: set[asyncio.Future[None]] = set()

    def _soon(self, fn: Callable[[str], None], table_id: str) -> None:
        """Run ``fn(table_id)`` on the event loop, from any thread (nothing once it closed)."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(fn, table_id)

    def changed_threadsafe(self, table_id: str) -> None:
        """Service listener (any thread)."""
        self._soon(self._changed, table_id)

    def _changed(self, table_id: str) -> None:
        for sub in self.subs.get(table_id, ()):
            sub.dirty.set()

    def gone_threadsafe(self, table_id: str) -> None:
        """Service gone-listener (any thread): close every socket on a deleted table (4410)."""
        self._soon(self._gone, table_id)

    def _gone(self, table_id: str) -> None:
        for sub in list(self.subs.get(table_id, ())):
            task = asyncio.ensure_future(_ws_close(sub.ws, 410, "this table was deleted"))
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)

    def watched(self, table_id: str) -> bool:
        """Someone has a WebSocket open on this table."""
        return bool(self.subs.get(table_id))

    def add(self, sub: _Subscriber) -> None:
        """Register a subscriber."""
        self.subs.setdefault(sub.table.id, set()).add(sub)

    def remove(self, sub: _Subscriber) -> None:
        """Forget a subscriber."""
        got = self.subs.get(sub.table.id)
        if got is not None:
            got.discard(sub)
            if not got:
                del self.subs[sub.table.id]

    async def sender(self, sub: _Subscriber) -> None:
        """Send the subscriber the newest snapshot whenever the table changed (bursts coalesce)."""
        while True:
            await sub.dirty.wait()
            sub.dirty.clear()
            snap = sub.table.snap
            if snap is sub.last:
                continue
            key = ("json", sub.seat, sub.since if sub.since and sub.since[0] == snap.epoch else None)
            text = snap.cache.get(key)
            if text is None:
                try:
                    text = json.dumps(message(sub.table, snap, sub.seat, sub.since), separators=(",", ":"))
                except Exception:  # a bug must not silence the table for this client
                    log.exception("table %s: cannot build the message for seat %s", sub.table.id, sub.seat)
                    continue
                snap.cache[key] = text
            try:
                await asyncio.wait_for(sub.ws.send_text(text), WS_SEND_TIMEOUT)
            except TimeoutError:  # the client does not read: free the socket and its buffers
                log.info("table %s: closing a WebSocket that has not read its updates for %g s", sub.table.id, WS_SEND_TIMEOUT)
                await _ws_close(sub.ws, 408, f"closed: this connection did not read its updates for {WS_SEND_TIMEOUT:g} s")
                return
            sub.touch()
            sub.last = snap
            sub.since = (snap.epoch, snap.n_events)

    async def watchdog(self, sub: _Subscriber, idle: float) -> None:
        """Close the socket (4408) once nothing went either way for ``idle`` seconds."""
        while True:
            left = sub.active + idle - time.monotonic()
            if left > 0:
                await asyncio.sleep(min(left, 60.0))
                continue
            log.info("table %s: closing a WebSocket idle for %g s", sub.table.id, idle)
            await _ws_close(sub.ws, 408, f"closed after {idle:g} s without activity; reconnect to go on")
            return


# ---------------------------------------------------------------------------------- app
def create_app(
    database_url: str | None = None,
    bot_delay: float = 0.6,
    hint_seconds: float = 2.0,
    start_bots: bool = True,
    request_timeout: float = DEFAULT_REQUEST_TIMEOUT,
    create_rate: float = DEFAULT_CREATE_RATE,
    bot_workers: int | None = None,
    max_bot_tables: int = DEFAULT_MAX_BOT_TABLES,
    evict_after: float = DEFAULT_EVICT_AFTER,
    expire_waiting: float = DEFAULT_EXPIRE_WAITING,
    expire_idle: float = DEFAULT_EXPIRE_IDLE,
    housekeeping_interval: float | None = None,
    ws_per_address: int = DEFAULT_WS_PER_ADDRESS,
    ws_per_table: int = DEFAULT_WS_PER_TABLE,
    ws_idle: float = DEFAULT_WS_IDLE,
    redis_url: str | None = None,
    redis_prefix: str = "alhambra",
    migrate: bool = True,
) -> FastAPI:
    """The server app over ``database_url`` (default: a SQLite file in the user's data directory).

    ``hint_seconds`` is the search time of a hint (in a worker process: :mod:`.hints`).

    ``bot_delay`` is the pause (seconds) before each bot move so people can follow;
    ``request_timeout`` the seconds a client has to send a request body; ``create_rate`` the
    tables one client address may create per minute (429 beyond); ``bot_workers`` the search
    processes of the :class:`~alhambra.server.botpool.BotPool` (default: the CPU count) and
    ``max_bot_tables`` the all-bot tables playing at once; ``evict_after``, ``expire_waiting``
    and ``expire_idle`` (seconds) drive the :class:`~alhambra.server.janitor.Janitor`, which runs
    every ``housekeeping_interval`` seconds. ``ws_per_address`` and ``ws_per_table`` cap the live
    WebSockets (:mod:`.conns`, close code 4429 beyond); ``ws_idle`` closes a socket with nothing
    sent either way for that many seconds (4408).

    ``redis_url`` joins this process to the others serving the same (PostgreSQL) database: live
    updates, bot-move claims, rate limits and WebSocket caps across processes
    (:mod:`.scale`, keys under ``redis_prefix``). ``migrate`` upgrades the schema on start.
    """
    creations: RateLimit | RedisRateLimit = RateLimit(create_rate)
    connections: Connections = Connections(ws_per_address, ws_per_table)
    from .hints import PUBLIC_REFUSED, HintBusy, HintPool, allow_hints, finish_hint, start_hint  # docs/server.md: Hints
    from .replay import REPLAY_UPLOADS_PER_MINUTE, table_replay, uploaded_replay

    hints = HintPool(hint_seconds)
    uploads: RateLimit | RedisRateLimit = RateLimit(REPLAY_UPLOADS_PER_MINUTE)  # a whole game each: a few a minute per client

    db = Database(database_url or default_database_url(), migrate=migrate)
    service = TableService(db)
    runner = BotPool(service, bot_delay, workers=bot_workers, max_bot_tables=max_bot_tables)
    coordinator: Coordinator | None = None
    if redis_url:
        coordinator = Coordinator(redis_url, redis_prefix)
        coordinator.attach(service)
        runner.claim = coordinator.bot_claim
        creations = RedisRateLimit(coordinator, "create", create_rate)
        uploads = RedisRateLimit(coordinator, "replay", REPLAY_UPLOADS_PER_MINUTE)
        connections = RedisConnections(coordinator, ws_per_address, ws_per_table)
    hub = Hub()
    service.listeners.append(hub.changed_threadsafe)
    service.gone_listeners.append(hub.gone_threadsafe)
    janitor = Janitor(
        service,
        lambda tid: hub.watched(tid) or runner.busy(tid),
        evict_after=evict_after,
        expire_waiting=expire_waiting,
        expire_idle=expire_idle,
        interval=housekeeping_interval,
    )

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        hub.loop = asyncio.get_running_loop()
        if coordinator is not None:
            coordinator.start()
        if start_bots:
            runner.start()
        ids = await anyio.to_thread.run_sync(service.recover)
        if ids:
            log.info("recovered %d unfinished tables", len(ids))
        janitor.start()
        try:
            yield
        finally:
            janitor.stop()
            runner.stop()
            hints.close()
            if coordinator is not None:
                coordinator.stop()
            hub.loop = None
            db.close()

    app = FastAPI(
        title="Alhambra table server",
        version="1.0",
        summary="Play Alhambra: tables, invitation links, bots, live updates.",
        description=(
            "Create a table, share one secret invitation link per seat, and play through this API "
            "or the browser table. A seat authenticates with `Authorization: Bearer <seat token>`. "
            "Actions are lines of the engine's notation, taken from the view's `legal_actions`, and "
            "carry the `version` they were chosen on; a stale version is refused with 409. "
            "Live updates: WebSocket `/ws/tables/{id}` (see docs/server.md)."
        ),
        lifespan=lifespan,
        docs_url=None,  # served below from the package's own Swagger UI files: /docs works offline
        redoc_url=None,
    )
    app.state.service = service
    app.state.runner = runner
    app.state.janitor = janitor
    app.state.hub = hub
    app.state.db = db
    app.state.hints = hints
    app.state.connections = connections
    app.state.coordinator = coordinator

    # ----- errors and limits
    @app.exception_handler(ServiceError)
    async def _service_error(_req: Request, exc: ServiceError) -> JSONResponse:
        return JSONResponse({"detail": exc.message}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_req: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        for err in exc.errors()[:5]:
            where = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
            parts.append(f"{where}: {err.get('msg', 'invalid')}" if where else str(err.get("msg", "invalid")))
        return JSONResponse({"detail": "invalid request: " + "; ".join(parts)}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_req: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"detail": str(exc.detail)}, status_code=exc.status_code, headers=getattr(exc, "headers", None))

    @app.middleware("http")
    async def _headers(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        response = await call_next(request)
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["X-Frame-Options"] = "DENY"
        if not request.url.path.startswith(("/docs", "/redoc")):
            response.headers["Content-Security-Policy"] = (
                "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self' ws: wss:"
            )
        return response

    app.add_middleware(BodyLimit, max_body=MAX_BODY, timeout=request_timeout)  # outermost: before anything reads the body

    async def run(fn: Callable[..., Any], *args: Any) -> Any:
        return await anyio.to_thread.run_sync(fn, *args)

    def need_seat(table_id: str, token: str | None) -> int:
        if token is None:
            raise ServiceError("this needs a seat token (Authorization: Bearer <token>)", 401)
        seat = service.seat_of(table_id, token)
        assert seat is not None
        return seat

    def base_url(request: Request) -> str:
        return str(request.base_url).rstrip("/")

    # ----- API
    @app.get("/api/health", tags=["server"])
    async def health() -> dict[str, Any]:
        """Liveness check, with this process's counters: bot moves played and dropped (an answer
        for a table that had moved on), and with Redis the process id, changes received from the
        other processes and bot or hint claims taken over from a process that stopped."""
        got: dict[str, Any] = {"ok": True, "bot_moves": runner.played, "bot_moves_dropped": runner.dropped}
        if coordinator is not None:
            got.update(process=coordinator.process, changes_received=coordinator.received, claims_taken_over=coordinator.takeovers)
        return got

    @app.get("/api/modules", response_model=list[ModuleInfo], tags=["catalogue"])
    async def modules() -> list[ModuleInfo]:
        """The Big Box modules a table may use: title, description, assumptions (rule readings),
        component assumptions (assumed component facts) and whether it has a front-end plug-in."""
        out = []
        for mid in available_modules():
            try:
                m = load_module(mid)
            except ConfigError:  # pragma: no cover - a broken third-party module is not offered
                continue
            ui = module_ui_dir(m)
            out.append(
                ModuleInfo(
                    id=mid,
                    title=m.title,
                    summary=m.summary,
                    description=m.description,
                    assumptions=list(m.assumptions),
                    component_assumptions=[str(a) for a in getattr(m, "component_assumptions", ())],
                    ui=(ui / "ui.js").is_file(),
                    ui_css=(ui / "ui.css").is_file(),
                    options=[asdict(o) for o in m.options],
                    games=list(m.games),
                )
            )
        return out

    @app.get("/api/companion", tags=["companion"])
    async def companion_route() -> dict[str, Any]:
        """What the "Score a real game" page needs: the games' kinds and scoring tables, and every
        module that takes part in scoring with its input fields, its facts, and whether it has a
        ``ui/companion.js`` that scores it in the browser (see docs/companion.md)."""
        data = companion_catalogue()
        for m in data["modules"]:
            m["script"] = (module_ui_dir(load_module(m["id"])) / "companion.js").is_file()
        return data

    @app.post("/api/score", tags=["companion"])
    async def score_route(request: Request) -> dict[str, Any]:
        """Score a round of a game played on a real table: the body is a table file (the input of
        ``alhambra score TABLE.json``); the answer its ``--json`` output. 422 with the reason for
        a table that cannot be read."""
        body = await request.body()  # at most MAX_BODY (BodyLimit)
        try:
            return score_table(parse_table(decode_json(body.decode("utf-8", "replace"), "the table"))).to_json()
        except (TableError, LayoutError) as e:
            raise ServiceError(str(e), 422) from None

    @app.post("/api/layout", tags=["companion"])
    async def layout_route(request: Request, game: Annotated[str, Query(max_length=40)] = "alhambra") -> dict[str, Any]:
        """Check one Alhambra laid out on a real table (the input and ``--json`` output of
        ``alhambra score LAYOUT.json``): the "Score a real game" page's tile grid reads its
        buildings and longest wall from the answer. 422 for a layout that cannot be read."""
        body = await request.body()  # at most MAX_BODY (BodyLimit)
        try:
            ruleset(game)
            return score_layout(decode_json(body.decode("utf-8", "replace"), "the layout"), game).to_json()
        except (LayoutError, ConfigError) as e:
            raise ServiceError(str(e), 422) from None

    @app.get("/api/bots", response_model=list[BotInfo], tags=["catalogue"])
    async def bots() -> list[BotInfo]:
        """The bot levels a seat can be given."""
        return [BotInfo(id=k, label=v[0], description=v[1]) for k, v in BOT_LEVELS.items()]

    @app.get("/api/games", tags=["catalogue"])
    async def games() -> list[dict[str, Any]]:
        """The games of the family a table can play (Alhambra, Granada), with their assumptions."""
        return [ruleset(g).describe() for g in game_ids()]

    @app.get("/api/catalogue", tags=["catalogue"])
    async def catalogue_route(
        players: Annotated[int, Query(ge=2, le=6)] = 2,
        modules: Annotated[str, Query(max_length=200)] = "",
        game: Annotated[str, Query(max_length=40)] = "alhambra",
    ) -> dict[str, Any]:
        """Static facts to draw a game: every tile and card by code, the game's kinds, the name of
        its walls, its marker and turn-over cost (see alhambra.view.catalogue)."""
        try:
            mods = tuple(m for m in modules.split(",") if m)
            for m in mods:
                load_module(m)
            return catalogue(GameConfig(players=players, modules=mods, game=game))
        except ConfigError as e:
            raise ServiceError(str(e), 422) from None

    @app.post("/api/tables", response_model=CreateTableResponse, status_code=201, tags=["tables"])
    async def create_table(body: CreateTableRequest, request: Request) -> CreateTableResponse:
        """Create a table and deal the game. Returns one secret invitation link per person seat
        (keep them: the server stores only their hashes). The game starts once every person has joined."""
        wait = await run(creations.take, request.client.host if request.client else "?")  # a Redis call with --redis-url
        if wait > 0:
            raise StarletteHTTPException(
                429,
                f"too many new tables from your address; try again in {math.ceil(wait)} s",
                headers={"Retry-After": str(math.ceil(wait))},
            )
        if body.hints and body.public:
            raise ServiceError(PUBLIC_REFUSED, 422)
        specs = [SeatSpec(s.kind, s.bot, s.name, s.open) for s in body.seats]
        options = tuple((m, k, v) for m, kv in body.options.items() for k, v in kv.items())
        creator_token = secrets.token_urlsafe(24)
        table, tokens = await run(service.create_table, specs, body.modules, body.name, body.public, options, creator_token, body.game)
        base = base_url(request)
        if body.hints:
            await run(allow_hints, service, table)
        seats = []
        for s in table.snap.seats:
            tok = tokens.get(s.seat)
            seats.append(
                SeatLink(
                    seat=s.seat,
                    kind=s.kind,
                    name=s.name,
                    token=tok,
                    invite_url=f"{base}/table/{table.id}#seat={tok}" if tok else None,
                )
            )
        return CreateTableResponse(table=table.info(), seats=seats, spectator_url=f"{base}/table/{table.id}", creator_token=creator_token)

    @app.delete("/api/tables/{table_id}", status_code=204, tags=["tables"])
    async def delete_table(table_id: str, token: Token) -> Response:
        """Delete a table before its game starts, with the ``creator_token`` returned on creation
        (401 without a token, 403 with another, 409 once started). Open WebSockets on it are
        closed with 4410."""
        await run(service.delete_table, table_id, token)
        return Response(status_code=204)

    @app.get("/api/tables", tags=["tables"])
    async def list_tables(which: Literal["open", "playing", "finished"] = "open") -> list[dict[str, Any]]:
        """Public tables: open (waiting for players), playing, or finished (newest first)."""
        got: list[dict[str, Any]] = await run(service.list_tables, which)
        return got

    @app.get("/api/tables/{table_id}", tags=["tables"])
    async def get_table(table_id: str) -> dict[str, Any]:
        """Public facts of a table: seats, status, version."""
        table: Table = await run(service.table, table_id)
        return table.info()

    @app.get("/api/tables/{table_id}/catalogue", tags=["catalogue"])
    async def table_catalogue(table_id: str) -> dict[str, Any]:
        """Static tile and card facts of this table's game."""
        table: Table = await run(service.table, table_id)
        return catalogue(table.config)

    @app.post("/api/tables/{table_id}/join", response_model=JoinResponse, tags=["play"])
    async def join(table_id: str, request: Request, token: Token, body: JoinRequest | None = None) -> JoinResponse:
        """Take your seat (with your token) or, without a token, a free seat of a public table
        (its fresh token is returned once)."""
        seat, new_token = await run(service.join, table_id, token, body.name if body else None)
        table = service.table(table_id)
        url = f"{base_url(request)}/table/{table_id}#seat={new_token}" if new_token else None
        return JoinResponse(seat=seat, token=new_token, invite_url=url, table=table.info())

    @app.post("/api/tables/{table_id}/rematch", tags=["play"])
    async def post_rematch(table_id: str, request: Request, token: Token) -> dict[str, Any]:
        """Play again (a player of a finished table, with their seat token): the same game,
        seats, names and bots, a fresh deal. The first request creates the table, later ones
        (the other players) get the same one; each gets their own new seat token and has
        joined (docs/server.md, "Rematch")."""
        from .rematch import rematch

        table, seat, new_token = await run(rematch, service, table_id, token)
        return {
            "table": table.info(),
            "seat": seat,
            "token": new_token,
            "url": f"{base_url(request)}/table/{table.id}#seat={new_token}",
        }

    @app.get("/api/tables/{table_id}/view", tags=["play"])
    async def get_view(
        table_id: str,
        token: Token,
        epoch: Annotated[int | None, Query(ge=0)] = None,
        events: Annotated[int | None, Query(ge=0, description="Number of events you already have (with epoch).")] = None,
    ) -> dict[str, Any]:
        """Your seat's view (with its legal actions when you are to act) or, without a token, the
        public view; plus the public event log (all of it, or only the new events when you pass
        the epoch and event count of your last view)."""
        seat = await run(service.seat_of, table_id, token)
        table = service.table(table_id)
        since = (epoch, events) if epoch is not None and events is not None else None
        return message(table, table.snap, seat, since)

    @app.post("/api/tables/{table_id}/actions", response_model=Accepted, tags=["play"])
    async def post_action(table_id: str, body: ActionRequest, token: Token) -> Accepted:
        """Play an action (notation from `legal_actions`) chosen on `version`. 409: stale
        version, not your turn, game not running; 422: an illegal or unreadable action."""
        seat = await run(need_seat, table_id, token)
        snap: Snapshot = await run(runner.for_person, service.submit, table_id, seat, body.action, body.version)
        return Accepted(version=snap.version, status=snap.status)

    @app.post("/api/tables/{table_id}/undo", response_model=Accepted, tags=["play"])
    async def post_undo(table_id: str, body: UndoRequest, token: Token) -> Accepted:
        """Take back your last move of this turn (only while it ended nothing and revealed nothing)."""
        seat = await run(need_seat, table_id, token)
        snap: Snapshot = await run(runner.for_person, service.undo, table_id, seat, body.version)
        return Accepted(version=snap.version, status=snap.status)

    @app.get("/api/tables/{table_id}/record", tags=["play"])
    async def get_record(table_id: str) -> dict[str, Any]:
        """The game record (configuration, seed, actions) once the game is over; 409 before."""
        got: dict[str, Any] = await run(service.record, table_id)
        return got

    @app.get("/api/tables/{table_id}/replay", tags=["replay"])
    async def get_replay(table_id: str, request: Request) -> Response:
        """Every position of a finished game with its moves in sentences, to step through (409
        before the end). See docs/server.md, "Replays"."""
        table: Table = await run(service.table, table_id)
        return _json(await run(table_replay, table), request)

    @app.post("/api/replay", tags=["replay"])
    async def post_replay(request: Request) -> Response:
        """Upload a game record file (as downloaded from `/api/tables/{id}/record` or written by
        `alhambra play --record`): its positions and moves, as for a finished table. 422 with
        the reason when it is not a record that replays; 429 beyond 30 files a minute per client."""
        wait = await run(uploads.take, request.client.host if request.client else "?")
        if wait > 0:
            seconds = math.ceil(wait)
            detail = f"too many record files from your address; try again in {seconds} s"
            raise StarletteHTTPException(429, detail, headers={"Retry-After": str(seconds)})
        raw = await request.body()
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
            raise ServiceError("this file is not JSON: choose a game record (.json) downloaded after a game", 422) from None
        return _json(await run(uploaded_replay, data), request)

    @app.get("/api/tables/{table_id}/hint", tags=["play"])
    async def get_hint(table_id: str, token: Token, version: Annotated[int, Query(ge=0, le=10**9)]) -> dict[str, Any]:
        """What the strongest bot would play now, from your seat's information only (searched in
        a worker process for `alhambra serve --hint-seconds`). Only at private tables whose
        creator allowed hints (403 otherwise); 409 for a stale version or when it is not your
        decision; 429 while a hint is being computed for this table."""
        seat = await run(need_seat, table_id, token)
        busy = StarletteHTTPException(
            429, "a hint is already being computed for this table; try again in a moment", headers={"Retry-After": "2"}
        )
        if coordinator is not None and not await run(coordinator.claim, "hint", table_id, hints.seconds + 60):
            raise busy  # another process computes one (taken over should that process die)
        try:
            try:
                fut = await run(start_hint, service, hints, table_id, seat, version)
            except HintBusy:
                raise busy from None
            try:
                action = await asyncio.wait_for(asyncio.wrap_future(fut), timeout=hints.seconds + 60)
            except Exception:
                log.exception("table %s: a hint failed", table_id)
                raise ServiceError("no hint could be computed just now; try again", 503) from None
            got: dict[str, Any] = await run(finish_hint, service, table_id, seat, version, action)
            return got
        finally:
            if coordinator is not None:
                await run(coordinator.release, "hint", table_id)

    # ----- WebSocket
    @app.websocket("/ws/tables/{table_id}")
    async def ws_table(ws: WebSocket, table_id: str) -> None:
        """Live table. Send ``{"type": "hello", "token": optional, "epoch": optional, "events": optional}``
        first; then you receive your message after every change and may send ``action``/``undo``."""
        await ws.accept()
        address = ws.client.host if ws.client else "?"
        refused = await run(connections.refusal, address, table_id)
        if refused is not None:
            await _ws_close(ws, 429, refused)
            return
        try:
            await _ws_session(ws, table_id)
        finally:
            await run(connections.release, address, table_id)

    async def _ws_session(ws: WebSocket, table_id: str) -> None:
        try:
            hello = await asyncio.wait_for(_receive(ws), timeout=15)
            if hello.get("type") != "hello":
                raise ServiceError("the first message must be a hello", 400)
            token = hello.get("token")
            if token is not None and not isinstance(token, str):
                raise ServiceError("the token must be a string", 400)
            seat = await run(service.seat_of, table_id, token)
            if coordinator is not None:  # a client back from a process that died: what was stored counts
                await run(service.refresh, table_id)
            table = service.table(table_id)
            ep, ev = hello.get("epoch"), hello.get("events")
            since = (ep, ev) if isinstance(ep, int) and isinstance(ev, int) else None
        except ServiceError as e:
            await _ws_close(ws, e.status, e.message)
            return
        except (TimeoutError, WebSocketDisconnect, _BadMessage) as e:
            await _ws_close(ws, 400, str(e) or "no hello received")
            return
        sub = _Subscriber(ws, table, seat, since)
        hub.add(sub)
        await run(runner.watch, table.id)
        sender = asyncio.create_task(hub.sender(sub))
        watchdog = asyncio.create_task(hub.watchdog(sub, ws_idle))
        try:
            while True:
                try:
                    msg = await _receive(ws)
                except _BadMessage as e:
                    sub.touch()
                    await ws.send_text(json.dumps({"type": "error", "status": 400, "detail": str(e)}))
                    continue
                sub.touch()
                await _ws_request(ws, msg, seat, table_id)
        except WebSocketDisconnect:
            pass
        except Exception as e:
            if _client_gone(ws, e):
                log.debug("table %s: the client closed its WebSocket while being answered", table_id)
            else:  # a bug must not end in a bare 1006: say so and close with 4500
                log.exception("table %s: WebSocket handler failed", table_id)
                await _ws_close(ws, 500, "internal error")
        finally:
            hub.remove(sub)
            runner.unwatch(table.id)
            for task in (sender, watchdog):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    async def _ws_request(ws: WebSocket, msg: dict[str, Any], seat: int | None, table_id: str) -> None:
        kind = msg.get("type")
        rid = msg.get("id")
        if not (rid is None or isinstance(rid, int | str)) or (isinstance(rid, str) and len(rid) > 64):
            rid = None
        reply: dict[str, Any]
        try:
            if kind == "ping":
                reply = {"type": "pong"}
            elif kind in ("action", "undo"):
                if seat is None:
                    raise ServiceError("spectators cannot play; open your invitation link", 403)
                version = msg.get("version")
                if not isinstance(version, int) or isinstance(version, bool):
                    raise ServiceError("send the version your move was chosen on", 422)
                if kind == "action":
                    text = msg.get("action")
                    if not isinstance(text, str):
                        raise ServiceError("the action must be a line of notation", 422)
                    snap = await run(runner.for_person, service.submit, table_id, seat, text, version)
                else:
                    snap = await run(runner.for_person, service.undo, table_id, seat, version)
                reply = {"type": "ack", "version": snap.version}
            else:
                raise ServiceError("unknown message type (send action, undo or ping)", 400)
        except ServiceError as e:
            reply = {"type": "error", "status": e.status, "detail": e.message}
        if rid is not None:
            reply["id"] = rid
        await ws.send_text(json.dumps(reply))

    # ----- browser table
    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/table/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/replay", include_in_schema=False)
    async def replay_upload_page() -> FileResponse:
        return FileResponse(STATIC / "replay.html")

    @app.get("/score", include_in_schema=False)
    async def score_page() -> FileResponse:
        return FileResponse(STATIC / "score.html")

    @app.get("/score-sw.js", include_in_schema=False)
    async def score_worker() -> FileResponse:
        """The service worker that keeps the scoring page working offline (scope ``/``)."""
        return FileResponse(STATIC / "score-sw.js", media_type=UI_TYPES[".js"], headers={"Cache-Control": "no-cache"})

    @app.get("/replay/{table_id}", include_in_schema=False)
    async def replay_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "replay.html")

    @app.get("/modules/{module_id}/ui/{path:path}", include_in_schema=False)
    async def module_ui(module_id: str, path: str) -> FileResponse:
        """A file of a module's front-end folder (``ui.js``, ``ui.css``, images): 404 otherwise."""
        target = await run(module_ui_file, module_id, path)
        if target is None:
            raise ServiceError("no such file", 404)
        return FileResponse(target, media_type=UI_TYPES[target.suffix.lower()], headers={"Cache-Control": "no-cache"})

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(STATIC / "icon.svg", media_type="image/svg+xml")

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui() -> Response:
        return get_swagger_ui_html(
            openapi_url="/openapi.json",
            title=f"{app.title}: API",
            swagger_js_url="/docs-assets/swagger-ui-bundle.js",
            swagger_css_url="/docs-assets/swagger-ui.css",
            swagger_favicon_url="/favicon.ico",
        )

    @app.get("/redoc", include_in_schema=False)
    async def redoc() -> Response:
        return get_redoc_html(
            openapi_url="/openapi.json", title=f"{app.title}: API", redoc_js_url="/docs-assets/redoc.standalone.js", with_google_fonts=False
        )

    app.mount("/docs-assets", StaticFiles(directory=SWAGGER_ASSETS), name="docs-assets")
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def _json(data: Any, request: Request) -> Response:
    """A large JSON answer (a replay), gzip-compressed when the client accepts it."""
    body = json.dumps(data, separators=(",", ":")).encode("utf-8")
    if "gzip" in request.headers.get("accept-encoding", "") and len(body) > 1024:
        headers = {"Content-Encoding": "gzip", "Vary": "Accept-Encoding"}
        return Response(gzip.compress(body, 6), media_type="application/json", headers=headers)
    return Response(body, media_type="application/json")


def _client_gone(ws: WebSocket, exc: BaseException) -> bool:
    """True when ``exc`` only says that the client already closed the socket (a client that sends
    a move and closes at once): nothing to log, nothing to answer."""
    from starlette.websockets import WebSocketState

    if isinstance(exc, WebSocketDisconnect | ConnectionError | OSError):
        return True
    gone = WebSocketState.DISCONNECTED
    if ws.client_state == gone or ws.application_state == gone:
        return True
    text = str(exc)
    return isinstance(exc, RuntimeError) and ("close message has been sent" in text or "after sending 'websocket.close'" in text)


class _BadMessage(Exception):
    """A WebSocket message that is not a small JSON object."""


async def _receive(ws: WebSocket) -> dict[str, Any]:
    raw: MutableMapping[str, Any] = await ws.receive()
    if raw["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(raw.get("code", 1000))
    text = raw.get("text")
    if text is None:
        data = raw.get("bytes") or b""
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise _BadMessage("messages must be UTF-8 JSON") from None
    if len(text) > MAX_WS_MESSAGE:
        raise _BadMessage(f"message too large (at most {MAX_WS_MESSAGE} characters)")
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, a number too long to convert, nesting too deep
        raise _BadMessage("messages must be JSON objects of plain values (no huge numbers, no deep nesting)") from None
    if not isinstance(msg, dict):
        raise _BadMessage("messages must be JSON objects")
    return msg


async def _ws_close(ws: WebSocket, status: int, detail: str) -> None:
    with contextlib.suppress(Exception):
        await ws.send_text(json.dumps({"type": "error", "status": status, "detail": detail}))
        await ws.close(code=4000 + status if 400 <= status < 600 else 1008)
