"""Component answers remembered by what they depend on, so a component used the same way on many pages runs once.

A page's components run in a realm of their own, forked from the loaded engine, one call after another. What a
call answers depends only on the calls before it in that realm and on the call itself: the module code reachable
from the module it is called in (code, by its whole SHA-256, free names, imports; module ids and file paths play no part beyond which
module is which), the export's name and the props (children travel as placeholders). `RealmCalls.key` digests
exactly that as a chain, one link per call, and a call whose digest was answered before (on another page: another
version or language of it) takes that answer without a realm or a round trip to the sandbox. The realm then lags
behind the calls answered so: before the next call that has to run, those calls run first (their answers are
dropped), so that call sees the realm it would have seen. Answers with an error are not kept (their messages name
files). Bounded per process by entries and characters.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from docsgen.mdx.react.modules import Loader, Module

MAX_ENTRIES = 4096
MAX_CHARS = 32_000_000  # characters of remembered answers in one process
MAX_ENTRY_CHARS = 1_000_000  # a larger answer is not kept


class RealmCalls:
    """The calls made in one realm: their chain digest, the realm's modules numbered in the order the calls met
    them, and the calls answered from memory that have not run in the realm yet."""

    def __init__(self) -> None:
        self.digest = ""
        self.numbers: dict[str, int] = {}
        self.unrun: list[tuple[str, str, str]] = []  # (module id, export, props JSON)

    def key(self, loader: Loader, module: Module, export: str, props_json: str) -> tuple[str, dict[str, int]]:
        """The digest of a call after the calls so far, and the module numbers it adds (for `advance`).

        Modules new to the realm are written out (code, free names, imports as numbers); modules met before are
        their number only: their code was in an earlier link, and their state is what the earlier calls left."""
        numbers = dict(self.numbers)
        new: list[Any] = []

        def visit(mod: Module) -> int:
            if mod.id in numbers:
                return numbers[mod.id]
            numbers[mod.id] = number = len(numbers)
            # the code by its digest, made once per process per text (modules.compiled_source): not hashed again
            entry: list[Any] = [number, mod.code_digest or mod.code, mod.names]
            new.append(entry)
            deps: list[Any] = []
            for spec, dep in mod.deps.items():
                if isinstance(dep, dict):
                    named = {k: v for k, v in dep.items() if k != "__module"}
                    deps.append([spec, named, ref(dep.get("__module"))])
                else:
                    deps.append([spec, ref(dep)])
            entry.append(deps)
            return number

        def ref(target: Any) -> Any:
            if isinstance(target, str) and target in loader.modules:
                return visit(loader.modules[target])
            return ["unloaded", target]  # an error when called: such answers are not kept

        entry = visit(module)
        text = json.dumps([self.digest, new, entry, export, props_json], ensure_ascii=False)
        digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        return digest, numbers

    def advance(self, key: tuple[str, dict[str, int]], call: tuple[str, str, str], ran: bool) -> None:
        """The call was made: it ran in the realm (ran) or was answered from memory (to run before the next)."""
        self.digest, self.numbers = key
        if not ran:
            self.unrun.append(call)


class RenderMemo:
    """Answers by call digest; oldest dropped first past the bounds."""

    def __init__(self) -> None:
        self.entries: OrderedDict[str, tuple[dict[str, Any], int]] = OrderedDict()
        self.chars = 0

    def get(self, key: str) -> dict[str, Any] | None:
        """The remembered answer (a copy: callers may change it), or None."""
        if key not in self.entries:
            return None
        self.entries.move_to_end(key)
        return copy.deepcopy(self.entries[key][0])

    def put(self, key: str, answer: dict[str, Any]) -> None:
        """Remember an answer without an error, within the bounds."""
        if "error" in answer:
            return
        size = len(json.dumps(answer, default=str))
        if size > MAX_ENTRY_CHARS:
            return
        old = self.entries.pop(key, None)
        if old is not None:
            self.chars -= old[1]
        self.entries[key] = (copy.deepcopy(answer), size)
        self.chars += size
        while self.entries and (len(self.entries) > MAX_ENTRIES or self.chars > MAX_CHARS):
            _, (_, dropped) = self.entries.popitem(last=False)
            self.chars -= dropped
