"""The JavaScript engine (QuickJS in a sandbox process): one per render process, a fresh realm per page, each call
time- and memory-bounded and killed past its deadline."""

from __future__ import annotations

import atexit
import json
import os
import re
import threading
from functools import cache
from pathlib import Path
from typing import Any, NoReturn

from docsgen.common.resources import themes_dir
from docsgen.mdx.react.memo import RealmCalls, RenderMemo
from docsgen.mdx.react.sandbox import KILL_MARGIN, Realm, Sandbox, SandboxFailed

SSR_BUNDLE = "react-ssr.min.js"
DRIVER = Path(__file__).resolve().with_name("driver.js")

TIME_LIMIT = float(os.environ.get("DOCSGEN_REACT_TIME_LIMIT", "2"))  # seconds per component call
MEMORY_LIMIT = 256 * 1024 * 1024  # bytes for the whole engine
STACK_LIMIT = 1024 * 1024  # bytes of native stack: deep recursion is an error, not a crash
_INPUT_LINE = re.compile(r"<input>:(\d+)")


class DefineError(Exception):
    """A module's code did not load in the engine (found with the call after its definition)."""

    def __init__(self, module_id: str, error: JsError):
        super().__init__(error.message)
        self.module_id = module_id
        self.error = error


class EngineUnavailable(RuntimeError):
    """The JavaScript engine's wheel is not installed on this platform."""


