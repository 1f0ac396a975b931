"""Helpers for the browser tests (Playwright in Debian's Chromium) and the server-process tests.

* :class:`ServerProcess` runs ``alhambra serve`` in a subprocess on a free loopback port, with a
  fresh SQLite file, optionally with fixed random bits for its tables' deals.
* :data:`CHROMIUM`, :data:`CHROMIUM_ARGS`, :data:`needs_chromium` (a skip marker) and
  :func:`launch` start the browser; :func:`watch` collects the console's errors.
* :data:`ARTIFACTS` is the folder of the screenshots.
* :func:`version`, :func:`phase`, :func:`pending`, :func:`click`, :func:`wait_change`,
  :func:`dump` and :func:`check_buttons` read and drive the browser table.
* :func:`focused`, :func:`tab_to` and :func:`key` drive it by keyboard alone; :func:`doc_image`
  names the screenshots meant for the docs (``docs/images`` with ``ALHAMBRA_DOC_IMAGES=1``).
* :func:`new_pages` opens watched pages, :func:`open_table` sets up a table of person seats in
  the lobby and joins a page to each; :class:`ClickPlayer` plays those seats by clicks, as a
  person would (the base of the modules' browser tests).

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
from pathlib import Path
from types import TracebackType
from typing import Any

import httpx
import pytest

__all__ = [
    "ARTIFACTS",
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "ClickPlayer",
    "ServerProcess",
    "check_buttons",
    "click",
    "doc_image",
    "dump",
    "focused",
    "free_port",
    "key",
    "launch",
    "needs_chromium",
    "new_pages",
    "open_table",
    "pending",
    "phase",
    "play_until",
    "press",
    "tab_to",
    "version",
    "wait_change",
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
    ) -> None:
        if seed is not None and constant_seed is not None:
            raise ValueError("give seed or constant_seed, not both")
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_file = log_file or db_file.with_suffix(".log")
        serve = ["serve", "--port", str(self.port), "--database-url", f"sqlite:///{db_file}", "--bot-delay", str(bot_delay), *extra_args]
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
        lobby.locator(f".module[data-module='{mid}'] input[type='checkbox']").check()
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


def check_buttons(page: Any, raw: re.Pattern[str]) -> None:
    """No button's text matches ``raw`` (a module's notation) and no action is left without a
    proper control (the table's ``.other-move`` fallback)."""
    texts = page.locator("button").all_inner_texts()
    bad = [t for t in texts if raw.search(t)]
    assert not bad, f"buttons show raw notation: {bad}"
    assert page.locator(".other-move").count() == 0, "a module action was left without a proper control"


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
        end = time.monotonic() + 15
        while time.monotonic() < end:
            if version(page) != before:
                return
            if confirm and page.locator("#btn-confirm").count():
                page.locator("#btn-confirm").click(timeout=5000)
                confirm = False
                continue
            page.wait_for_timeout(15)
        self.dump(page, "no reaction")
        raise AssertionError(f"the table did not react (still version {before})")

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
        cards = page.locator(".display-card.takeable")
        if cards.count():
            cards.nth(rng.randrange(cards.count())).click(timeout=5000)
            self.click(page, "#btn-take")
            return
        if page.locator("#btn-end").count():
            self.click(page, "#btn-end")
            return
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


def joined_table(http: Any, names: list[str], modules: list[str]) -> tuple[str, list[str]]:
    """Create a table of person seats with these names and modules through the API and join
    every seat; returns the table id and the seats' tokens (``http``: an httpx client on the server)."""
    r = http.post("/api/tables", json={"seats": [{"kind": "person", "name": n} for n in names], "modules": modules})
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
