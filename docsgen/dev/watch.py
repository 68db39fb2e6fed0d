"""Watch the docs folder and the themes with watchfiles: debounced batches, editor temp files ignored."""

from __future__ import annotations

import re
import threading
import traceback
from collections.abc import Callable
from pathlib import Path

from watchfiles import Change, watch

from docsgen.common.resources import themes_dir
from docsgen.dev.incremental import BuildCancelled, DevSite
from docsgen.dev.snapshot import Update
from docsgen.sources.walk import IGNORED_DIRS

# Files editors write next to the real one while saving: swap, backup, lock and atomic-save temp files.
_TEMP_FILE = re.compile(
    r"""(
        \.sw[a-px]$ | ~$ | ^\.\#.* | ^\#.*\#$ | ^4913$ | \.tmp$ | \.temp$ | \.crswap$ | \.kate-swp$
      | ___jb_(tmp|old)___$ | ^\.goutputstream- | ^\.DS_Store$ | ^Thumbs\.db$ | \.part$ | \.crdownload$
      | \.py[cod]$ | ^flycheck_
    )""",
    re.X,
)
_KEEP_DOTFILES = frozenset({".mintignore", ".docsgenignore"})
DEBOUNCE_MS = 400  # longest wait to group a burst of events
STEP_MS = 20  # quiet time that ends a batch: keeps save-to-reload fast
READY_TIMEOUT_MS = 200


def is_temp_file(name: str) -> bool:
    """Tell whether a file name is an editor's temporary or swap file."""
    return bool(_TEMP_FILE.search(name))


def make_filter(dev: DevSite) -> Callable[[Change, str], bool]:
    """Return the watchfiles filter: no temp files, no ignored folders, no build output."""
    out_dir = dev.out_dir

    def keep(change: Change, raw: str) -> bool:
        path = Path(raw)
        if is_temp_file(path.name):
            return False
        if path.name.startswith(".") and path.name not in _KEEP_DOTFILES:
            return False
        if any(part in IGNORED_DIRS for part in path.parts[:-1]):
            return False
        return not (out_dir and path.is_relative_to(out_dir))

    return keep


def watched_paths(dev: DevSite) -> list[Path]:
    """Return the folders to watch: the docs folder, the themes, and config parts stored elsewhere."""
    paths = [dev.docs_dir, themes_dir().resolve()]
    if dev.site is not None:
        for rel in dev.site.config.files:
            path = (dev.docs_dir / rel).resolve()
            if not any(path.is_relative_to(p) for p in paths) and path.exists():
                paths.append(path)
    return paths


class Watcher:
    """A background thread turning batches of file events into rebuilds."""

    def __init__(
        self,
        dev: DevSite,
        on_update: Callable[[Update], None],
        *,
        debounce_ms: int = DEBOUNCE_MS,
        step_ms: int = STEP_MS,
        force_polling: bool | None = None,
    ) -> None:
        self.dev = dev
        self.on_update = on_update
        self.debounce_ms = debounce_ms
        self.step_ms = step_ms
        self.force_polling = force_polling
        self.stop_event = threading.Event()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, name="docsgen-dev-watch", daemon=True)

    def start(self) -> Watcher:
        """Start watching; returns once the watcher is running."""
        self.thread.start()
        self.ready.wait(5)
        return self

    def stop(self) -> None:
        """Stop the watcher thread."""
        self.stop_event.set()
        self.thread.join(timeout=5)

    def _run(self) -> None:
        try:
            self._watch()
        except BuildCancelled:
            pass  # the server is stopping: the rebuild in progress was abandoned
        except Exception as exc:  # noqa: BLE001 - e.g. the inotify watch limit: say so instead of dying silently
            print(f"error: file watching stopped: {exc}; restart docsgen dev to pick up changes", flush=True)
            self.ready.set()

    def _watch(self) -> None:
        # A short rust timeout with yield_on_timeout makes the first (empty) batch arrive once the OS
        # watches are in place, so start() returns only when no save can be missed.
        for changes in watch(
            *watched_paths(self.dev),
            watch_filter=make_filter(self.dev),
            debounce=self.debounce_ms,
            step=self.step_ms,
            stop_event=self.stop_event,
            rust_timeout=READY_TIMEOUT_MS,
            yield_on_timeout=True,
            raise_interrupt=False,
            force_polling=self.force_polling,
        ):
            self.ready.set()
            if not changes:
                continue
            paths = {Path(raw) for _, raw in changes}
            try:
                update = self.dev.apply(paths)
            except Exception:  # noqa: BLE001 - never let a bug stop the watcher: print it and keep going
                traceback.print_exc()
                continue
            if self.stop_event.is_set():
                return  # stopping: the pages are going away, tell them nothing
            self.on_update(update)
