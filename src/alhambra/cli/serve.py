"""``alhambra serve``, ``db upgrade`` and ``loadtest``: the table server and its tools."""

from __future__ import annotations

import json
import os
from typing import Annotated, Any

import typer
from rich.text import Text

from .common import (
    app,
    console,
    fail,
)


@app.command()
def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option("--database-url", help="SQLAlchemy URL (default: a SQLite file in your user data directory)."),
    ] = None,
    bot_delay: Annotated[float, typer.Option("--bot-delay", help="Seconds a bot waits before each move.")] = 0.6,
    hint_seconds: Annotated[
        float, typer.Option("--hint-seconds", help="Seconds the strongest bot searches for one hint (tables that allow hints).")
    ] = 2.0,
    request_timeout: Annotated[
        float,
        typer.Option(
            "--request-timeout", help="Seconds a client has to send a request's head, and again its body; slower ones are cut off."
        ),
    ] = 10.0,
    create_rate: Annotated[
        float, typer.Option("--create-rate", help="Tables one client address may create per minute (429 beyond).")
    ] = 20.0,
    bot_workers: Annotated[
        int | None,
        typer.Option("--bot-workers", help="Processes for searching bots (mcts levels); default: the number of CPU cores."),
    ] = None,
    max_bot_tables: Annotated[
        int, typer.Option("--max-bot-tables", help="Tables with only bots that may play at once (each only while watched).")
    ] = 2,
    evict_after: Annotated[
        float, typer.Option("--evict-after", help="Seconds an unwatched, unused table stays in memory (it stays in the database).")
    ] = 600.0,
    expire_waiting: Annotated[
        float, typer.Option("--expire-waiting", help="Seconds a table may wait for its players before it is deleted.")
    ] = 24 * 3600.0,
    expire_idle: Annotated[
        float, typer.Option("--expire-idle", help="Seconds an unfinished game may go without a move before it is deleted.")
    ] = 30 * 24 * 3600.0,
    ws_per_address: Annotated[
        int, typer.Option("--ws-per-address", help="Live WebSockets one client address may hold (closed with 4429 beyond).")
    ] = 200,
    ws_per_table: Annotated[
        int, typer.Option("--ws-per-table", help="Live WebSockets on one table, spectators included (4429 beyond).")
    ] = 500,
    ws_idle: Annotated[
        float, typer.Option("--ws-idle", help="Seconds a WebSocket may go with nothing sent either way before it is closed (4408).")
    ] = 900.0,
    redis_url: Annotated[
        str | None,
        typer.Option(
            "--redis-url",
            help="Redis that links several server processes over one database (live updates, bot claims, shared limits).",
        ),
    ] = None,
    redis_prefix: Annotated[str, typer.Option("--redis-prefix", help="Prefix of this site's Redis keys and channel.")] = "alhambra",
    workers: Annotated[
        int,
        typer.Option("--workers", help="Server processes on this port (more than 1 needs a PostgreSQL --database-url and --redis-url)."),
    ] = 1,
) -> None:
    """Run the table server: play in the browser, invite people, seat bots (JSON API at /docs)."""
    import uvicorn

    from ..server import create_app
    from ..server.db import default_database_url
    from ..server.limits import guarded_protocol

    if not 0 < port < 65536:
        fail("--port must be 1-65535")
    if bot_delay < 0:
        fail("--bot-delay must not be negative")
    if not 0 < hint_seconds <= 60:
        fail("--hint-seconds must be more than 0 and at most 60")
    if not request_timeout > 0:
        fail("--request-timeout must be positive")
    if not create_rate > 0:
        fail("--create-rate must be positive")
    if bot_workers is not None and not 1 <= bot_workers <= 64:
        fail("--bot-workers must be 1-64")
    if max_bot_tables < 0:
        fail("--max-bot-tables must not be negative")
    for option, value in (("--evict-after", evict_after), ("--expire-waiting", expire_waiting), ("--expire-idle", expire_idle)):
        if not value > 0:
            fail(f"{option} must be positive (seconds)")
    problem = _port_problem(host, port)
    if problem is not None:
        fail(problem)
    if not 1 <= ws_per_address <= 100_000 or not 1 <= ws_per_table <= 100_000:
        fail("--ws-per-address and --ws-per-table must be 1-100000")
    if not ws_idle > 0:
        fail("--ws-idle must be positive (seconds)")
    if not 1 <= workers <= 64:
        fail("--workers must be 1-64")
    if workers > 1 and not _is_postgresql(database_url):
        fail(
            "--workers above 1 needs a PostgreSQL --database-url (postgresql+psycopg://...): a SQLite file is "
            "one process's database (its writers lock the whole file), so serve it with one process"
        )
    if workers > 1 and not redis_url:
        fail("--workers above 1 needs --redis-url: the processes share live updates, bot moves and limits through Redis")
    if redis_url:
        problem = _redis_problem(redis_url)
        if problem is not None:
            fail(problem)
    url = database_url or default_database_url()
    settings: dict[str, Any] = {
        "database_url": url,
        "bot_delay": bot_delay,
        "hint_seconds": hint_seconds,
        "request_timeout": request_timeout,
        "create_rate": create_rate,
        "bot_workers": bot_workers,
        "max_bot_tables": max_bot_tables,
        "evict_after": evict_after,
        "expire_waiting": expire_waiting,
        "expire_idle": expire_idle,
        "ws_per_address": ws_per_address,
        "ws_per_table": ws_per_table,
        "ws_idle": ws_idle,
        "redis_url": redis_url,
        "redis_prefix": redis_prefix,
    }
    if workers > 1:
        _serve_workers(host, port, workers, settings)
        return
    try:
        application = create_app(
            url,
            bot_delay=bot_delay,
            request_timeout=request_timeout,
            create_rate=create_rate,
            bot_workers=bot_workers,
            max_bot_tables=max_bot_tables,
            evict_after=evict_after,
            expire_waiting=expire_waiting,
            expire_idle=expire_idle,
            ws_per_address=ws_per_address,
            ws_per_table=ws_per_table,
            ws_idle=ws_idle,
            redis_url=redis_url,
            redis_prefix=redis_prefix,
        )
    except Exception as e:  # a bad URL or an unreachable database
        fail(f"cannot open the database {url!r}: {' '.join(str(e).split())[:200]}")
    application.state.hints.seconds = hint_seconds  # the search time of a hint (create_app's hint_seconds)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    print(f"Alhambra table server: open http://{shown}:{port}/ in your browser", flush=True)
    print(f"  database: {_redact(url)}  (stop with Ctrl+C)", flush=True)
    uvicorn.run(application, host=host, port=port, log_level="info", ws_max_size=65536, http=guarded_protocol(request_timeout))


