"""The web server of `boardgames-tui web`, built on textual-serve.

Each browser tab opens a websocket; each websocket gets its own app process (`boardgames_tui.web.app`),
started in its own session so that Ctrl+C in the server's terminal reaches only the server,
which then quits every app and waits for it: stopping leaves no app process behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import getpass
import ipaddress
import logging
import shlex
import signal
import socket
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import aiohttp_jinja2
from aiohttp import hdrs, web
from textual_serve.app_service import AppService
from textual_serve.server import Server

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
TITLE = "boardgames-tui"
WILDCARDS = ("", "0.0.0.0", "::")  # --host values that listen on every address
QUIT_GRACE = 5.0  # seconds an app has to quit by itself before it is terminated
MAX_TABS = 16  # tabs (an app process each) open at once, in all
MAX_TABS_PER_ADDRESS = 4  # and from one address
FULL_CLOSE = 1013  # a websocket's close code: try again later

log = logging.getLogger("boardgames-tui.web")


class WebError(Exception):
    """The server cannot start as asked (a busy port, an address not on this machine)."""


def is_loopback(host: str) -> bool:
    """True for `localhost` and the addresses only this machine can reach."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def host_name(host: str) -> str:
    """The name in a Host header (or a --host / --allow-host value), without port or brackets,
    lower-case, without a final dot: `[::1]:8000` -> `::1`, `Games.Example.:80` -> `games.example`."""
    host = host.strip()
    if host.startswith("["):
        name = host[1:].split("]", 1)[0]
    elif host.count(":") == 1:
        name = host.split(":", 1)[0]
    else:
        name = host  # a bare name or IPv6 address
    return name.lower().rstrip(".")


def check_allowed_host(name: str) -> str:
    """A `--allow-host` value: a host name or address without scheme, port or path."""
    text = name.strip()
    bare = text[1:-1] if text.startswith("[") and text.endswith("]") else text
    if _is_address(bare):
        return host_name(bare)
    if not text or any(c in text for c in "/@:[]\\ \t"):
        raise WebError(
            f"--allow-host {name!r}: give a host name or address as a browser's address bar "
            "shows it, without http:// or a port, e.g. --allow-host games.example"
        )
    return host_name(text)


def _is_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def url_for(host: str, port: int) -> str:
    """The address a browser on this machine (or elsewhere, for a public host) opens."""
    if host in WILDCARDS:
        host = socket.gethostname()
    elif ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def _die_with_parent() -> None:
    """In the app process before it runs: end it (SIGTERM) if the server dies unannounced.

    Textual's web driver quits the app cleanly on SIGTERM. Linux only; elsewhere a killed
    server's apps end when they next write to the closed pipe.
    """
    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)


class TabApp(AppService):
    """The app process of one browser tab."""

    def __init__(self, argv: Sequence[str], **kwargs: Any) -> None:
        super().__init__(shlex.join(argv), **kwargs)
        self.argv = list(argv)

    async def _open_app_process(
        self, width: int = 80, height: int = 24
    ) -> asyncio.subprocess.Process:
        # No shell in between, and a session of its own: see the module docstring.
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=self._build_environment(width=width, height=height),
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    @property
    def process(self) -> asyncio.subprocess.Process | None:
        return self._process


