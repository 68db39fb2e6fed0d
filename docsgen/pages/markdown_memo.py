"""The Markdown twin's per-process memo of converted components.

A versioned site repeats each page in every version and language, differing only in the version-prefixed links
of some blocks: a component written the same way (`<Tabs>...</Tabs>` with the same children) converts to the same
Markdown on every copy, so its conversion is remembered under its exact text and everything else the conversion
reads (whether it starts a block, how deep it is nested, the snippet names of its page, and the page's scope when
the text holds an expression). A conversion that inlined a snippet is not remembered (it read a file and used the
page's snippet budget), and links are resolved afterwards, per page, on the whole twin.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable

MAX_ENTRIES = 8192
MAX_CHARS = 16_000_000  # characters of remembered text (keys and answers) in one process
# a component whose key is longer (its text, its page's snippet names and scope) is converted every time
MAX_ENTRY_CHARS = 64 * 1024


class ComponentMemo:
    """Converted components by key; least recently used dropped first past the bounds."""

    def __init__(self, max_entries: int = MAX_ENTRIES, max_chars: int = MAX_CHARS) -> None:
        self.entries: OrderedDict[Hashable, tuple[str, int]] = OrderedDict()
        self.chars = 0
        self.max_entries = max_entries
        self.max_chars = max_chars

    def get(self, key: Hashable) -> str | None:
        """Return the remembered Markdown, or None."""
        entry = self.entries.get(key)
        if entry is None:
            return None
        self.entries.move_to_end(key)
        return entry[0]

    def put(self, key: Hashable, size: int, markdown: str) -> None:
        """Remember the Markdown of a component whose key holds `size` characters of text (within the bounds)."""
        if size > MAX_ENTRY_CHARS:
            return
        cost = size + len(markdown)
        old = self.entries.pop(key, None)
        if old is not None:
            self.chars -= old[1]
        self.entries[key] = (markdown, cost)
        self.chars += cost
        while self.entries and (len(self.entries) > self.max_entries or self.chars > self.max_chars):
            _, (_, dropped) = self.entries.popitem(last=False)
            self.chars -= dropped

    def clear(self) -> None:
        """Forget everything."""
        self.entries.clear()
        self.chars = 0


COMPONENTS = ComponentMemo()
