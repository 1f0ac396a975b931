"""Helpers for the browser tests (Playwright in Debian's Chromium) and the server-process tests.

* :class:`ServerProcess` runs ``alhambra serve`` in a subprocess on a free loopback port, with a
  fresh SQLite file, optionally with fixed random bits for its tables' deals.
* :data:`CHROMIUM`, :data:`CHROMIUM_ARGS`, :data:`needs_chromium` (a skip marker),
  :func:`launch` and :func:`chromium` start the browser; :func:`watch` collects the console's errors;
  :func:`served_page` gives a server and a watched page of a launched browser at once,
  :func:`served_table` a server and the joined pages of a table's person seats.
* :data:`ARTIFACTS` is the folder of the screenshots.
* :func:`version`, :func:`phase`, :func:`pending`, :func:`click`, :func:`wait_change`,
  :func:`dump` and :func:`check_buttons` read and drive the browser table; :func:`act` clicks
  and waits for the move (:func:`wait_moved`), :func:`wait_my_turn` for the page's turn.
* :func:`focused`, :func:`tab_to` and :func:`key` drive it by keyboard alone; :func:`doc_image`
  names the screenshots meant for the docs (``docs/images`` with ``ALHAMBRA_DOC_IMAGES=1``).
* :func:`new_pages` opens watched pages, :func:`open_table` sets up a table of person seats in
  the lobby and joins a page to each; :class:`ClickPlayer` plays those seats by clicks, as a
  person would (the base of the modules' browser tests), :class:`PagePlayer` is the base of a
  one-page player (what it saw, its buttons checked); :func:`click_core_move` is one step
  of a person's turn with the core's moves by clicks.
* Whole games as people play them: :func:`play_page` (one page's seat to the end),
  :func:`create_by_keyboard` and :func:`create_by_touch` (the lobby and the join dialog),
  :class:`KeyboardPlayer` (every move by keyboard alone), :class:`TouchPlayer` (by taps on a
  phone), :func:`check_end_screen`, :func:`replay_by_keyboard`, :func:`check_no_raw` (no
  notation in sight), :func:`wait_for` and :data:`NO_SIDEWAYS`.

Playwright is never imported here: a test imports ``playwright.sync_api`` itself (with
``pytest.importorskip``), so it is skipped cleanly when Playwright or Chromium is missing. The
page objects are typed ``Any`` for the same reason. Needs pytest (the ``dev`` extra).
"""

from __future__ import annotations

import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import Any, NoReturn

import httpx
import pytest

__all__ = [
    "ARTIFACTS",
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "NO_SIDEWAYS",
    "ClickPlayer",
    "DialogOpened",
    "KeyboardPlayer",
    "PagePlayer",
    "ServerProcess",
    "TouchPlayer",
    "act",
    "check_buttons",
    "check_confirmation",
    "check_end_screen",
    "check_no_raw",
    "chromium",
    "click",
    "click_core_move",
    "create_by_keyboard",
    "create_by_touch",
    "doc_image",
    "dump",
    "focused",
    "free_port",
    "joined_table",
    "key",
    "launch",
    "needs_chromium",
    "new_pages",
    "open_table",
    "pending",
    "phase",
    "play_page",
    "play_until",
    "press",
    "replay_by_keyboard",
    "served_page",
    "served_table",
    "steer_table",
    "tab_to",
    "version",
    "wait_change",
    "wait_for",
    "wait_moved",
    "wait_my_turn",
    "watch",
]

CHROMIUM = Path("/usr/bin/chromium")
"""Debian's Chromium, the browser of the tests."""
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
needs_chromium = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's chromium is not installed at /usr/bin/chromium (scripts/test installs it with apt-get)"
)
"""Skips a test (or, as ``pytestmark``, a test file) when :data:`CHROMIUM` is missing."""


def _project_root() -> Path:
    """The project folder (where pyproject.toml is), else the working directory."""
    for p in Path(__file__).resolve().parents:
        if (p / "pyproject.toml").exists():
            return p
    return Path.cwd()


ARTIFACTS = Path(os.environ.get("ALHAMBRA_ARTIFACTS", _project_root() / "artifacts")) / "screenshots"
"""Where the screenshots go: ``$ALHAMBRA_ARTIFACTS/screenshots``, else ``artifacts/screenshots``."""


def doc_image(name: str) -> Path:
    """The path of a screenshot for the docs: ``docs/images/<name>`` when the environment sets
    ``ALHAMBRA_DOC_IMAGES=1`` (to refresh the committed pictures), else ``ARTIFACTS/<name>``."""
    folder = _project_root() / "docs" / "images" if os.environ.get("ALHAMBRA_DOC_IMAGES") == "1" else ARTIFACTS
    folder.mkdir(parents=True, exist_ok=True)
    return folder / name


# ---------------------------------------------------------------------------- the server
def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


_SEEDED_SERVE = """
import random, secrets, sys
mode, n = sys.argv[1], int(sys.argv[2])
# fixed random bits for the tables (test only; the seat tokens still come from os.urandom)
secrets.randbits = random.Random(n).getrandbits if mode == "seed" else (lambda k: n % (1 << k))
from alhambra.cli import main
main(sys.argv[3:])
"""
"""Runs the command line with ``secrets.randbits`` replaced (the server draws each table's game
seed and its bots' seed from it)."""


class ServerProcess:
    """``alhambra serve`` in a subprocess on a loopback port, on the SQLite file ``db_file``.

    Ready when constructed (``/api/health`` answers); :meth:`stop` ends it with SIGTERM (SIGKILL
    if it hangs), :meth:`kill` with SIGKILL; a context manager stops it on exit. ``url`` is its
    address, ``http`` an :class:`httpx.Client` on it; its output goes to ``log_file`` (by default
    ``db_file`` with the suffix ``.log``).

    Fixed deals: with ``seed``, the server's ``secrets.randbits`` draws come from
    ``random.Random(seed)``, so the same tables are dealt every run; with ``constant_seed``,
    every draw is ``constant_seed`` (modulo ``2**k``): every table's game seed is that number.
    ``database_url`` replaces the SQLite file (``db_file`` then only names the log file).
    """

    def __init__(
        self,
        db_file: Path,
        port: int | None = None,
        bot_delay: float = 0.0,
        log_file: Path | None = None,
        *,
        seed: int | None = None,
        constant_seed: int | None = None,
        timeout: float = 30.0,
        extra_args: tuple[str, ...] = (),
        database_url: str | None = None,
    ) -> None:
        if seed is not None and constant_seed is not None:
            raise ValueError("give seed or constant_seed, not both")
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_file = log_file or db_file.with_suffix(".log")
        url = database_url or f"sqlite:///{db_file}"
        serve = ["serve", "--port", str(self.port), "--database-url", url, "--bot-delay", str(bot_delay), *extra_args]
        if seed is not None:
            cmd = [sys.executable, "-c", _SEEDED_SERVE, "seed", str(seed), *serve]
        elif constant_seed is not None:
            cmd = [sys.executable, "-c", _SEEDED_SERVE, "constant", str(constant_seed), *serve]
        else:
            cmd = [sys.executable, "-m", "alhambra", *serve]
        self._log = open(self.log_file, "ab")  # noqa: SIM115 - kept open for the process's lifetime
        self.proc = subprocess.Popen(cmd, stdout=self._log, stderr=subprocess.STDOUT, env=dict(os.environ, PYTHONUNBUFFERED="1"))
        self.http = httpx.Client(base_url=self.url, timeout=10)
        end = time.monotonic() + timeout
        while not self._up():
            if time.monotonic() > end:
                self.kill()
                raise AssertionError(f"the server did not start in {timeout} s")
            time.sleep(0.05)

    def _up(self) -> bool:
        if self.proc.poll() is not None:
            self.http.close()
            self._log.close()
            raise AssertionError(f"the server exited: {self.log_file.read_text()[-2000:]}")
        try:
            return self.http.get("/api/health").status_code == 200
        except httpx.HTTPError:
            return False

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        self.http.close()
        self._log.close()

    def stop(self) -> None:
        """SIGTERM and wait (graceful shutdown); SIGKILL after 15 s."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.http.close()
        self._log.close()

    def __enter__(self) -> ServerProcess:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()


# ---------------------------------------------------------------------------- the browser
def launch(pw: Any) -> Any:
    """Debian's Chromium, headless, from a started ``sync_playwright()``."""
    return pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)


