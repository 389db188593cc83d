"""`boardgames-tui web`: the server on loopback, an app per tab, a clean stop, a busy port,
and a real browser (the system's Chromium) playing a move that reaches the autosave."""

from __future__ import annotations

import asyncio
import concurrent.futures
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Coroutine, Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from boardgames_tui.engine.core import Match, Seat, saves
from boardgames_tui.web.app import command
from boardgames_tui.web.server import (
    WebError,
    check_allowed_host,
    exposure_warning,
    host_name,
    is_loopback,
    url_for,
)
from tests.conformance.test_hostile_names import HOSTILE, assert_literal
from tests.root import ROOT

GUARD = 30.0  # seconds before a wait that never ends fails (a hang guard, not a speed target)


class Served:
    """A `boardgames-tui web` process on a free loopback port."""

    def __init__(self, saves_dir: Path, *args: str) -> None:
        web = ["--saves", str(saves_dir), "web", "--port", "0", *args]
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "boardgames_tui", *web],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None
        first = self.proc.stdout.readline()  # "boardgames-tui is served at URL"
        if not first:
            self.proc.wait()
            pytest.fail(f"the server did not start: {self.proc.stderr.read()}")
        self.url = first.split()[-1]
        self.port = int(self.url.rstrip("/").rsplit(":", 1)[1])

    def stop(self) -> tuple[int, str, str]:
        """Ctrl+C, as in a terminal; returns the exit code and what it printed."""
        self.proc.send_signal(signal.SIGINT)
        out, err = self.proc.communicate(timeout=GUARD)
        return self.proc.returncode, out, err

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.communicate()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    server = Served(tmp_path / "saves", "--think", "0.3")
    try:
        yield server
    finally:
        server.kill()


def app_processes(parent: int) -> list[int]:
    """The pids of the app processes the server started (its children)."""
    pids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == parent and fields[0] != "Z":
            pids.append(int(stat.parent.name))
    return pids


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def listening_addresses(port: int) -> list[str]:
    """The local IPv4 addresses with a socket listening on `port` (from /proc/net/tcp)."""
    out = []
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, state = line.split()[1], line.split()[3]
        host, p = local.split(":")
        if state == "0A" and int(p, 16) == port:
            out.append(socket.inet_ntoa(bytes.fromhex(host)[::-1]))
    return out