def _is_postgresql(url: str | None) -> bool:
    """True for a PostgreSQL database URL (``postgresql://``, ``postgresql+psycopg://``, ...)."""
    return bool(url) and str(url).split(":", 1)[0].split("+", 1)[0].lower() in ("postgresql", "postgres")


def _redis_problem(url: str) -> str | None:
    """Why Redis at ``url`` cannot be used (None: it answers)."""
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=5).ping()
    except Exception as e:
        return f"cannot reach Redis at {_redact(url)}: {' '.join(str(e).split())[:200]}"
    return None


def _serve_workers(host: str, port: int, workers: int, settings: dict[str, Any]) -> None:
    """``serve --workers N``: migrate once here, then N uvicorn worker processes on one port."""
    import json

    import uvicorn

    from ..server.db import Database
    from ..server.workers import ENV

    url = settings["database_url"]
    try:
        Database(url).close()  # the schema is upgraded once, before any worker opens it
    except Exception as e:
        fail(f"cannot open the database {_redact(url)}: {' '.join(str(e).split())[:200]}")
    os.environ[ENV] = json.dumps(settings)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    print(f"Alhambra table server: open http://{shown}:{port}/ in your browser", flush=True)
    print(f"  database: {_redact(url)}  redis: {_redact(settings['redis_url'])}  {workers} processes (stop with Ctrl+C)", flush=True)
    uvicorn.run(
        "alhambra.server.workers:app_from_env",
        factory=True,
        workers=workers,
        host=host,
        port=port,
        log_level="info",
        ws_max_size=65536,
        http="alhambra.server.limits:GuardedH11Protocol",
    )