def watch(page: Any, problems: list[str], prefix: str = "") -> None:
    """Append the page's console errors and warnings and its uncaught errors to ``problems``."""

    def console(m: Any) -> None:
        if m.type in ("error", "warning"):
            problems.append(f"{prefix}console {m.type}: {m.text}")

    page.on("console", console)
    page.on("pageerror", lambda e: problems.append(f"{prefix}page error: {e}"))


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium (:func:`launch`) in a started Playwright, closed on exit. Skips the
    test when Playwright is missing (it is imported here, on the call, never when this module is)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        browser = launch(pw)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def served_page(
    db_file: Path,
    problems: list[str],
    *,
    seed: int | None = None,
    bot_delay: float = 0.0,
    viewport: tuple[int, int] = (1280, 800),
    phone: bool = False,
) -> Iterator[tuple[ServerProcess, Any]]:
    """A :class:`ServerProcess` on ``db_file`` (fixed deals with ``seed``, the bots waiting
    ``bot_delay`` seconds before each move) and one page of a
    launched Chromium, ``viewport`` wide and high (``phone``: with touch, as a mobile), whose
    console errors go to ``problems``; both end on exit. Skips the test when Playwright is
    missing (it is imported here, on the call, never when this module is)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    width, height = viewport
    touch = {"has_touch": True, "is_mobile": True} if phone else {}
    with chromium() as browser, ServerProcess(db_file, bot_delay=bot_delay, seed=seed) as server:
        page = browser.new_page(viewport={"width": width, "height": height}, **touch)
        watch(page, problems)
        try:
            yield server, page
        finally:
            page.close()  # before the server stops: the page's next poll would fail and be a problem


@contextmanager
def served_table(
    folder: Path,
    problems: list[str],
    modules: tuple[str, ...],
    names: tuple[str, ...] = ("Ada", "Bo"),
    *,
    seed: int | None = None,
    constant_seed: int | None = None,
    count: int = 2,
    bots: tuple[str, ...] = (),
) -> Iterator[list[Any]]:
    """A :class:`ServerProcess` (its database and log in ``folder``; fixed deals with ``seed``
    or ``constant_seed``) and a table with ``modules`` of ``count`` person seats named
    ``names`` (then bot seats of the levels ``bots``), created in the lobby and joined, one page
    per seat (:func:`new_pages`, :func:`open_table`), given as the list of those pages; the
    browser and the server end on exit. Skips the test when Playwright is missing."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with chromium() as browser:
        server = ServerProcess(folder / "db.sqlite3", log_file=folder / "server.log", seed=seed, constant_seed=constant_seed)
        with server:
            pages = new_pages(browser, count, problems)
            try:
                open_table(pages, server.url, modules, names, bots)
                yield pages
            finally:
                for page in pages:  # before the server stops (a poll then would fail)
                    page.close()


def new_pages(browser: Any, count: int, problems: list[str]) -> list[Any]:
    """``count`` pages of ``browser`` (1400 x 1000), each :func:`watch`-ed into ``problems``."""
    pages = [browser.new_page(viewport={"width": 1400, "height": 1000}) for _ in range(count)]
    for page in pages:
        watch(page, problems)
    return pages


def open_table(
    pages: list[Any], url: str, modules: tuple[str, ...], names: tuple[str, ...] = ("Ada", "Bo"), bots: tuple[str, ...] = ()
) -> None:
    """In the lobby of the server at ``url`` (on ``pages[0]``): tick ``modules``, make one person
    seat per page named ``names[i]`` and then a bot seat of each level of ``bots`` (``random``,
    ``greedy``...), create the table, and join each page to its seat; returns once every page
    shows the table."""
    if len(names) < len(pages):
        raise ValueError(f"{len(pages)} pages need {len(pages)} names, not {names!r}")
    lobby = pages[0]
    lobby.goto(url + "/")
    for mid in modules:
        lobby.wait_for_selector(f".module[data-module='{mid}']")
        lobby.locator(f".module[data-module='{mid}'] input[type='checkbox']:not([data-option])").check()
    if len(pages) + len(bots) != 2:
        lobby.locator("#seat-count").select_option(str(len(pages) + len(bots)))
    for seat in range(len(pages)):
        row = lobby.locator(".seat-row").nth(seat)
        if seat:
            row.locator(".seat-kind").select_option("person")
        row.locator(".seat-name").fill(names[seat])
    for i, level in enumerate(bots):
        row = lobby.locator(".seat-row").nth(len(pages) + i)
        row.locator(".seat-kind").select_option("bot")
        row.locator(".seat-bot").select_option(level)
    lobby.locator("#btn-create").click()
    links = [str(lobby.locator(f".play-link[data-seat='{s}']").get_attribute("href")) for s in range(len(pages))]
    for page, link in zip(pages, links, strict=True):
        page.goto(link if link.startswith("http") else url + link)
        page.locator("#btn-join").click(timeout=10000)
    for page in pages:
        page.wait_for_selector("body[data-phase='my-turn'], body[data-phase='their-turn']", timeout=10000)


# ---------------------------------------------------------------------------- the table's page
def version(page: Any) -> str:
    """The table's version, as the page shows it (``body[data-version]``)."""
    return str(page.get_attribute("body", "data-version"))


def phase(page: Any) -> str:
    """``my-turn``, ``their-turn``, ``waiting``, ``over``... (``body[data-phase]``)."""
    return str(page.get_attribute("body", "data-phase"))


def pending(page: Any) -> str:
    """The kind of decision the table waits for (``body[data-pending]``; ``"None"`` if none)."""
    return str(page.get_attribute("body", "data-pending"))


def box(page: Any, selector: str, timeout: float = 5.0) -> dict[str, float]:
    """The bounding box of the first element of ``selector`` once it is visible (a live table
    re-renders as the bots move, and an element being replaced has no box for a moment)."""
    end = time.monotonic() + timeout
    while True:
        got = page.locator(selector).first.bounding_box()
        if got is not None:
            return dict(got)
        if time.monotonic() > end:
            raise AssertionError(f"{selector} is not visible after {timeout} s")
        page.wait_for_timeout(50)


