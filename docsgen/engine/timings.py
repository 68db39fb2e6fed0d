"""Stage timings of a build (`docsgen build --timings`): where the seconds went, measured, not guessed."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field


@dataclass
class Timings:
    """Wall seconds per named stage, in the order the stages first ran (a stage that runs twice adds up)."""

    stages: dict[str, float] = field(default_factory=dict)

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        """Time the block as stage `name`."""
        started = time.perf_counter()
        try:
            yield
        finally:
            self.stages[name] = self.stages.get(name, 0.0) + time.perf_counter() - started

    def table(self, total: float) -> str:
        """Return the stages as aligned lines with their share of the total, for the terminal."""
        width = max((len(name) for name in self.stages), default=5)
        lines = [
            f"{name:<{width}}  {seconds:7.3f} s  {100 * seconds / total if total else 0:5.1f}%"
            for name, seconds in self.stages.items()
        ]
        rest = total - sum(self.stages.values())
        lines.append(f"{'other':<{width}}  {rest:7.3f} s  {100 * rest / total if total else 0:5.1f}%")
        lines.append(f"{'total':<{width}}  {total:7.3f} s")
        return "\n".join(lines)