class JsError(Exception):
    """A JavaScript error: message, line in the module (0 when unknown) and the function it happened in."""

    def __init__(
        self, message: str, line: int = 0, column: int = 0, function: str = "", killed: bool = False
    ):
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.function = function
        self.killed = killed  # its process was killed at the deadline (native code the interrupt cannot stop)


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
    """docsgen's JavaScript engine: a sandbox process with QuickJS, the vendored Preact renderer and the driver.

    Compiling runs in the sandbox's own realm; components run in a realm forked for each page (`begin_page`), so
    nothing one page's code changes reaches another; a call past its deadline is killed with its realm."""

    def __init__(self) -> None:
        engine_module()  # EngineUnavailable when the binding is missing
        try:
            self.sandbox = Sandbox(_vendor_dir() / SSR_BUNDLE, DRIVER, MEMORY_LIMIT, STACK_LIMIT, TIME_LIMIT)
        except SandboxFailed as exc:
            raise EngineUnavailable(f"the JavaScript engine did not start: {exc}") from exc
        self.defined: dict[str, str] = {}  # module id -> digest of the code defined under it (current realm)
        self.compiled: dict[str, dict[str, Any]] = {}  # source digest -> compile result
        self.broken = False
        self.realm: Realm | None = None
        self.realm_number = 0  # a Loader defines its modules again when the realm changed
        self.memo = RenderMemo()  # component answers by what they depend on (docsgen/mdx/react/memo.py)
        self.calls = RealmCalls()  # the calls made in the current realm (answered by memo or run)
        self.pending: list[tuple[str, _Definition]] = []  # modules defined with the realm's next call
        self.lock = threading.RLock()
        self._cpu = threading.local()  # processor seconds of this thread's last call in a page's realm

    @property
    def last_cpu(self) -> float:
        """Processor seconds the calling thread's last page-realm call used (its definitions and its render; a
        call that was killed used its whole limit): what the React budgets count, whatever the machine's load."""
        return float(getattr(self._cpu, "seconds", 0.0))

    def begin_page(self) -> None:
        """The next call runs in a fresh realm: a page starts."""
        with self.lock:
            self._end_realm()

    def _end_realm(self) -> None:
        if self.realm is not None:
            self.realm.close()
            self.realm = None
        self.defined.clear()
        self.pending.clear()
        self.realm_number += 1
        self.calls = RealmCalls()

    def _eval(self, expression: str, own: bool = False) -> Any:
        """Evaluate JavaScript within the time limit (in the sandbox's own realm, or the page's); errors: JsError.

        In the page's realm the module definitions waiting go first, in the same round trip."""
        with self.lock:  # one realm, one thread at a time (the dev server renders from several)
            pending: list[tuple[str, _Definition]] = []
            try:
                if own:
                    answers = [self.sandbox.eval(expression, TIME_LIMIT)]
                else:
                    if self.realm is None:
                        self.realm = self.sandbox.realm()
                    pending, self.pending = self.pending, []
                    self._cpu.seconds = TIME_LIMIT + KILL_MARGIN  # until it answers: what a killed call used
                    texts = [_define_text(module_id, *parts) for module_id, parts in pending]
                    answers = self.realm.eval([*texts, expression], TIME_LIMIT)
                    self._cpu.seconds = sum(float(answer.get("cpu") or 0.0) for answer in answers)
            except SandboxFailed as exc:
                self._failed(exc, own)
            for (module_id, _), answer in zip(pending, answers, strict=False):
                if "error" in answer:
                    self._end_realm()  # the modules after it are not defined: the next call starts again
                    try:
                        self._value(answer)
                    except JsError as exc:
                        raise DefineError(module_id, exc) from None
            return self._value(answers[-1])

    def _failed(self, exc: SandboxFailed, own: bool) -> NoReturn:
        """A call that did not answer: end what ran it; the next call starts again."""
        how = "killed"
        if own or self.realm is None:
            self.sandbox.kill()
            self.broken = True  # get_engine starts another sandbox
        else:
            how = self.sandbox.kill_realm(self.realm)
            self.realm = None
        self._end_realm()
        if exc.overdue or how in ("SIGXCPU", "killed"):
            raise JsError(
                f"did not finish within {TIME_LIMIT + KILL_MARGIN:g} s of processor time and was stopped (a "
                "regular expression that backtracks without end?)",
                killed=True,
            ) from None
        raise JsError(f"the JavaScript engine failed: {exc} ({how})") from None

    def _value(self, answer: dict[str, Any]) -> Any:
        kind = answer.get("error")
        if kind is None:
            return answer.get("value")
        text = str(answer.get("text") or "")
        if kind == "stack":
            raise JsError("RangeError: too much recursion (stack overflow)")
        if kind == "interrupted":
            self._end_realm()
            raise JsError(f"did not finish within {TIME_LIMIT:g} s (an endless loop?)")
        if kind == "memory":
            self._end_realm()
            raise JsError(f"used more than {MEMORY_LIMIT // (1024 * 1024)} MB of memory")
        m = _INPUT_LINE.search(text)
        raise JsError(text.splitlines()[0] if text else "JavaScript error", int(m.group(1)) if m else 0)

    def _call(self, expression: str, own: bool = False) -> dict[str, Any]:
        """Evaluate an expression that returns JSON."""
        result = self._eval(expression, own)
        try:
            value = json.loads(result) if isinstance(result, str) else {}
        except ValueError:
            value = None
        if not isinstance(value, dict):  # the page's code replaced docsgen's driver functions
            raise JsError("the page's code changed docsgen's component driver (its answer is not an object)")
        return value

    def compile(self, source: str, digest: str, jsx: bool = True, typescript: bool = False) -> dict[str, Any]:
        """Transform JSX/TypeScript/ESM source to a CommonJS-style body: {"code"} or {"error", "line", "column"}.

        Runs in the sandbox's own realm, which no component code reaches: the result is cached for every page."""
        key = f"{digest}:{jsx}:{typescript}"
        if key not in self.compiled:
            flags = f"{'true' if jsx else 'false'}, {'true' if typescript else 'false'}"
            self.compiled[key] = self._call(f"__dgCompile({json.dumps(source)}, {flags})", own=True)
        return self.compiled[key]

    def define(
        self,
        module_id: str,
        code: str,
        digest: str,
        deps: dict[str, str | dict[str, str] | None],
        names: list[str],
    ) -> None:
        """Define a module from compiled code in the page's realm (its lines stay the source's lines).

        Sent with the realm's next call (the render): a failure is a DefineError there."""
        if self.defined.get(module_id) == digest:
            return
        with self.lock:  # the text is made when it is sent (a page answered from memory sends none)
            self.pending.append((module_id, (code, deps, names)))
            self.defined[module_id] = digest

    def render(self, module_id: str, export: str, props_json: str) -> dict[str, Any]:
        """Render one exported component to HTML: {"html", "mdx", "interactive"} or {"error", "line", "fn"}."""
        return self._call(
            f"__dgRender({json.dumps(module_id)}, {json.dumps(export)}, {json.dumps(props_json)})"
        )

    def close(self) -> None:
        """End the realm and the sandbox process."""
        with self.lock:
            self._end_realm()
            self.sandbox.kill(wait=1.0)


_Definition = tuple[str, dict[str, str | dict[str, str] | None], list[str]]  # code, deps, names


def _define_text(
    module_id: str, code: str, deps: dict[str, str | dict[str, str] | None], names: list[str]
) -> str:
    """The JavaScript defining a module from its compiled code (its lines stay the source's lines)."""
    params = ", ".join(names)
    return (
        f"__dgDefine({json.dumps(module_id)}, {json.dumps(deps)}, {json.dumps(names)}, "
        f"function ({params}) {{ return function (exports, require, module, __dgH, __dgF, React) {{{code}\n}}; }})"
    )


_engines: dict[int, Engine] = {}


@atexit.register
def _close_engines() -> None:
    """End this process's sandbox with it (it would end on its own at the closed socket)."""
    engine = _engines.get(os.getpid())
    if engine is not None:
        engine.close()


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