def dump(page: Any, why: str, failure: str = "failure") -> None:
    """After a failure: a screenshot ``ARTIFACTS/<failure>.png`` and the table's state printed."""
    page.screenshot(path=str(ARTIFACTS / f"{failure}.png"), full_page=True)
    print("FAILURE", why, "phase", phase(page), "pending", pending(page), "version", version(page))
    print(page.locator("#action-panel").inner_text())


def click(page: Any, selector: str, failure: str | None = "failure") -> None:
    """Click the first element of ``selector`` (on a failure, :func:`dump` unless ``failure`` is None)."""
    try:
        page.locator(selector).first.click(timeout=5000)
    except Exception:
        if failure is not None:
            dump(page, f"click {selector}", failure)
        raise


def check_confirmation(page: Any) -> None:
    """The confirmation of a final move reads as a sentence: never the word "null" (issue 28:
    it showed in every "This ends your turn"). Called before every confirmation is clicked."""
    text = str(page.evaluate("() => (document.querySelector('#action-panel .staged') || {}).textContent || ''"))
    assert not re.search(r"\bnull\b", text), f"the confirmation says null: {text!r}"


def wait_change(page: Any, version: str, timeout: float = 15.0, confirm: bool = True, failure: str | None = "failure") -> None:
    """Wait until the table moved past ``version`` (or, with ``confirm``, until it asks to confirm
    the end of the turn); AssertionError after ``timeout`` seconds (after :func:`dump` unless
    ``failure`` is None)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if str(page.get_attribute("body", "data-version")) != version or (confirm and page.locator("#btn-confirm").count()):
            return
        page.wait_for_timeout(20)
    if failure is not None:
        dump(page, "no reaction", failure)
    raise AssertionError(f"the table did not react (still version {version})")


def wait_moved(page: Any, before: str, confirm: bool = True, timeout: float = 15.0, failure: str = "failure") -> None:
    """Wait until the table moved past the version ``before``; with ``confirm``, the
    confirmation the table asks for a final move is clicked (once). AssertionError (after
    :func:`dump` as ``failure``) after ``timeout`` seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if version(page) != before:
            return
        if confirm and page.locator("#btn-confirm").count():
            check_confirmation(page)
            page.locator("#btn-confirm").click(timeout=5000)
            confirm = False
            continue
        page.wait_for_timeout(15)
    dump(page, "no reaction", failure)
    raise AssertionError(f"the table did not react (still version {before})")


def act(page: Any, selector: str, failure: str = "failure") -> None:
    """Click the first ``selector`` and wait for the table's new version, confirming a final
    move when the table asks (:func:`wait_moved`)."""
    before = version(page)
    click(page, selector, failure)
    wait_moved(page, before, failure=failure)


def wait_my_turn(page: Any, at_version: int | None = None, timeout: float = 20.0) -> None:
    """Wait until the page waits for my decision (at the table version ``at_version`` when
    given), closing a scoring round's pop-up on the way."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if page.locator("#btn-close-modal").count():
            page.locator("#btn-close-modal").click(timeout=5000)
        if phase(page) == "my-turn" and (at_version is None or version(page) == str(at_version)):
            return
        page.wait_for_timeout(25)
    raise AssertionError(f"not my turn at version {at_version}: {phase(page)} {version(page)}")


def press(page: Any, selector: str, version: str, timeout: float = 15.0) -> None:
    """Click ``selector`` and wait for the table to react (:func:`wait_change`). The table redraws
    the whole page on every update and when a notice fades, so a click that falls on a redraw
    can be lost: if nothing happened after 5 s and the control is still there, it is clicked
    once more (a second click on a control that did react cannot happen: it is gone then)."""
    click(page, selector)
    try:
        wait_change(page, version, timeout=5.0, failure=None)
        return
    except AssertionError:
        if not page.locator(selector).count():
            raise
    click(page, selector)
    wait_change(page, version, timeout=timeout)


# ---------------------------------------------------------------------------- by keyboard
_FOCUSED_JS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return "body";
  const cls = (el.getAttribute("class") || "").trim().split(/\\s+/).filter(Boolean).join(".");
  const label = el.getAttribute("aria-label") || (el.textContent || "").trim().slice(0, 40);
  return `${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}${cls ? "." + cls : ""} "${label}"`;
}"""


def focused(page: Any) -> str:
    """The focused element, described: ``tag#id.classes "label"`` (``body`` when none)."""
    return str(page.evaluate(_FOCUSED_JS))


def _matches(page: Any, selector: str) -> bool:
    js = "(s) => { const el = document.activeElement; return Boolean(el && el !== document.body && el.matches(s)); }"
    return bool(page.evaluate(js, selector))


def _direction(page: Any, selector: str) -> str | None:
    """``Tab`` when the first visible ``selector`` comes after the focused element in the page
    (or nothing has focus), ``Shift+Tab`` when before it; None when there is none."""
    return page.evaluate(  # type: ignore[no-any-return]
        """(s) => {
          const target = [...document.querySelectorAll(s)].find((el) => el.getClientRects().length && !el.disabled);
          if (!target) return null;
          const el = document.activeElement;
          if (!el || el === document.body) return "Tab";
          return el.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_PRECEDING ? "Shift+Tab" : "Tab";
        }""",
        selector,
    )


def tab_to(page: Any, selector: str, limit: int = 60) -> int:
    """Press Tab (or Shift+Tab, whichever way ``selector`` lies from the focused element, as a
    person who sees the page would) until the focused element matches ``selector``; the number
    of presses. AssertionError when it is not reached in ``limit`` presses."""
    presses = 0
    while not _matches(page, selector):
        way = _direction(page, selector)
        if way is None or presses >= limit:
            raise AssertionError(f"cannot tab to {selector} ({presses} presses; focus on {focused(page)})")
        page.keyboard.press(way)
        presses += 1
    return presses


def key(page: Any, name: str, selector: str | None = None) -> None:
    """Press key ``name`` (``Enter``, ``Space``...), after checking that the focused element
    matches ``selector`` when one is given."""
    if selector is not None and not _matches(page, selector):
        raise AssertionError(f"focus is on {focused(page)}, not on {selector}")
    page.keyboard.press(name)


def check_buttons(page: Any, raw: re.Pattern[str], labels: bool = False) -> None:
    """No button's text (with ``labels``, nor its aria-label) matches ``raw`` (a module's
    notation) and no action is left without a proper control (the table's ``.other-move``
    fallback)."""
    if labels:
        script = "bs => bs.map((b) => `${b.getAttribute('aria-label') || ''} ${b.innerText}`)"
        texts = page.eval_on_selector_all("button", script)
    else:
        texts = page.locator("button").all_inner_texts()
    bad = [t for t in texts if raw.search(t)]
    assert not bad, f"buttons show raw notation: {bad}"
    assert page.locator(".other-move").count() == 0, "a module action was left without a proper control"


class PagePlayer:
    """Base of a test's player of one page: ``page``, ``rng``, what it did counted in ``seen``
    (a Counter shared between players when one is given) and :meth:`check_buttons` against the
    module's notation ``raw`` (with ``labels``, the buttons' aria-labels too)."""

    raw: re.Pattern[str] | None = None
    """The module's notation, which no button may show."""
    labels = False
    """Whether :meth:`check_buttons` reads the buttons' aria-labels too."""

    def __init__(self, page: Any, rng: random.Random, seen: Counter[str] | None = None) -> None:
        self.page = page
        self.rng = rng
        self.seen: Counter[str] = Counter() if seen is None else seen

    def saw(self, what: str) -> None:
        """Count one use of a control (or one sight of a situation)."""
        self.seen[what] += 1

    def check_buttons(self) -> None:
        """:func:`check_buttons` of the page against ``raw`` (nothing to check without it)."""
        if self.raw is not None:
            check_buttons(self.page, self.raw, self.labels)