def _port_problem(host: str, port: int) -> str | None:
    """Why ``serve`` cannot listen on ``host:port`` (a port in use, an address not of this
    machine), or None: a test bind before anything is printed or opened."""
    import errno
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except OSError:
        return f"cannot listen on {host!r}: not an address of this machine"
    family, kind, proto, _name, addr = infos[0]
    with socket.socket(family, kind, proto) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does: TIME_WAIT is no obstacle
        try:
            sock.bind(addr)
        except OSError as e:
            if e.errno == errno.EADDRINUSE:
                return f"port {port} is in use (stop the program using it, or choose another with --port)"
            if e.errno == errno.EACCES:
                return f"port {port} needs more privileges (choose one above 1023 with --port)"
            return f"cannot listen on {host}:{port}: {e.strerror or e}"
    return None


def _redact(url: str) -> str:
    """A database URL without its password."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "(unreadable URL)"


db_app = typer.Typer(name="db", help="The table server's database: schema migrations.", no_args_is_help=True)
app.add_typer(db_app)


@db_app.command("upgrade")
def db_upgrade(
    database_url: Annotated[
        str | None,
        typer.Option("--database-url", help="SQLAlchemy URL (default: the SQLite file `alhambra serve` uses)."),
    ] = None,
) -> None:
    """Migrate the server's database to the newest schema (the server also does it when it starts)."""
    from sqlalchemy import create_engine

    from ..server.db import default_database_url
    from ..server.migrate import upgrade

    url = database_url or default_database_url()
    try:
        engine = create_engine(url)
        try:
            before, now = upgrade(engine)
        finally:
            engine.dispose()
    except Exception as e:
        fail(f"cannot upgrade the database {_redact(url)}: {' '.join(str(e).split())[:200]}")
    if before == now:
        print(f"{_redact(url)}: already at revision {now}")
    else:
        print(f"{_redact(url)}: upgraded from {before or 'an empty database'} to revision {now}")


