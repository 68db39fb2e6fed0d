"""The embedded JavaScript engine (QuickJS): one per render process, reused, each call time- and memory-bounded."""

from __future__ import annotations

import json
import os
import re
import threading
from functools import cache
from pathlib import Path
from typing import Any

from docsgen.resources import themes_dir

SSR_BUNDLE = "react-ssr.min.js"
DRIVER = Path(__file__).resolve().with_name("driver.js")

TIME_LIMIT = float(os.environ.get("DOCSGEN_REACT_TIME_LIMIT", "2"))  # seconds per component call
MEMORY_LIMIT = 256 * 1024 * 1024  # bytes for the whole engine
STACK_LIMIT = 1024 * 1024  # bytes of native stack: deep recursion is an error, not a crash
_INPUT_LINE = re.compile(r"<input>:(\d+)")


class EngineUnavailable(RuntimeError):
    """The JavaScript engine's wheel is not installed on this platform."""


class JsError(Exception):
    """A JavaScript error: message, line in the module (0 when unknown) and the function it happened in."""

    def __init__(self, message: str, line: int = 0, column: int = 0, function: str = ""):
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.function = function


def _vendor_dir() -> Path:
    """The theme's vendor folder (a source checkout, or the installed docsgen.themes package)."""
    return themes_dir() / "base" / "static" / "vendor"


@cache
def engine_module() -> Any:
    """Return the quickjs module, or raise EngineUnavailable."""
    if os.environ.get("DOCSGEN_REACT") == "0":
        raise EngineUnavailable("DOCSGEN_REACT=0 turns the JavaScript engine off")
    try:
        import quickjs
    except ImportError as exc:
        raise EngineUnavailable(
            f"the quickjs package (docsgen's JavaScript engine) is not installed ({exc}): "
            "`pip install quickjs` to run them"
        ) from exc
    return quickjs


class Engine:
    """One QuickJS context with the vendored Preact server renderer and docsgen's driver loaded."""

    def __init__(self) -> None:
        quickjs = engine_module()
        self._quickjs = quickjs
        self.context = quickjs.Context()
        self.context.set_memory_limit(MEMORY_LIMIT)
        self.context.set_max_stack_size(STACK_LIMIT)
        self.context.eval((_vendor_dir() / SSR_BUNDLE).read_text(encoding="utf-8"))
        self.context.eval(DRIVER.read_text(encoding="utf-8"))
        self.defined: dict[str, str] = {}  # module id -> digest of the code defined under it
        self.compiled: dict[str, dict[str, Any]] = {}  # source digest -> compile result
        self.broken = False
        self.lock = threading.RLock()

    def _eval(self, expression: str) -> Any:
        """Evaluate JavaScript within the time limit; engine failures become JsError."""
        with self.lock:  # one context, one thread at a time (the dev server renders from several)
            return self._eval_locked(expression)

    def _eval_locked(self, expression: str) -> Any:
        self.context.set_time_limit(TIME_LIMIT)
        try:
            return self.context.eval(expression)
        except self._quickjs.StackOverflow as exc:
            raise JsError("RangeError: too much recursion (stack overflow)") from exc
        except self._quickjs.JSException as exc:
            text = str(exc)
            if "interrupted" in text:
                self.broken = True
                raise JsError(f"did not finish within {TIME_LIMIT:g} s (an endless loop?)") from exc
            if "out of memory" in text:
                self.broken = True
                raise JsError(f"used more than {MEMORY_LIMIT // (1024 * 1024)} MB of memory") from exc
            m = _INPUT_LINE.search(text)
            raise JsError(
                text.splitlines()[0] if text else "JavaScript error", int(m.group(1)) if m else 0
            ) from exc
        finally:
            self.context.set_time_limit(-1)

    def _call(self, expression: str) -> dict[str, Any]:
        """Evaluate an expression that returns JSON."""
        result = self._eval(expression)
        return json.loads(result) if isinstance(result, str) else {}

    def compile(self, source: str, digest: str, jsx: bool = True, typescript: bool = False) -> dict[str, Any]:
        """Transform JSX/TypeScript/ESM source to a CommonJS-style body: {"code"} or {"error", "line", "column"}."""
        key = f"{digest}:{jsx}:{typescript}"
        if key not in self.compiled:
            flags = f"{'true' if jsx else 'false'}, {'true' if typescript else 'false'}"
            self.compiled[key] = self._call(f"__dgCompile({json.dumps(source)}, {flags})")
        return self.compiled[key]

    def define(
        self,
        module_id: str,
        code: str,
        digest: str,
        deps: dict[str, str | dict[str, str] | None],
        names: list[str],
    ) -> None:
        """Define a module from compiled code (its lines stay the source's lines)."""
        if self.defined.get(module_id) == digest:
            return
        params = ", ".join(names)
        wrapped = (
            f"__dgDefine({json.dumps(module_id)}, {json.dumps(deps)}, {json.dumps(names)}, "
            f"function ({params}) {{ return function (exports, require, module, __dgH, __dgF, React) {{{code}\n}}; }})"
        )
        self._eval(wrapped)
        self.defined[module_id] = digest

    def render(self, module_id: str, export: str, props_json: str) -> dict[str, Any]:
        """Render one exported component to HTML: {"html", "mdx", "interactive"} or {"error", "line", "fn"}."""
        return self._call(
            f"__dgRender({json.dumps(module_id)}, {json.dumps(export)}, {json.dumps(props_json)})"
        )


_engines: dict[int, Engine] = {}


_create_lock = threading.Lock()


def get_engine() -> Engine:
    """Return this process's engine (created on first use; render workers each make their own)."""
    pid = os.getpid()
    engine = _engines.get(pid)
    if engine is None or engine.broken:
        with _create_lock:
            engine = _engines.get(pid)
            if engine is None or engine.broken:
                _engines.clear()
                engine = _engines[pid] = Engine()
    return engine