class WebServer(Server):
    """textual-serve's server with a page that loads nothing from elsewhere, addresses taken
    from the request (so a page opened through any name of this host works), and a shutdown
    that quits every tab's app."""

    def __init__(
        self,
        app_argv: Sequence[str],
        host: str,
        port: int,
        allow_hosts: Sequence[str] = (),
        max_tabs: int = MAX_TABS,
        max_tabs_per_address: int = MAX_TABS_PER_ADDRESS,
    ) -> None:
        super().__init__(
            shlex.join(app_argv),
            host=host,
            port=port,
            title=TITLE,
            templates_path=Path(__file__).parent,
        )
        self.app_argv = list(app_argv)
        self.tabs: set[TabApp] = set()
        self.max_tabs, self.max_tabs_per_address = max_tabs, max_tabs_per_address
        self.tabs_of: dict[str, int] = {}  # tabs open per address
        # the names a browser may ask for (the Host header), besides loopback and addresses
        self.allowed = [host_name(n) for n in allow_hosts]
        # the name `url_for` prints, on every address; or the one address it serves
        self.own = host_name(socket.gethostname()) if host in WILDCARDS else host_name(host)
        self.names = {self.own, *self.allowed}

    def initialize_logging(self) -> None:
        # errors only: textual-serve's banner and aiohttp's access log are not for players
        logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")

    async def on_startup(self, app: web.Application) -> None:
        """Nothing: `run` says where the server is once it listens."""

    def refusal(self, request: web.Request) -> str | None:
        """Why a request must be refused, said once on the server's console; None to answer.

        A browser tab's app can write files (save as…), so only pages this server served may
        connect: another site's page open in the same browser may not (its websocket carries
        that site's Origin), nor a page of a name that merely resolves to this machine (DNS
        rebinding: its Origin matches its Host, which names none of this server's addresses).
        """
        host = request.headers.get(hdrs.HOST)
        origin = request.headers.get(hdrs.ORIGIN)
        if host is None:
            why = "refused a request without a Host header"
        elif not self.answers_to(host_name(host), request):
            why = (
                f"refused a request for {host!r}: not a name of this server "
                f"(it answers to {', '.join(self.names_shown())}; "
                f"to serve this name too, add --allow-host {host_name(host) or 'NAME'})"
            )
        elif origin and origin.split("://", 1)[-1].lower() != host.lower():
            why = f"refused a connection from a page of {origin}: not a page of this server"
        else:
            return None
        log.warning(why)
        return why

    def answers_to(self, name: str, request: web.Request) -> bool:
        """True if a browser that asked for `name` asked for this server: a loopback name, a
        name given with --host or --allow-host, the machine's name on a wildcard binding, or
        the very address the connection came in on (an address, unlike a name, cannot be
        rebound)."""
        if not name:
            return False
        if is_loopback(name) or name in self.names:
            return True
        try:
            asked = ipaddress.ip_address(name)
        except ValueError:
            return False
        sockname = request.transport.get_extra_info("sockname") if request.transport else None
        if not sockname:
            return False
        try:
            local = ipaddress.ip_address(sockname[0].split("%", 1)[0])
        except ValueError:
            return False
        if isinstance(local, ipaddress.IPv6Address) and local.ipv4_mapped is not None:
            local = local.ipv4_mapped
        return asked == local

    def names_shown(self) -> list[str]:
        """The names to suggest in a refusal (the server's own, then the allowed ones)."""
        shown = ["localhost", "127.0.0.1", self.own]
        if self.host in WILDCARDS:
            shown.append("this machine's addresses")
        return list(dict.fromkeys([*shown, *self.allowed]))

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.middlewares.append(self._guard)
        return app

    @web.middleware
    async def _guard(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """Every request (the page, its websocket, its files, downloads) is checked first."""
        if why := self.refusal(request):
            raise web.HTTPForbidden(text=f"boardgames-tui: {why}\n")
        response: web.StreamResponse = await handler(request)
        return response

    def full(self, request: web.Request) -> str | None:
        """Why another tab may not open now (the server's, or this address's, tabs are all
        open), as one line for the browser; None if it may."""
        if len(self.tabs) >= self.max_tabs:
            return (
                f"boardgames-tui: this server has {_tabs(self.max_tabs)} open, as many as it "
                "allows: try again when one is closed"
            )
        if self.tabs_of.get(request.remote or "?", 0) >= self.max_tabs_per_address:
            return (
                f"boardgames-tui: your address has {_tabs(self.max_tabs_per_address)} open, "
                "as many as this server allows: close one, then reload this page"
            )
        return None

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        """The page, or one line saying the server (or this address) has its tabs open."""
        why = self.full(request)
        if why is not None:
            log.warning(f"refused a tab from {request.remote}: {why.split(': ', 1)[1]}")
            return web.Response(status=503, text=why + "\n", headers={"Retry-After": "30"})
        return await self._page(request)

    @aiohttp_jinja2.template("index.html")
    async def _page(self, request: web.Request) -> dict[str, Any]:
        """The page: a terminal that connects to `/ws` on the host the browser asked for."""
        font_size = request.query.get("fontsize", "16")
        scheme = "wss" if request.secure else "ws"
        return {
            "font_size": int(font_size) if font_size.isdigit() else 16,
            "app_websocket_url": f"{scheme}://{request.host}/ws",
            "config": {"static": {"url": "/static/"}},
            "application": {"name": TITLE},
        }

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """One tab: start its app at the browser's size and relay keys, sizes and screens."""
        websocket = web.WebSocketResponse(heartbeat=15)
        why = self.full(request)
        if why is not None:  # the page was served, but the tabs filled up meanwhile
            log.warning(f"refused a tab from {request.remote}: {why.split(': ', 1)[1]}")
            await websocket.prepare(request)
            await websocket.send_bytes(f"\r\n{why}\r\n".encode())
            await websocket.close(code=FULL_CLOSE, message=why[:120].encode())
            return websocket
        address = request.remote or "?"
        self.tabs_of[address] = self.tabs_of.get(address, 0) + 1
        query = request.query
        width = int(query["width"]) if query.get("width", "").isdigit() else 80
        height = int(query["height"]) if query.get("height", "").isdigit() else 24
        tab: TabApp | None = None
        try:
            await websocket.prepare(request)
            tab = TabApp(
                self.app_argv,
                write_bytes=websocket.send_bytes,
                write_str=websocket.send_str,
                close=websocket.close,
                download_manager=self.download_manager,
            )
            self.tabs.add(tab)
            await tab.start(width, height)
            await self._process_messages(websocket, tab)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:  # a tab's failure must not stop the server
            log.exception(error)
        finally:
            if tab is not None:
                await tab.stop()
                self.tabs.discard(tab)
            self.tabs_of[address] -= 1
            if not self.tabs_of[address]:
                del self.tabs_of[address]
        return websocket

    async def quit_apps(self, grace: float = QUIT_GRACE) -> None:
        """Ask every tab's app to quit (each autosaves every move), then end any that lingers."""
        tabs = [t for t in self.tabs if t.process is not None]
        for tab in tabs:
            await tab.send_meta({"type": "quit"})
        procs = [t.process for t in tabs if t.process is not None]
        if not procs:
            return
        waits = asyncio.gather(*(p.wait() for p in procs))
        try:
            await asyncio.wait_for(waits, grace)
        except TimeoutError:
            for p in procs:
                if p.returncode is None:
                    with contextlib.suppress(ProcessLookupError):
                        p.kill()
            await asyncio.gather(*(p.wait() for p in procs))

    async def run(self, on_ready: Callable[[int], None]) -> None:
        """Listen, call `on_ready(port)`, serve until SIGINT or SIGTERM, then stop cleanly."""
        runner = web.AppRunner(await self._make_app(), handle_signals=False, shutdown_timeout=3)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        try:
            await site.start()
        except OSError as exc:
            await runner.cleanup()
            raise WebError(self._bind_error(exc)) from None
        port = self.port
        for address in runner.addresses:
            if isinstance(address, tuple):
                port = address[1]
                break
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        on_ready(port)
        try:
            await stop.wait()
        finally:
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.remove_signal_handler(sig)
            await self.quit_apps()
            await runner.cleanup()

    def _bind_error(self, exc: OSError) -> str:
        where = f"{self.host}:{self.port}"
        if exc.errno == errno.EADDRINUSE:
            return (
                f"port {self.port} on {self.host} is already in use (another server?): "
                f"stop that or choose another port with --port"
            )
        if exc.errno == errno.EADDRNOTAVAIL:
            return f"cannot serve on {where}: {self.host} is not an address of this machine"
        if exc.errno == errno.EACCES:
            return f"cannot serve on {where}: permission denied (ports below 1024 need root)"
        return f"cannot serve on {where}: {exc.strerror or exc}"


def _tabs(n: int) -> str:
    return f"{n} tab{'' if n == 1 else 's'}"


def _user_name() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "the user who started it"


def exposure_warning(host: str, user: str | None = None) -> str | None:
    """What to tell whoever serves beyond this machine: there is no login."""
    if is_loopback(host):
        return None
    user = user or _user_name()
    return (
        f"warning: serving on {host}: there is no login. Anyone who can reach this address "
        f"plays as {user}, with this account's saves and {user}'s seats at shared tables."
    )


def serve(
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    *,
    saves: str | None = None,
    think: float | None = None,
    bot_delay: float | None = None,
    user: str | None = None,
    store: str | None = None,
    allow_hosts: Sequence[str] = (),
    max_tabs: int = MAX_TABS,
    max_tabs_per_address: int = MAX_TABS_PER_ADDRESS,
) -> int:
    """Serve the app until Ctrl+C; raises WebError if it cannot listen."""
    from boardgames_tui.web.app import command

    if not 0 <= port <= 65535:
        raise WebError(f"--port {port}: give a port between 1 and 65535 (0: any free port)")
    if max_tabs < 1 or max_tabs_per_address < 1:
        raise WebError("--max-tabs and --max-tabs-per-address must be at least 1")
    names = [check_allowed_host(n) for n in allow_hosts]
    server = WebServer(
        command(saves, think, bot_delay, user, store),
        host,
        port,
        names,
        max_tabs,
        max_tabs_per_address,
    )
    server.initialize_logging()

    def ready(actual_port: int) -> None:
        warning = exposure_warning(host, user)
        if warning:
            print(warning, file=sys.stderr, flush=True)
        print(
            f"boardgames-tui is served at {url_for(host, actual_port)}\n"
            "Open it in a browser: each tab plays its own game. Press Ctrl+C to stop.",
            flush=True,
        )

    asyncio.run(server.run(ready))
    print("Stopped: every game is autosaved.", flush=True)
    return 0
