"""Put the dev pieces together: the site read, HTTP server thread, watcher thread, terminal output, shutdown."""

from __future__ import annotations

import contextlib
import ipaddress
import os
import signal
import threading
import time
import webbrowser
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from docsgen.common.errors import DocsgenError, Severity
from docsgen.dev.incremental import DevSite
from docsgen.dev.server import DevHTTPServer, ReloadHub, bind
from docsgen.dev.snapshot import Update
from docsgen.dev.watch import Watcher

Echo = Callable[[str], None]


def _quiet(_: str) -> None:
    """Print nothing (tests)."""


@dataclass
class DevApp:
    """A running dev server: the build state, the HTTP server and the watcher."""

    dev: DevSite
    hub: ReloadHub
    server: DevHTTPServer
    watcher: Watcher | None
    echo: Echo = _quiet
    threads: list[threading.Thread] = field(default_factory=list)

    @property
    def url(self) -> str:
        return self.server.url

    def report(self, update: Update) -> None:
        """Print a rebuild's result and tell the open pages."""
        self.hub.publish(update)
        if update.kind == "none":
            return
        self.echo(update.describe())
        for d in update.errors:
            self.echo(d.format())
        warnings = [d for d in update.warnings if d.severity is Severity.WARNING]
        if update.kind == "full" and warnings:
            self.echo(f"{len(warnings)} warning(s) (docsgen build lists them)")
        elif warnings:
            for d in warnings:
                self.echo(d.format())

    def stop(self) -> None:
        """Stop watching and serving: open event streams end, a rebuild in progress is abandoned.

        Nothing here waits on a rebuild: the build state is closed first, which kills a Pagefind run it is
        waiting for and stops it between pages.
        """
        if self.watcher:
            self.watcher.stop_event.set()
        self.dev.close()
        self.hub.close()  # event streams end now, not at their next ping
        if any(thread.is_alive() for thread in self.threads):
            self.server.shutdown()  # (waits for serve_forever, so only when it runs)
        self.server.server_close()
        if self.watcher:
            self.watcher.stop()
        for thread in self.threads:
            thread.join(timeout=5)


def start(
    docs_dir: Path,
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    next_free_port: bool = False,
    watch: bool = True,
    echo: Echo = _quiet,
    force_polling: bool | None = None,
    allow_hosts: Iterable[str] = (),
    integrations: bool = False,
    workers: int | None = None,
) -> DevApp:
    """Read the site, bind the server and start serving and watching in background threads.

    Pages are not rendered first: each renders when first asked for, the others in the background
    (docsgen.dev.background).

    allow_hosts: host names the server answers to besides its address and the loopback names (--allow-host).
    integrations: keep docs.json integrations (analytics, chat) in served pages (--with-integrations).
    workers: render processes of the background pass (--workers; None: one per CPU, as docsgen build).
    """
    docs_dir = Path(docs_dir)
    if not docs_dir.is_dir():
        raise DocsgenError(f"docs folder '{docs_dir}' does not exist")
    dev = DevSite(
        docs_dir, docs_dir / "_site", lazy=True, workers=workers
    )  # pages render when asked for, the rest in the background
    dev.on_background = echo
    hub = ReloadHub()
    server = bind(host, port, dev, hub, next_free=next_free_port, allow_hosts=allow_hosts)
    server.integrations = integrations
    app = DevApp(dev, hub, server, None, echo)
    try:  # Ctrl-C (or an error) at any point leaves nothing running
        first = dev.build()
        hub.generation = first.generation
        app.report(first)
        thread = threading.Thread(target=server.serve_forever, name="docsgen-dev-http", daemon=True)
        app.threads.append(thread)
        thread.start()
        if watch:
            app.watcher = Watcher(dev, app.report, force_polling=force_polling)
            app.watcher.start()
    except BaseException:
        app.stop()
        raise
    return app


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


_OWNER = 0  # the process that installed _interrupt (render workers forked from it inherit the handler)


def _interrupt(signum: int, frame: object) -> None:
    """Turn SIGINT and SIGTERM into the KeyboardInterrupt that ends the serve loop (in the process that set it)."""
    if os.getpid() != _OWNER:
        return
    raise KeyboardInterrupt


@contextlib.contextmanager
def _stop_signals() -> Iterator[None]:
    """Make Ctrl-C and `kill` stop the server, from the first build on; the old handlers come back after.

    SIGINT gets a handler even when it was ignored: a process started in the background by a script
    inherits an ignored SIGINT, and Python then never raises KeyboardInterrupt: such a server could only be
    stopped with SIGKILL.
    """
    if threading.current_thread() is not threading.main_thread():
        yield  # signal handlers can only be set in the main thread
        return
    global _OWNER
    _OWNER = os.getpid()
    previous = {sig: signal.signal(sig, _interrupt) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            if handler is not None:  # None: set outside Python, cannot be put back
                signal.signal(sig, handler)


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def run(
    docs_dir: Path,
    *,
    host: str = "127.0.0.1",
    port: int = 3000,
    open_browser: bool = False,
    next_free_port: bool = False,
    allow_hosts: Iterable[str] = (),
    integrations: bool = False,
    workers: int | None = None,
    echo: Echo = print,
) -> None:
    """Serve until Ctrl-C: the command behind `docsgen dev`."""
    if not _is_loopback(host):
        echo(f"warning: listening on {host}: other machines can read this preview and use its API proxy")
    with _stop_signals():
        app: DevApp | None = None
        try:
            app = start(
                docs_dir,
                host=host,
                port=port,
                next_free_port=next_free_port,
                echo=echo,
                allow_hosts=allow_hosts,
                integrations=integrations,
                workers=workers,
            )
            actual = app.server.server_address[1]
            if port and actual != port:
                echo(f"port {port} is in use; using {actual} instead")
            echo(f"Serving {Path(docs_dir).resolve()} at {app.url} (Ctrl-C to stop)")
            if open_browser:
                webbrowser.open(app.url)
            while True:
                # Short sleeps: a signal the kernel hands to another thread only marks it pending, and the
                # main thread runs the handler when it next wakes.
                time.sleep(1)
        except KeyboardInterrupt:
            if app is not None:  # (during the first build start() has already stopped what it began)
                echo("stopping...")
        finally:
            if app is not None:
                app.stop()
        echo("stopped")