class ClickPlayer:
    """Base of a module's Playwright player that plays the seats of a table by clicks, one page
    per seat (see :func:`open_table`); ``seen`` counts the module's controls used.

    Subclasses set ``module`` (names the screenshots ``<module>-<name>.png`` and the failure
    dump ``<module>-failure.png``), ``raw`` (the module's notation: no button may show it) and
    ``wanted`` (the controls to use, see :meth:`done`), and write :meth:`turn` (the page's move
    when the table waits for its action) and :meth:`decide` (the module's own decisions).
    :meth:`play` moves on whichever page may move until :meth:`done`.
    """

    module = "module"
    raw: re.Pattern[str] | None = None
    """The module's notation, which no button may show (checked before every move)."""
    wanted: tuple[str, ...] = ()
    """What :meth:`done` waits for: each counted in ``seen`` at least once."""
    to_reserve = 0.0
    """The chance that :meth:`place` puts a tile on the reserve board although it could be built."""

    def __init__(self, pages: list[Any], rng: random.Random) -> None:
        self.pages = pages
        self.rng = rng
        self.seen: Counter[str] = Counter()
        self.shots: list[Path] = []

    def saw(self, what: str) -> None:
        """Count one use of a control."""
        self.seen[what] += 1

    def wait_change(self, page: Any, before: str, confirm: bool = True) -> None:
        """Wait until the table moved past the version ``before``; a final move's confirmation is clicked."""
        wait_moved(page, before, confirm, failure=f"{self.module}-failure")

    def click(self, page: Any, selector: str, confirm: bool = True) -> None:
        """Click the first ``selector`` and wait for the table to react (with ``confirm``, a
        final move's confirmation is clicked)."""
        before = version(page)
        try:
            page.locator(selector).first.click(timeout=5000)
        except Exception:
            self.dump(page, f"click {selector}")
            raise
        self.wait_change(page, before, confirm)

    def tap(self, page: Any, selector: str) -> None:
        """Click the first ``selector`` without waiting for the table (a selection, which the
        table does not count as a move); on a failure, :meth:`dump`."""
        click(page, selector, f"{self.module}-failure")

    def take(self, page: Any, card: Any) -> bool:
        """Click the display card ``card`` (a locator) and take it; False when the table does
        not let it be taken alone (the selection is cleared then)."""
        card.click(timeout=5000)
        if page.locator("#btn-take").count():
            self.click(page, "#btn-take")
            return True
        self.tap(page, "#btn-clear")
        return False

    def dump(self, page: Any, why: str) -> None:
        """Screenshot and state after a failure."""
        dump(page, why, f"{self.module}-failure")

    def shot(self, page: Any, name: str) -> None:
        """A full-page screenshot ``<module>-<name>.png`` (listed in ``shots``)."""
        path = ARTIFACTS / f"{self.module}-{name}.png"
        page.screenshot(path=str(path), full_page=True)
        self.shots.append(path)

    def check_shots(self) -> None:
        """Every screenshot taken shows something (more than 10 kB)."""
        for path in self.shots:
            assert path.stat().st_size > 10_000, path

    @staticmethod
    def seat(page: Any) -> int:
        """The seat of the page's player (0-based)."""
        return int(str(page.get_attribute(".score-track li.me", "data-seat")))

    def done(self) -> bool:
        """True once every control of ``wanted`` was used."""
        return all(self.seen[w] for w in self.wanted)

    # ----- one move of the page whose turn it is
    def move(self, page: Any) -> None:
        """One move of ``page``, whose turn it is: close a round's scoring, check the buttons
        for ``raw`` notation, click a waiting confirmation, else answer the decision the table
        waits for: the module's own (:meth:`decide`), the placement of bought tiles
        (:meth:`place`) or the turn's action (:meth:`turn`); AssertionError for any other."""
        if page.locator(".modal-back").count():
            page.locator("#btn-close-modal").click(timeout=5000)
            return
        if self.raw is not None:
            check_buttons(page, self.raw)
        decision = pending(page)
        if page.locator("#btn-confirm").count():
            check_confirmation(page)
            self.click(page, "#btn-confirm", confirm=False)
        elif self.decide(page, decision):
            return
        elif decision == "PlaceTiles":
            self.place(page)
        elif decision == "ChooseAction":
            self.turn(page)
        else:
            self.dump(page, f"unexpected decision {decision}")
            raise AssertionError(f"no control for the decision {decision}")

    def decide(self, page: Any, decision: str) -> bool:
        """Answer the module's own decision ``decision`` (the pending's class name) on ``page``;
        False when it is not one of the module's (the default: none is)."""
        return False

    def place(self, page: Any) -> None:
        """Place the bought tiles: the first waiting tile on a random free spot of the Alhambra
        (on the reserve board with the chance ``to_reserve``), else on the reserve board."""
        if not page.locator(".waiting-tile.selected").count():
            page.locator(".waiting-tile").first.click(timeout=5000)
        spots = page.locator(".city.mine .spot")
        reserve = page.locator("#btn-reserve")
        before = version(page)
        if spots.count() and not (self.to_reserve and reserve.count() and self.rng.random() < self.to_reserve):
            spots.nth(self.rng.randrange(spots.count())).click(timeout=5000)
        else:
            reserve.click(timeout=5000)
        self.wait_change(page, before)

    def turn(self, page: Any) -> None:
        """The page's action when the table waits for one (``ChooseAction``)."""
        raise NotImplementedError(f"{type(self).__name__} plays no turn: write turn()")

    def pay_and_buy(self, page: Any, options: str = ".pay-option") -> None:
        """In the open payment picker: pick the exact way to pay of ``options`` if there is one,
        else the first, and buy."""
        exact = page.locator(f"{options}.exact")
        (exact if exact.count() else page.locator(options)).first.click(timeout=5000)
        self.click(page, "#btn-buy")

    def core_turn(self, page: Any, end: float = 0.6, buy: float = 0.85) -> None:
        """A turn with the core's moves only: end the turn when the table allows it (with
        chance ``end``), else buy a random affordable market square (chance ``buy``), else take
        a random money card, else end the turn; AssertionError when none is possible."""
        rng = self.rng
        if page.locator("#btn-end").count() and rng.random() < end:
            self.click(page, "#btn-end")
            return
        squares = page.locator(".market-square.affordable")
        if squares.count() and rng.random() < buy:
            squares.nth(rng.randrange(squares.count())).click(timeout=5000)
            self.pay_and_buy(page)
            return
        if self.take_random(page):
            return
        self.end_turn_or_fail(page)

    def take_random(self, page: Any) -> bool:
        """Take a random face-up card the table offers; False when it offers none."""
        cards = page.locator(".display-card.takeable")
        if not cards.count():
            return False
        cards.nth(self.rng.randrange(cards.count())).click(timeout=5000)
        self.click(page, "#btn-take")
        return True

    def end_turn_or_fail(self, page: Any) -> None:
        """End the turn when the table offers it, else :meth:`no_move`."""
        if page.locator("#btn-end").count():
            self.click(page, "#btn-end")
            return
        self.no_move(page)

    def no_move(self, page: Any) -> NoReturn:
        """The table offers no move although it is this page's turn: dump and AssertionError."""
        self.dump(page, "no move")
        raise AssertionError("the table offers no move although it is my turn")

    def play(self, seconds: float) -> None:
        """Move on whichever page may move until :meth:`done`, the game is over or ``seconds``
        have passed; AssertionError when no page may move for 15 s."""
        deadline = time.monotonic() + seconds
        idle = time.monotonic()
        while not self.done() and time.monotonic() < deadline:
            moved = False
            for page in self.pages:
                if phase(page) == "my-turn":
                    self.move(page)
                    moved = True
                elif phase(page) == "over":
                    deadline = 0
            if moved:
                idle = time.monotonic()
            elif time.monotonic() - idle > 15:
                self.dump(self.pages[0], f"nobody is to play: {[phase(p) for p in self.pages]}")
                raise AssertionError("neither page may move")
            else:
                self.pages[0].wait_for_timeout(15)