@app.command()
def loadtest(
    tables: Annotated[int, typer.Option("--tables", "-n", help="Concurrent tables (every seat a bot client).")] = 50,
    players: Annotated[int, typer.Option("--players", "-p", help="Seats per table (2-6).")] = 2,
    actions: Annotated[int, typer.Option("--actions", "-a", help="Actions per table (bounded run).")] = 40,
    pace: Annotated[float, typer.Option("--pace", help="Seconds each table's bot waits between actions.")] = 0.5,
    duration: Annotated[float, typer.Option("--max-seconds", help="Stop after this many seconds at most.")] = 300.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
    fairness: Annotated[
        int | None,
        typer.Option(
            "--fairness",
            help="Instead: play a person table against a random bot on the idle server, then beside N watched "
            "all-bot mcts:hard tables, and compare its bot replies (--actions person actions per phase).",
        ),
    ] = None,
    workers: Annotated[
        int | None, typer.Option("--workers", help="Instead: serve with N processes over --database-url and --redis-url (docs/server.md).")
    ] = None,
    database_url: Annotated[str | None, typer.Option("--database-url", help="With --workers: the (PostgreSQL) database to serve.")] = None,
    redis_url: Annotated[str | None, typer.Option("--redis-url", help="With --workers: the Redis linking the processes.")] = None,
    kill_after: Annotated[
        float | None, typer.Option("--kill-after", help="With --workers: SIGKILL one server process this many seconds into the run.")
    ] = None,
    watchers: Annotated[
        int, typer.Option("--watchers", help="With --workers: spectator WebSockets more, from several loopback addresses.")
    ] = 0,
) -> None:
    """Start a server on a loopback port with a fresh database, play N concurrent bot tables through
    the API and WebSockets, and report latency from each action to every seat's update."""
    from ..server.loadtest import run_fairness, run_loadtest

    if workers is not None or redis_url is not None:
        from ..server.loadscale import run_scale_loadtest

        if not (database_url and redis_url):
            fail("--workers needs --database-url (PostgreSQL) and --redis-url: the processes share them")
        if (workers or 1) > 1 and not _is_postgresql(database_url):
            fail("--workers above 1 needs a PostgreSQL --database-url: a SQLite file is one process's database")
        if not 1 <= (workers or 1) <= 16 or not 0 <= watchers <= 5000 or not 1 <= tables <= 1000:
            fail("--workers must be 1-16, --watchers 0-5000, --tables 1-1000")
        got = run_scale_loadtest(
            database_url,
            redis_url,
            workers or 1,
            tables,
            players,
            actions,
            pace,
            duration,
            bots=True,
            kill_after=kill_after,
            watchers=watchers,
        )
        if as_json:
            print(json.dumps(got, indent=2))
        else:
            for k, v in got.items():
                print(f"{k}: {v:.1f}" if isinstance(v, float) else f"{k}: {v}")
        return

    if fairness is not None:
        if not 0 <= fairness <= 20:
            fail("--fairness must be 0-20 all-bot tables")
        if actions < 1 or duration <= 0:
            fail("--actions must be at least 1 and --max-seconds positive")
        fair = run_fairness(fairness, actions=actions, max_seconds=duration)
        if as_json:
            print(json.dumps(fair))
            return
        con = console()
        con.print(Text(f"person table vs a random bot, idle and beside {fairness} watched all-bot mcts:hard tables", style="bold"))
        for phase in ("idle", "loaded"):
            f = fair[phase]
            con.print(
                f"{phase:>6}: {f['actions']} actions, {f['bot_replies']} bot replies; bot reply p50 {f['bot_reply_p50_ms']:.1f} ms, "
                f"p99 {f['bot_reply_p99_ms']:.1f} ms; action to update p50 {f['update_p50_ms']:.1f} ms, p99 {f['update_p99_ms']:.1f} ms"
            )
        con.print(
            f" ratio: bot reply p50 {fair['bot_reply_p50_ratio']:.2f}x, p99 {fair['bot_reply_p99_ratio']:.2f}x; "
            f"update p50 {fair['update_p50_ratio']:.2f}x, p99 {fair['update_p99_ratio']:.2f}x (loaded / idle)"
        )
        for failure in fair["failures"]:
            con.print(Text(f"failure: {failure}", style="bold red"))
        return

    if not 1 <= tables <= 2000:
        fail("--tables must be 1-2000")
    if not 2 <= players <= 6:
        fail("--players must be 2-6")
    if actions < 1 or pace < 0 or duration <= 0:
        fail("--actions must be at least 1, --pace at least 0 and --max-seconds positive")
    result = run_loadtest(tables=tables, players=players, actions=actions, pace=pace, max_seconds=duration)
    if as_json:
        print(json.dumps(result))
        return
    con = console()
    con.print(
        Text(
            f"{result['tables']} tables x {result['players']} seats, {result['actions']} actions in {result['seconds']:.1f} s "
            f"({result['actions_per_s']:.0f} actions/s)",
            style="bold",
        )
    )
    con.print(
        f"latency from sending an action to the last seat's update: p50 {result['p50_ms']:.1f} ms, "
        f"p99 {result['p99_ms']:.1f} ms, max {result['max_ms']:.1f} ms; refused actions: {result['errors']}"
    )
    for failure in result["failures"]:
        con.print(Text(f"failure: {failure}", style="bold red"))
