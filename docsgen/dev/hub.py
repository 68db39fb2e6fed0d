"""Live-reload events: each rebuild's numbered change event, for the pages' event streams to wait on."""

from __future__ import annotations

import secrets
import threading
from collections import deque

from docsgen.dev.snapshot import Update

HISTORY = 200


class ReloadHub:
    """Numbered change events that SSE streams wait on; late connections replay what they missed."""

    def __init__(self, generation: int = 0) -> None:
        self.cond = threading.Condition()
        self.events: deque[dict] = deque(maxlen=HISTORY)
        self.generation = generation
        self.closed = False
        self.run = secrets.token_hex(6)  # pages served by an earlier run of the server reload on connect

    def publish(self, update: Update) -> None:
        """Announce a finished rebuild to every open page."""
        if update.kind == "none":
            return
        event = {
            "generation": update.generation,
            "reload": "*" if update.reload is None else sorted(update.reload),
            "css": update.css,
        }
        with self.cond:
            self.events.append(event)
            self.generation = update.generation
            self.cond.notify_all()

    def since(self, generation: int) -> list[dict]:
        """Return the events after a generation (one reload-everything event if history is too short)."""
        with self.cond:
            if generation >= self.generation:
                return []
            missed = [e for e in self.events if e["generation"] > generation]
            if not missed or missed[0]["generation"] != generation + 1:
                return [{"generation": self.generation, "reload": "*", "css": []}]
            return missed

    def wait(self, generation: int, timeout: float) -> list[dict]:
        """Block until something newer than `generation` happens (or the timeout, or close)."""
        with self.cond:
            self.cond.wait_for(lambda: self.generation > generation or self.closed, timeout)
        return self.since(generation)

    def close(self) -> None:
        """Wake every stream so the server can stop."""
        with self.cond:
            self.closed = True
            self.cond.notify_all()