def play_module_table(
    tmp_path: Path,
    player: type[ClickPlayer],
    *,
    seed: int,
    ready: str,
    badge: re.Pattern[str],
    log: re.Pattern[str],
    before: Any = None,
    after: Any = None,
    seconds: float = 40.0,
    names: tuple[str, ...] = ("Ada", "Bo"),
    rng_seed: int = 5,
) -> ClickPlayer:
    """A module's short browser game, the pattern its ``test_browser.py`` shares with others: one
    person plays every seat of a table of ``player.module`` alone on the fixed deal ``seed`` by
    clicks (``player``, a :class:`ClickPlayer`), for at most ``seconds`` or until every control
    of ``player.wanted`` was used. Each page first shows ``ready`` (the module's panel) and passes
    ``before(page)``; after the game, on the first page: ``after(page, player)`` (the module's
    art on the board...), a seat badge of the module whose text matches ``badge``, a screenshot
    ``<module>-table.png``, a log with a line matching ``log`` and none showing ``player.raw``.
    Then every wanted control was used, the console stayed clean and every screenshot shows
    something. Returns the player (``seen``: the controls used)."""
    module = player.module
    problems: list[str] = []
    started = time.monotonic()
    with served_table(tmp_path, problems, (module,), names, constant_seed=seed) as pages:
        for p in pages:
            p.wait_for_selector(ready, timeout=10000)
            if before is not None:
                before(p)
        clicker = player(pages, random.Random(rng_seed))
        clicker.play(seconds)
        page = pages[0]
        if page.locator("#btn-close-modal").count():
            page.locator("#btn-close-modal").click(timeout=5000)
        page.wait_for_timeout(200)
        if after is not None:
            after(page, clicker)
        badges = page.locator(f".score-track .seat-badge[data-module='{module}']")
        assert badges.count() >= 1 and badge.fullmatch(badges.first.inner_text().strip()), badges.all_inner_texts()
        clicker.shot(page, "table")
        text = page.locator(".log-list").inner_text()
        assert log.search(text), text[-500:]
        assert clicker.raw is None or not clicker.raw.search(text), f"the log shows {module}' notation or codes"
    print("seen:", clicker.seen, f"in {time.monotonic() - started:.1f} s")
    for w in clicker.wanted:
        assert clicker.seen.get(w, 0) >= 1, (w, clicker.seen)
    assert problems == []
    clicker.check_shots()
    return clicker


def joined_table(http: Any, names: list[str], modules: list[str], hints: bool = False) -> tuple[str, list[str]]:
    """Create a table of person seats with these names and modules (``hints``: allowing hints)
    through the API and join every seat; returns the table id and the seats' tokens (``http``:
    an httpx client on the server)."""
    r = http.post("/api/tables", json={"seats": [{"kind": "person", "name": n} for n in names], "modules": modules, "hints": hints})
    assert r.status_code == 201, r.text
    tid: str = r.json()["table"]["id"]
    tokens: list[str] = [s["token"] for s in r.json()["seats"]]
    for tok in tokens:
        assert http.post(f"/api/tables/{tid}/join", json={}, headers={"Authorization": f"Bearer {tok}"}).status_code == 200
    return tid, tokens


def play_until(
    http: Any,
    table_id: str,
    tokens: list[str],
    until: Any,
    rng: random.Random,
    prefer: Any = None,
    max_actions: int = 2000,
) -> dict[str, Any]:
    """Play a table of person seats through the API (``http``: an httpx client on the server)
    until ``until(seat, message)`` is true for the seat to act and its message (its view with
    its legal actions); returns that message. Each move is a random legal action, or a random
    one of those ``prefer(seat, legal)`` returns when it returns any (to steer the game towards
    a situation a browser test wants). AssertionError when the game ends or runs too long first."""
    for _ in range(max_actions):
        public = http.get(f"/api/tables/{table_id}/view").json()
        assert public["table"]["status"] == "playing", f"the game is {public['table']['status']}"
        seat = public["view"]["to_act"]
        mine = http.get(f"/api/tables/{table_id}/view", headers={"Authorization": f"Bearer {tokens[seat]}"}).json()
        if until(seat, mine):
            return dict(mine)
        legal = mine["view"]["legal_actions"]
        chosen = (prefer(seat, legal) if prefer is not None else None) or legal
        body = {"action": rng.choice(chosen), "version": mine["version"]}
        r = http.post(f"/api/tables/{table_id}/actions", json=body, headers={"Authorization": f"Bearer {tokens[seat]}"})
        assert r.status_code == 200, r.text
    raise AssertionError(f"no such situation in {max_actions} actions")


def steer_table(
    http: Any, table_id: str, tokens: list[str], config: Any, seed: int, choose: Any, until: Any, max_actions: int = 300
) -> tuple[Any, int]:
    """Play a table of person seats dealt with game ``seed`` (a server started with
    ``constant_seed=seed``) through the API to a short fixed position: the same game is played
    in-process (``config``), each move ``choose(state)`` (deterministic), until ``until(state)``
    holds; returns that state and the table's version. Cheap (one POST a move): for browser
    tests that start where a module's controls are needed. AssertionError when the moves are
    refused (the server's game is another) or the position never comes."""
    from .engine import apply, new_game

    state, _ = new_game(config, seed)
    ver = int(http.get(f"/api/tables/{table_id}/view").json()["version"])
    for _ in range(max_actions):
        if until(state):
            return state, ver
        action = choose(state)
        seat = state.to_act
        assert seat is not None
        body = {"action": str(action), "version": ver}
        r = http.post(f"/api/tables/{table_id}/actions", json=body, headers={"Authorization": f"Bearer {tokens[seat]}"})
        assert r.status_code == 200, r.text
        ver = int(r.json()["version"])
        state, _ = apply(state, action)
    raise AssertionError(f"no such position in {max_actions} moves: the deal changed")


