"""The dev site's turns: one lock held by rebuilds, page requests and the background pass, a turn at a time.

Requests and rebuilds take their turn as soon as the lock is free (urgent); the background pass renders a few
pages a turn and gives way whenever someone is waiting, so a page asked for is rendered at once however big the
site.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator


class Turns:
    """A re-entrant lock that background work gives way to: `with turns:` takes a turn (the pass, a full build);
    `with turns.urgent():` takes one ahead of the pass (requests, rebuilds)."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._waiting = 0  # urgent turns waiting for the lock
        self._count = threading.Lock()

    def __enter__(self) -> Turns:
        self._lock.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self._lock.release()

    @contextlib.contextmanager
    def urgent(self) -> Iterator[None]:
        """Hold the lock, asking the background pass to give way (it does after its current page)."""
        with self._count:
            self._waiting += 1
        try:
            self._lock.acquire()
        finally:
            with self._count:
                self._waiting -= 1
        try:
            yield
        finally:
            self._lock.release()

    @property
    def wanted(self) -> bool:
        """Tell whether an urgent turn is waiting (the background pass ends its turn)."""
        return self._waiting > 0

    def give_way(self, going_on: Callable[[], bool]) -> None:
        """Wait while an urgent turn waits (it gets the lock first), as long as going_on() holds."""
        while self._waiting and going_on():
            time.sleep(0.001)