def outward_address() -> str | None:
    """This machine's address on its default route, if it has one (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
        except OSError:
            return None
        address: str = probe.getsockname()[0]
    return None if is_loopback(address) else address


def test_command_and_addresses() -> None:
    argv = command("/tmp/s", 2.0, 0.0)
    expected = [
        "-m",
        "boardgames_tui.web.app",
        "--saves",
        "/tmp/s",
        "--think",
        "2.0",
        "--bot-delay",
        "0.0",
    ]
    assert argv[1:] == expected
    assert command()[1:] == ["-m", "boardgames_tui.web.app"]
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5")
    assert exposure_warning("127.0.0.1") is None
    assert "no login" in (exposure_warning("0.0.0.0") or "")
    assert url_for("127.0.0.1", 8000) == "http://127.0.0.1:8000/"
    assert url_for("::1", 8000) == "http://[::1]:8000/"
    assert host_name("Games.Example.:80") == "games.example" and host_name("[::1]:80") == "::1"
    assert host_name("::1") == "::1" and host_name("10.0.0.5") == "10.0.0.5"
    assert check_allowed_host("Games.Example") == "games.example"
    assert check_allowed_host("[fe80::1]") == "fe80::1"
    for bad in ("http://games.example", "games.example:8000", "", "a b"):
        with pytest.raises(WebError, match="--allow-host"):
            check_allowed_host(bad)


async def test_answers_on_loopback_only_and_each_tab_runs_its_own_app(served: Served) -> None:
    assert served.url.startswith("http://127.0.0.1:")
    if Path("/proc/net/tcp").exists():
        assert listening_addresses(served.port) == ["127.0.0.1"]
    async with aiohttp.ClientSession() as http:
        async with http.get(served.url) as page:
            html = await page.text()
        assert page.status == 200
        assert "<title>boardgames-tui</title>" in html
        assert f"ws://127.0.0.1:{served.port}/ws" in html
        assert "https://" not in html  # the page loads nothing from elsewhere
        tabs = [await http.ws_connect(served.url + "ws?width=100&height=30") for _ in range(2)]
        for ws in tabs:  # each tab's app draws its menu
            seen = ""
            while "New game" not in seen:
                msg = await ws.receive(timeout=GUARD)
                assert msg.type == aiohttp.WSMsgType.BINARY, msg
                seen += msg.data.decode("utf-8", "replace")
        apps = app_processes(served.proc.pid)
        assert len(apps) == 2
        for pid in apps:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            assert b"boardgames_tui.web.app" in cmdline
            assert cmdline[cmdline.index(b"--think") + 1] == b"0.3"  # options passed through
            assert b"--saves" in cmdline

        code, out, err = served.stop()  # Ctrl+C with two tabs open
        assert code == 0, err
        assert "Stopped" in out and "Traceback" not in err
        assert not [pid for pid in apps if alive(pid)]
        for ws in tabs:  # the tabs are told the session ended
            while not ws.closed:
                await ws.receive(timeout=GUARD)


async def test_refuses_other_sites_pages_and_other_host_names_with_a_reason(
    served: Served,
) -> None:
    async with aiohttp.ClientSession() as http:
        # another site's page in the same browser may not drive a tab's app (it can write files)
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(served.url + "ws", headers={"Origin": "http://evil.example"})
        assert refused.value.status == 403
        # nor a name that resolves to this machine (DNS rebinding)
        async with http.get(served.url, headers={"Host": f"evil.example:{served.port}"}) as page:
            assert page.status == 403
            assert "not a name of this server" in await page.text()
        # the server's own page still connects
        origin = served.url.rstrip("/")
        ws = await http.ws_connect(served.url + "ws", headers={"Origin": origin})
        await ws.close()
    _, _, err = served.stop()
    assert "refused a connection from a page of http://evil.example" in err
    assert "refused a request for 'evil.example:" in err


async def test_refuses_a_rebound_name_on_every_binding(tmp_path: Path) -> None:
    """DNS rebinding: a name the attacker controls, now resolving to this machine, with a page
    of that name (so its Origin matches its Host). Refused on a public binding too, whose own
    names, its address and `--allow-host` names still connect."""
    server = Served(tmp_path / "saves", "--host", "0.0.0.0", "--allow-host", "games.example")
    try:
        base = f"http://127.0.0.1:{server.port}/"

        def as_from(name: str) -> dict[str, str]:
            return {"Host": f"{name}:{server.port}", "Origin": f"http://{name}:{server.port}"}

        async with aiohttp.ClientSession() as http:
            evil = as_from("evil.example")
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await http.ws_connect(base + "ws", headers=evil)
            assert refused.value.status == 403
            async with http.get(base, headers=evil) as page:
                assert page.status == 403
                text = await page.text()
            assert len(text.splitlines()) == 1 and "--allow-host evil.example" in text
            async with http.get(base + "static/js/textual.js", headers=evil) as script:
                assert script.status == 403  # nothing is served to that name
            async with http.get(base + "static/js/textual.js") as script:
                assert script.status == 200
            for name in ("127.0.0.1", "localhost", socket.gethostname(), "games.example"):
                ws = await http.ws_connect(base + "ws", headers=as_from(name))
                await ws.close()
            if address := outward_address():  # by the address it was reached on: no name to rebind
                ws = await http.ws_connect(f"http://{address}:{server.port}/ws")
                await ws.close()
        code, _, err = server.stop()
        assert code == 0, err
        refusals = [line for line in err.splitlines() if "refused" in line]
        assert len(refusals) == 3 and all("'evil.example:" in line for line in refusals)
    finally:
        server.kill()


def test_busy_port_gets_one_clear_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out = subprocess.run(
            [sys.executable, "-m", "boardgames_tui", "web", "--port", str(port)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=GUARD,
        )
    assert out.returncode == 2
    assert out.stdout == ""
    assert out.stderr == (
        f"boardgames-tui: port {port} on 127.0.0.1 is already in use (another server?): "
        "stop that or choose another port with --port\n"
    )


@pytest.mark.parametrize(
    ("args", "said"),
    [(["--port", "70000"], "between 1 and 65535"), (["--allow-host", "x:80"], "without http://")],
)
def test_bad_port_or_name_gets_one_clear_line(args: list[str], said: str) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "boardgames_tui", "web", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=GUARD,
    )
    assert out.returncode == 2
    assert len(out.stderr.splitlines()) == 1 and said in out.stderr


# --- a real browser ---------------------------------------------------------------------------

CHROMIUM = next(
    (p for p in (shutil.which("chromium"), shutil.which("chromium-browser")) if p), None
)
# what works headless in a container: no sandbox, no GPU, nothing fetched from the network
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """The system's Chromium, started once for the browser tests of this module; each test
    opens a context of its own (a fresh profile: no storage, cookies or cache shared)."""
    if CHROMIUM is None:
        pytest.skip("no Chromium installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
        yield browser
        browser.close()


# a terminal's sequences as Textual writes them: CSI, and the mouse pointer's shape (OSC 22)
TEXTUAL_SEQUENCES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\]22;[a-z-]*\x07")


class Screen:
    """What the browser received from its app, to wait for words on the screen.

    The page draws the terminal on a canvas, so its text is read from the websocket frames.
    """

    def __init__(self, page) -> None:  # type: ignore[no-untyped-def]
        self.page = page
        self.text = ""
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))

    def _frame(self, payload: str | bytes) -> None:
        self.text += payload if isinstance(payload, str) else payload.decode("utf-8", "replace")

    def plain(self, since: int = 0) -> str:
        """What was drawn after `since` without the terminal's sequences."""
        return TEXTUAL_SEQUENCES.sub("", self.text[since:])

    def mark(self) -> int:
        return len(self.text)

    def wait_for(self, words: str, since: int = 0) -> int:
        """Wait until `words` were drawn after `since`, as one run of text or (styled) plain
        text between the terminal's sequences; where the screen is then."""
        deadline = time.monotonic() + GUARD
        while words not in self.text[since:] and words not in self.plain(since):
            assert time.monotonic() < deadline, f"{words!r} never appeared on the screen"
            self.page.wait_for_timeout(50)
        return self.mark()