# ---------------------------------------------------------------------------- a person's core moves
def click_core_move(page: Any, rng: random.Random, *, end: float = 0.5, buy: float = 0.75, failure: str = "failure") -> None:
    """One step of the page's turn with the core's moves, by clicks as a person would: nothing
    while a dialog is open, a waiting confirmation clicked, a bought tile placed on a random
    highlighted spot (else the reserve board); else the turn ended (chance ``end``), a random
    affordable square bought (chance ``buy``, the exact payment if there is one), a random
    face-up card taken, the turn ended, or an Alhambra tile moved to the reserve board.
    AssertionError (after :func:`dump` as ``failure``) when none is offered."""
    before = version(page)
    if page.locator(".modal-back").count():
        return  # a scoring round popped up: the caller looks at it first
    if page.locator("#btn-confirm").count():
        check_confirmation(page)
        click(page, "#btn-confirm", failure)
        wait_change(page, before, confirm=False, failure=failure)
        return
    if pending(page) == "PlaceTiles":
        if not page.locator(".waiting-tile.selected").count():
            click(page, ".waiting-tile", failure)
        spots = page.locator(".spot")
        if spots.count():
            spots.nth(rng.randrange(spots.count())).click(timeout=5000)
            wait_change(page, before, failure=failure)
        else:
            press(page, "#btn-reserve", before)
        return
    if end and page.locator("#btn-end").count() and rng.random() < end:
        press(page, "#btn-end", before)
        return
    affordable = page.locator(".market-square.affordable")
    if affordable.count() and rng.random() < buy:
        affordable.nth(rng.randrange(affordable.count())).click(timeout=5000)
        exact = page.locator(".pay-option.exact")
        (exact if exact.count() else page.locator(".pay-option")).first.click(timeout=5000)
        press(page, "#btn-buy", before)
        return
    cards = page.locator(".display-card.takeable")
    if cards.count():
        cards.nth(rng.randrange(cards.count())).click(timeout=5000)
        if page.locator("#btn-take").count():
            press(page, "#btn-take", before)
            return
        click(page, "#btn-clear", failure)
        return
    if page.locator("#btn-end").count():
        press(page, "#btn-end", before)
        return
    if page.locator(".removable").count():  # nothing else to do: redesign
        click(page, ".removable", failure)
        press(page, "#btn-remove", before)
        return
    dump(page, "no move", failure)
    raise AssertionError("the table offers no move although it is my turn")


def play_page(page: Any, move: Any, seconds: float, done: Any = None, on_round: Any = None) -> int:
    """Play the page's seat with ``move()`` (called whenever it is the page's turn) until the
    game is over or ``done()`` is true; each scoring pop-up is closed by a click (after
    ``on_round()`` when given). The number of pop-ups seen; AssertionError after ``seconds``."""
    rounds = 0
    deadline = time.monotonic() + seconds
    while phase(page) != "over" and not (done is not None and done()):
        assert time.monotonic() < deadline, "the game took too long"
        if page.locator("#round-modal").count():
            rounds += 1
            if on_round is not None:
                on_round()
            click(page, "#btn-close-modal")
            continue
        if phase(page) == "my-turn":
            move()
        else:
            page.wait_for_timeout(15)
    return rounds


# ---------------------------------------------------------------------------- whole games by keyboard and touch
NO_SIDEWAYS = "(s) => { const m = document.querySelector(s); return m.scrollWidth <= m.clientWidth; }"
"""JavaScript: true when the element ``s`` has nothing hidden behind a sideways scroll."""


def wait_for(page: Any, cond: Any, what: str, timeout: float = 15.0, failure: str = "keyboard-failure") -> None:
    """Poll ``cond()`` until it is true; AssertionError naming ``what`` (after :func:`dump` as
    ``failure``) after ``timeout`` seconds."""
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            dump(page, what, failure)
            raise AssertionError(f"timed out waiting for {what}")
        page.wait_for_timeout(15)


def check_no_raw(page: Any, raw: re.Pattern[str]) -> None:
    """No visible text of the table (buttons, the action panel, the log) matches ``raw``
    (notation a player must never read)."""
    texts = [
        *page.locator("button:visible").all_inner_texts(),
        page.locator("#action-panel").inner_text(),
        page.locator(".log-list").inner_text(),
    ]
    bad = [t for t in texts if raw.search(t)]
    assert not bad, f"raw notation reaches the player: {bad[:3]}"


def create_by_keyboard(page: Any, url: str, players: int, modules: tuple[str, ...] = (), game: str | None = None) -> None:
    """The lobby by keyboard: the game (its title, e.g. ``Granada``), the number of players,
    Beginner bots, modules, create, play, and the join dialog (which must keep the focus)."""
    page.goto(url + "/")
    page.wait_for_selector("#btn-create")
    if game is not None:
        tab_to(page, "#game-choice")
        page.keyboard.type(game)  # a focused select picks the option starting with it
        wait_for(page, lambda: page.locator("#game-choice option:checked").inner_text() == game, f"the game {game}")
    if players != 2:
        tab_to(page, "#seat-count")
        page.keyboard.type(str(players))
    for i in range(1, players):
        tab_to(page, f".seat-row:nth-child({i + 1}) .seat-bot")
        page.keyboard.type("Beginner")
    for m in modules:
        tab_to(page, f".module[data-module='{m}'] input[type='checkbox']")
        page.keyboard.press("Space")
    assert page.locator(".seat-bot:visible").evaluate_all("els => els.map((e) => e.value)") == ["random"] * (players - 1)
    tab_to(page, "#btn-create")
    page.keyboard.press("Enter")
    page.wait_for_selector(".play-link")
    tab_to(page, ".play-link")
    page.keyboard.press("Enter")
    # the join dialog takes the focus itself and keeps it
    page.wait_for_selector("#join-name")
    wait_for(page, lambda: focused(page).startswith("input#join-name"), "focus in the join dialog")
    for _ in range(4):
        page.keyboard.press("Tab")
        assert page.evaluate("!!document.activeElement.closest('.modal')"), "Tab left the join dialog"
    tab_to(page, "#join-name")
    page.keyboard.type("Ada")
    page.keyboard.press("Enter")
    page.wait_for_selector("body[data-phase='my-turn'], body[data-phase='their-turn']")


def create_by_touch(page: Any, url: str, game: str | None = None, name: str | None = None) -> None:
    """The lobby by taps: the game (its id, e.g. ``granada``), the person's ``name``, a
    Beginner bot in the second seat, create, play and join; returns once it is the person's turn."""
    page.goto(url + "/")
    if game is not None:
        page.locator("#game-choice").select_option(game)
    if name is not None:
        page.locator(".seat-row").nth(0).locator(".seat-name").fill(name)
    page.locator(".seat-row").nth(1).locator(".seat-bot").select_option("random")
    page.locator("#btn-create").tap()
    page.locator(".play-link").tap()
    page.locator("#btn-join").tap()
    page.wait_for_selector("body[data-phase='my-turn']")


