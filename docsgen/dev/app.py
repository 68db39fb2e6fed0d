"""Put the dev pieces together: first build, HTTP server thread, watcher thread, terminal output, shutdown."""

from __future__ import annotations

import ipaddress
import signal
import threading
import time
import webbrowser
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from docsgen.dev.incremental import DevSite
from docsgen.dev.server import DevHTTPServer, ReloadHub, bind
from docsgen.dev.snapshot import Update
from docsgen.dev.watch import Watcher
from docsgen.errors import DocsgenError, Severity

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
        """Stop watching and serving; open event streams end too."""
        if self.watcher:
            self.watcher.stop()
        self.server.shutdown()
        self.server.server_close()
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
) -> DevApp:
    """Build the site, bind the server and start serving and watching in background threads."""
    docs_dir = Path(docs_dir)
    if not docs_dir.is_dir():
        raise DocsgenError(f"docs folder '{docs_dir}' does not exist")
    dev = DevSite(docs_dir, docs_dir / "_site")
    hub = ReloadHub()
    server = bind(host, port, dev, hub, next_free=next_free_port)
    try:
        first = dev.build()
    except BaseException:
        server.server_close()
        raise
    hub.generation = first.generation
    app = DevApp(dev, hub, server, None, echo)
    app.report(first)
    thread = threading.Thread(target=server.serve_forever, name="docsgen-dev-http", daemon=True)
    thread.start()
    app.threads.append(thread)
    if watch:
        app.watcher = Watcher(dev, app.report, force_polling=force_polling).start()
    return app


def _interrupt(signum: int, frame: object) -> None:
    """Turn SIGTERM into the KeyboardInterrupt that ends the serve loop."""
    raise KeyboardInterrupt


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
    echo: Echo = print,
) -> None:
    """Serve until Ctrl-C: the command behind `docsgen dev`."""
    if not _is_loopback(host):
        echo(f"warning: listening on {host}: other machines can read this preview and use its API proxy")
    app = start(docs_dir, host=host, port=port, next_free_port=next_free_port, echo=echo)
    actual = app.server.server_address[1]
    if port and actual != port:
        echo(f"port {port} is in use; using {actual} instead")
    echo(f"Serving {Path(docs_dir).resolve()} at {app.url} (Ctrl-C to stop)")
    if open_browser:
        webbrowser.open(app.url)
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _interrupt)  # `kill` stops as cleanly as Ctrl-C
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        echo("stopping...")
    finally:
        app.stop()
    echo("stopped")