def test_a_browser_plays_notre_dame_into_the_autosave(tmp_path: Path, chromium: Any) -> None:
    server = Served(tmp_path / "saves")
    try:
        with closing(chromium.new_context(viewport={"width": 1000, "height": 700})) as browser:
            page = browser.new_page()
            screen = Screen(page)
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(server.url)
            # typed at once, with no click on the page: the page focuses its terminal, and a
            # key typed while the connection opens waits for it
            page.keyboard.press("n")
            at = screen.wait_for("Seat 1")  # the setup screen: Notre Dame first
            page.keyboard.press("Control+s")
            at = screen.wait_for("Pass the keyboard to", at)
            page.keyboard.press("Enter")
            at = screen.wait_for("Keep ", at)  # Ann's draft: keep one card, pass two
            page.keyboard.press("1")
            at = screen.wait_for("Pass the keyboard to", at)  # Bob's turn

            # the window size follows the browser: too small, then large enough again
            page.set_viewport_size({"width": 500, "height": 300})
            at = screen.wait_for("Make the browser window larger", at)
            page.set_viewport_size({"width": 1000, "height": 700})
            screen.wait_for("Pass the keyboard to", at)
            assert errors == []
        # the tab's app writes its autosave in the background: read it once the server has
        # stopped, each app quitting only when its games are on disk
        code, _, err = server.stop()
        assert code == 0, err
        files = list((tmp_path / "saves").glob("notre-dame-*.toml"))
        assert len(files) == 1
        match = saves.load(files[0])
        assert match.game.id == "notre-dame"
        assert [s.name for s in match.seats] == ["Ann", "Bob", "Cy"]
        assert match.cursor == 1 and match.move_ids()[0].startswith("keep:")
    finally:
        server.kill()


HTML_NAMES = ["<img src=x onerror=f()>", "</script><b>Bo"]