def check_end_screen(page: Any, players: int, neutral: bool, image: str, raw: re.Pattern[str], kinds: int = 6, wall: str = "wall") -> None:
    """The end screen by keyboard: focus inside, round 3's breakdown (``kinds`` rows, the
    longest ``wall``), the hand-out, the chart, every round on demand; Escape closes it.
    The screenshot goes to :func:`doc_image` ``image``."""
    page.wait_for_selector("#summary-modal")
    wait_for(page, lambda: bool(page.evaluate("!!document.activeElement.closest('#summary-modal')")), "focus in the summary")
    summary = page.locator("#summary-modal")
    # it opens at its top: the winner is in sight, however long the breakdown below
    assert summary.evaluate("m => m.scrollTop") == 0, "the end screen opened scrolled down"
    assert summary.locator(".winner").is_visible() and summary.locator("#btn-lobby").count() == 1
    assert summary.locator(".round-table[data-round='3']").count() == 1, "the end screen hides round 3"
    table = summary.locator(".round-table")
    assert table.locator("thead .rt-seat").count() == players + (1 if neutral else 0)
    assert table.locator("tbody tr[data-kind]").count() == kinds  # every kind: count, place, points
    assert f"Longest {wall}" in table.inner_text()
    assert summary.locator(".hand-out").count() == 1
    hand_out = summary.locator(".hand-out").inner_text()
    assert "went to" in hand_out or "stayed" in hand_out or "empty" in hand_out
    assert summary.locator(".chart path").count() == players + (1 if neutral else 0)  # Dirk's line too
    page.screenshot(path=str(doc_image(image)))
    tab_to(page, "#summary-modal [data-key='summary-round-1']")
    page.keyboard.press("Enter")
    page.wait_for_selector("#summary-modal .round-table[data-round='1']")
    assert focused(page).startswith("button"), "focus lost when switching rounds"
    assert "round-1" in str(page.evaluate("document.activeElement.dataset.key"))
    check_no_raw(page, raw)
    key(page, "Escape")
    wait_for(page, lambda: not page.locator("#summary-modal").count(), "the summary to close")


def replay_by_keyboard(page: Any, cities: int) -> None:
    """The replay viewer, from the closed end screen, by keyboard: step 0 shows ``cities``
    Alhambras, ArrowRight steps once, End goes to the last step."""
    tab_to(page, "#btn-summary")
    page.keyboard.press("Enter")
    tab_to(page, "#btn-summary-replay")
    page.keyboard.press("Enter")
    page.wait_for_selector("#replay-stage .r-city")
    assert page.locator(".r-city").count() == cities
    assert page.locator("#step-no").inner_text().startswith("Step 0 of ")
    page.keyboard.press("ArrowRight")
    wait_for(page, lambda: page.locator("#step-no").inner_text().startswith("Step 1 of "), "one step forward")
    page.keyboard.press("End")
    wait_for(page, lambda: "Game over" in page.locator("#replay-now").inner_text(), "the replay's last step")


class DialogOpened(Exception):
    """A scoring dialog opened while the player was tabbing to a control of the table."""


class KeyboardPlayer:
    """Plays the person's seat with the keyboard only, keeping count of the Tab presses
    (``presses``), the moves, the focus checks and what it did (``seen``). Every few moves no
    visible text may match ``raw``. With ``turn_over`` (Granada), a waiting tile that can be
    turned over is, with that chance, by keyboard (the offer, a way to pay, "Pay and turn over")."""

    def __init__(self, page: Any, rng: random.Random, raw: re.Pattern[str], turn_over: float = 0.0) -> None:
        self.page = page
        self.rng = rng
        self.raw = raw
        self.turn_over = turn_over
        self.presses: list[int] = []
        self.moves = 0
        self.focus_checks = 0
        self.seen: Counter[str] = Counter()

    def tab(self, selector: str) -> None:
        """Tab to ``selector`` (:func:`tab_to`), counting the presses; :class:`DialogOpened`
        when a scoring dialog took the focus meanwhile."""
        try:
            self.presses.append(tab_to(self.page, selector))
        except AssertionError:
            # a bot's move scored a round meanwhile: its dialog took the focus (as it should);
            # the person closes it first and then looks at the table again
            dialog = self.page.locator("#round-modal")
            if dialog.count() and not dialog.locator(selector).count():
                raise DialogOpened from None
            raise

    def enter(self, selector: str) -> None:
        """Tab to ``selector`` and press Enter on it."""
        self.tab(selector)
        key(self.page, "Enter", selector)

    def act(self, selector: str) -> None:
        """Enter on ``selector`` and wait for the table to move on (or to ask for a confirmation)."""
        before = version(self.page)
        self.enter(selector)
        wait_change(self.page, before, failure="keyboard-failure")

    def keeps_focus(self, selector: str) -> None:
        """After a selection redrew the page, the focus is still on the control chosen."""
        page = self.page
        assert page.evaluate("(s) => document.activeElement && document.activeElement.matches(s)", selector), (
            f"focus lost after a redraw: on {focused(page)}, expected {selector}"
        )
        self.focus_checks += 1

    def modal(self) -> bool:
        """A scoring pop-up: focus is inside it and stays there on Tab; Enter closes it and the
        focus goes back into the table. False when none is open."""
        page = self.page
        if not page.locator("#round-modal").count():
            return False
        wait_for(page, lambda: bool(page.evaluate("!!document.activeElement.closest('.modal')")), "focus in the round dialog")
        for _ in range(3):
            page.keyboard.press("Tab")
            assert page.evaluate("!!document.activeElement.closest('.modal')"), "Tab left the dialog"
        self.enter("#btn-close-modal")
        wait_for(page, lambda: not page.locator("#round-modal").count(), "the round dialog to close")
        assert focused(page) != "body", "the focus was not returned after the dialog"
        return True

    def pay(self, what: str) -> None:
        """In the open payment: a way to pay (the exact one if any) unless one is chosen, then
        the confirming button; ``what`` counted in ``seen``."""
        page = self.page
        if not page.locator("#btn-buy").count():
            self.enter(".pay-option.exact" if page.locator(".pay-option.exact").count() else ".pay-option")
            page.wait_for_selector("#btn-buy")
        self.seen[what] += 1
        self.act("#btn-buy")

    def place(self) -> None:
        """Place the waiting tile: once, Clear selection first (the tile and its spots are
        dropped) and pick it again; turn it over (chance ``turn_over``); else a random spot,
        else the reserve board."""
        page, rng = self.page, self.rng
        if not self.seen["cleared a placement"]:
            self.enter("#btn-clear")
            page.wait_for_function("() => !document.querySelector('.waiting-tile.selected') && !document.querySelector('.spot')")
            self.enter(".waiting-tile")
            page.wait_for_selector(".waiting-tile.selected")
            self.seen["cleared a placement"] += 1
        if self.turn_over and page.locator("#btn-turn").count() and rng.random() < self.turn_over:
            self.enter("#btn-turn")
            page.wait_for_selector(".pay-option")
            assert page.locator("#btn-buy").count() == 0 or page.locator("#btn-buy").inner_text() == "Pay and turn over"
            self.pay("turned a tile over")
            return
        spots = page.locator(".spot")
        if spots.count():
            n = rng.randrange(spots.count())
            x, y = spots.nth(n).get_attribute("data-x"), spots.nth(n).get_attribute("data-y")
            self.act(f".spot[data-x='{x}'][data-y='{y}']")
        else:
            self.act("#btn-reserve")

    def move(self) -> None:
        """One step of my turn."""
        page, rng = self.page, self.rng
        self.moves += 1
        if page.locator("#btn-confirm").count():
            # "cannot be taken back" is never shown beside an Undo button
            assert not page.locator("#btn-undo").count()
            check_confirmation(page)
            before = version(page)
            key(page, "Enter", "#btn-confirm")  # choose() put the focus on it
            wait_change(page, before, confirm=False, failure="keyboard-failure")
            return
        decision = pending(page)
        if decision == "PlaceTiles":
            self.place()
            return
        if decision not in ("ChooseAction", None, "None", ""):
            # a decision between turns: the vizier's offer (a market square to pick) or pass
            offer = page.locator(".market-square.affordable[data-module]")
            if offer.count() and rng.random() < 0.7:
                sq = offer.nth(rng.randrange(offer.count())).get_attribute("data-square")
                self.enter(f".market-square[data-square='{sq}']")
                page.wait_for_selector(".pay-option, #btn-buy")
                self.pay("module offer used")
                return
            self.seen["passed between turns"] += 1
            self.act(".pass-button")
            return
        wake = page.locator("#btn-vizier-wake")
        if wake.count() and rng.random() < 0.3:
            self.seen["woke the vizier"] += 1
            self.act("#btn-vizier-wake")
            return
        exchange = page.locator(".display-card.takeable[data-code^='x']")
        if exchange.count() and rng.random() < 0.7:
            slot = exchange.first.get_attribute("data-slot")
            self.enter(f".display-card[data-slot='{slot}']")
            self.seen["took an exchange card"] += 1
            self.act("#btn-take")
            return
        affordable = page.locator(".market-square.affordable")
        if affordable.count() and rng.random() < 0.8:
            sq = affordable.nth(rng.randrange(affordable.count())).get_attribute("data-square")
            sel = f".market-square[data-square='{sq}']"
            self.enter(sel)
            page.wait_for_selector(".pay-option")
            self.keeps_focus(sel)
            self.pay("bought a tile")
            return
        cards = page.locator(".display-card.takeable")
        if cards.count():
            slot = cards.nth(rng.randrange(cards.count())).get_attribute("data-slot")
            sel = f".display-card[data-slot='{slot}']"
            self.enter(sel)
            page.wait_for_selector("#btn-take, #btn-clear")
            self.keeps_focus(sel)
            if page.locator("#btn-take").count():
                text = page.locator("#btn-take").inner_text()
                self.act("#btn-take")
                if text == "Take and end turn":  # one confirmation: the turn is over at once
                    assert not page.locator("#btn-confirm").count()
                return
            self.enter("#btn-clear")
            return
        if page.locator("#btn-end").count():
            self.act("#btn-end")
            return
        if page.locator(".removable").count():
            self.enter(".removable")
            self.act("#btn-remove")
            return
        dump(page, "no move", "keyboard-failure")
        raise AssertionError("no move offered although it is my turn")

    def play(self, limit: float) -> int:
        """Play until the game is over (AssertionError after ``limit`` seconds); the number of
        scoring pop-ups seen."""
        page = self.page
        rounds = 0
        deadline = time.monotonic() + limit
        while phase(page) != "over":
            assert time.monotonic() < deadline, "the game took too long"
            if self.modal():
                rounds += 1
                continue
            if phase(page) == "my-turn":
                if page.locator(".city .recent, .market-square.recent, .display-card.recent").count():
                    self.seen["last turn marked"] += 1
                try:
                    self.move()
                except DialogOpened:
                    self.seen["dialog opened while moving"] += 1
                    continue
                if self.moves % 7 == 1:
                    check_no_raw(page, self.raw)
            else:
                page.wait_for_timeout(15)
        return rounds


