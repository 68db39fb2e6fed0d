"""Per-client token buckets, so one reader (or one script) cannot flood a project's feedback."""

from __future__ import annotations

import math
import threading
import time


class RateLimiter:
    """Allow `per_minute` requests per client per minute, in bursts of up to `per_minute`; 0 disables."""

    def __init__(self, per_minute: int, max_clients: int = 50_000):
        self.per_minute = per_minute
        self.max_clients = max_clients
        self._buckets: dict[str, tuple[float, float]] = {}  # client -> (tokens, last refill time)
        self._lock = threading.Lock()

    def check(self, client: str) -> float:
        """Take one token for `client`; return 0 when allowed, else the seconds to wait before retrying."""
        if self.per_minute <= 0:
            return 0.0
        rate = self.per_minute / 60.0
        now = time.monotonic()
        with self._lock:
            tokens, last = self._buckets.get(client, (float(self.per_minute), now))
            tokens = min(float(self.per_minute), tokens + (now - last) * rate)
            if tokens < 1.0:
                self._buckets[client] = (tokens, now)
                return (1.0 - tokens) / rate
            self._buckets[client] = (tokens - 1.0, now)
            if len(self._buckets) > self.max_clients:
                self._forget_full_buckets(now, rate)
            return 0.0

    def _forget_full_buckets(self, now: float, rate: float) -> None:
        """Drop clients whose bucket has refilled: they are indistinguishable from new ones."""
        for client, (tokens, last) in list(self._buckets.items()):
            if tokens + (now - last) * rate >= self.per_minute:
                del self._buckets[client]


def retry_after_header(seconds: float) -> dict[str, str]:
    """Return the Retry-After header for a wait, in whole seconds (at least 1)."""
    return {"Retry-After": str(max(1, math.ceil(seconds)))}