def test_hostile_names_are_data_on_the_web_page(tmp_path: Path, chromium: Any) -> None:
    """Names that are markup or HTML, a save whose name holds terminal controls and a file
    named with them: the browser shows them as typed, nothing reaches the page but text, and
    the page keeps working (issue 29)."""
    folder = tmp_path / "saves"
    folder.mkdir()
    names = [name for name, _, _ in HOSTILE[:3]] + HTML_NAMES
    m = Match.new("rattus-cartus", [Seat(name) for name in names], seed=4)
    rng = random.Random(4)
    while m.prompt is not None and m.cursor < 12:
        m.play(rng.choice(m.prompt.moves).id)
    bad = saves.save(Match.new("notre-dame", [Seat("Edna"), Seat("Fay")]), folder / "bad.toml")
    bad.write_text(bad.read_text().replace('"Edna"', '"Ed\\u001b]2;owned\\u0007na"'))
    (folder / "title\x1b]0;pwned\x07.toml").write_text("not a save")
    saves.save(m, folder / "hostile.toml")  # the latest: what Continue opens
    server = Served(folder)
    try:
        with closing(chromium.new_context(viewport={"width": 1000, "height": 700})) as browser:
            page = browser.new_page()
            screen = Screen(page)
            happened: list[str] = []
            page.on("pageerror", lambda error: happened.append(f"error: {error}"))
            page.on("dialog", lambda dialog: happened.append(f"dialog: {dialog.message}"))
            browser.on("page", lambda popup: happened.append(f"page: {popup.url}"))
            page.goto(server.url)
            at = screen.wait_for("New game")
            page.keyboard.press("l")  # the load list: the files and their players
            at = screen.wait_for("hostile.toml", at)
            page.keyboard.press("Escape")
            at = screen.wait_for("New game", at)
            page.keyboard.press("c")  # continue the hostile game: its hand-over, then the board
            at = screen.wait_for("Show my turn", at)
            page.keyboard.press("Enter")
            screen.wait_for("Undo", at)  # the board, its log and prompt say whose turn it is
            page.keyboard.press("q")
            screen.wait_for("New game", at)

            raw = screen.text
            assert "pwned\x07" not in raw and "owned\x07" not in raw and "\x1b]0;" not in raw
            shown = screen.plain()
            assert "title]0;pwned.toml" in shown and "bad.toml" in shown
            for name in names:
                assert name in shown, name
            assert assert_literal("web page", shown, 3) > 5  # no escape, no markup read
            assert page.title() == "boardgames-tui"
            assert page.locator("img, b").count() == 0  # no name became an element
            assert happened == []
        code, _, err = server.stop()
        assert code == 0, err
        assert saves.load(folder / "hostile.toml").cursor == m.cursor
    finally:
        server.kill()


def run_apart(client: Coroutine[Any, Any, None]) -> None:
    """Run an asyncio client in a thread of its own: the browser's driver (the module's
    Chromium) keeps an event loop running in this one, and pytest-asyncio cannot run there."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, client).result()


def test_tabs_are_limited_per_address_and_in_all_and_a_full_server_says_so(
    tmp_path: Path,
) -> None:
    run_apart(tabs_limited(tmp_path))


def test_a_server_with_all_its_tabs_open_says_so(tmp_path: Path) -> None:
    run_apart(all_tabs_open(tmp_path))


async def tabs_limited(tmp_path: Path) -> None:
    """--max-tabs-per-address 2: a third tab from this address gets one line (the page, and
    a websocket opened anyway), and no app; once a tab closes, another opens."""
    server = Served(tmp_path / "saves", "--max-tabs-per-address", "2", "--max-tabs", "3")
    try:
        async with aiohttp.ClientSession() as http:
            tabs = [await http.ws_connect(server.url + "ws?width=80&height=24") for _ in range(2)]
            for ws in tabs:
                seen = ""
                while "New game" not in seen:
                    seen += (await ws.receive(timeout=GUARD)).data.decode("utf-8", "replace")
            async with http.get(server.url) as page:
                said = await page.text()
            assert page.status == 503
            assert said == (
                "boardgames-tui: your address has 2 tabs open, as many as this server allows: "
                "close one, then reload this page\n"
            )
            extra = await http.ws_connect(server.url + "ws?width=80&height=24")
            first = await extra.receive(timeout=GUARD)
            assert b"your address has 2 tabs open" in first.data
            closed = await extra.receive(timeout=GUARD)
            assert closed.type == aiohttp.WSMsgType.CLOSE and closed.data == 1013
            assert len(app_processes(server.proc.pid)) == 2
            await tabs[0].close()
            while len(app_processes(server.proc.pid)) > 1:
                await asyncio.sleep(0.05)
            async with http.get(server.url) as page:
                assert page.status == 200
        code, _, err = server.stop()
        assert code == 0 and "refused a tab from 127.0.0.1" in err
    finally:
        server.kill()


async def all_tabs_open(tmp_path: Path) -> None:
    """--max-tabs 1: a second tab, from any address, gets one line."""
    server = Served(tmp_path / "saves", "--max-tabs", "1")
    try:
        async with aiohttp.ClientSession() as http:
            tab = await http.ws_connect(server.url + "ws?width=80&height=24")
            seen = ""
            while "New game" not in seen:
                seen += (await tab.receive(timeout=GUARD)).data.decode("utf-8", "replace")
            async with http.get(server.url) as page:
                assert page.status == 503
                assert (await page.text()).startswith(
                    "boardgames-tui: this server has 1 tab open, as many as it allows"
                )
            await tab.close()
        assert server.stop()[0] == 0
    finally:
        server.kill()