class TouchPlayer:
    """Plays the person's seat by tapping, on a phone-sized page (``has_touch``)."""

    def __init__(self, page: Any, rng: random.Random) -> None:
        self.page = page
        self.rng = rng
        self.moves = 0
        self.back_to_top = 0
        """Turns after which the page went back to its top (the name row not under the decision bar)."""

    def tap(self, selector: str, wait: bool = True) -> None:
        """Tap the first ``selector``; with ``wait``, wait for the table to react
        (:class:`DialogOpened` as in :meth:`tap_nth`)."""
        before = version(self.page)
        try:
            self.page.locator(selector).first.tap(timeout=10000)
        except Exception:
            if self.page.locator("#round-modal").count() and not self.page.locator(f"#round-modal {selector}").count():
                raise DialogOpened from None
            dump(self.page, f"tap {selector}", "phone-failure")
            raise
        if wait:  # after a confirmation, wait for the new version itself
            wait_change(self.page, before, confirm=selector != "#btn-confirm", failure="phone-failure")

    def tap_nth(self, locator: Any, n: int) -> None:
        """Tap the ``n``-th element of ``locator``: :class:`DialogOpened` when a bot's move scored a
        round meanwhile and its dialog covers the table (the player closes it and looks again);
        on any other failure a screenshot and the table's state."""
        try:
            locator.nth(n).tap(timeout=10000)
        except Exception:
            if self.page.locator("#round-modal").count():
                raise DialogOpened from None
            dump(self.page, f"tap {n} of {locator}", "phone-failure")
            raise

    def move(self) -> None:
        """One step of my turn: confirm, place on a random spot (else the reserve board), buy
        (the decision bar stays in sight while paying), take money, end the turn or redesign."""
        page, rng = self.page, self.rng
        self.moves += 1
        if page.locator("#btn-confirm").count():
            self.tap("#btn-confirm")
            return
        if pending(page) == "PlaceTiles":
            spots = page.locator(".spot")
            if spots.count():
                n = rng.randrange(spots.count())
                before = version(page)
                self.tap_nth(spots, n)
                wait_change(page, before, failure="phone-failure")
            else:
                self.tap("#btn-reserve")
            return
        affordable = page.locator(".market-square.affordable")
        if affordable.count() and rng.random() < 0.8:
            self.tap_nth(affordable, rng.randrange(affordable.count()))
            if not page.locator("#btn-buy").count():
                exact = page.locator(".pay-option.exact")
                self.tap_nth(exact if exact.count() else page.locator(".pay-option"), 0)
            # the decision bar stays in sight above the market while paying
            assert page.locator("#btn-buy").is_visible()
            self.tap("#btn-buy")
            return
        cards = page.locator(".display-card.takeable")
        if cards.count():
            self.tap_nth(cards, rng.randrange(cards.count()))
            if page.locator("#btn-take").count():
                self.tap("#btn-take")
                return
            self.tap("#btn-clear", wait=False)
            return
        if page.locator("#btn-end").count():
            self.tap("#btn-end")
            return
        self.tap(".removable", wait=False)
        self.tap("#btn-remove")

    def play(self, limit: float, on_round: Any = None) -> int:
        """Play until the game is over (AssertionError after ``limit`` seconds), closing each
        scoring pop-up (after ``on_round(number)`` when given); the number of pop-ups seen."""
        page = self.page
        rounds = 0
        deadline = time.monotonic() + limit
        while phase(page) != "over":
            assert time.monotonic() < deadline, "the game took too long"
            if page.locator("#round-modal").count():
                rounds += 1
                if on_round is not None:
                    on_round(rounds)
                page.locator("#btn-close-modal").tap()
                continue
            if phase(page) == "my-turn":
                try:
                    self.move()
                except DialogOpened:
                    continue  # the loop closes the dialog, then the move is chosen again
                if phase(page) == "their-turn" and not page.locator(".modal").count():
                    # my turn is over: the page is back at its top, nothing under the decision bar
                    wait_for(page, lambda: page.evaluate("window.scrollY") == 0, "the page back at its top", failure="phone-failure")
                    self.back_to_top += 1
            else:
                page.wait_for_timeout(15)
        return rounds
