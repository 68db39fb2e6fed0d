"""Tailwind v3's own compiler, vendored as one bundle (docsgen/mdx/react/vendor_src/tailwind), run in QuickJS."""

from __future__ import annotations

import json
import os
from typing import Any

from docsgen.mdx.react.js_engine import JsError, _vendor_dir, engine_module

BUNDLE = "tailwind.min.js"
TIME_LIMIT = float(os.environ.get("DOCSGEN_TAILWIND_TIME_LIMIT", "60"))  # seconds for one site's compile
MEMORY_LIMIT = 512 * 1024 * 1024  # bytes
STACK_LIMIT = 4 * 1024 * 1024  # bytes of native stack (postcss recurses over the rule tree)
# Tailwind reports some names it cannot use on the console; QuickJS has none (the names simply get no rule)
QUIET_CONSOLE = "globalThis.console = { log() {}, info() {}, warn() {}, error() {}, debug() {} };"
MAX_JOBS = 1_000_000  # promise jobs one compile may run (it needs a handful)

# Mintlify's content is styled by @tailwindcss/typography; docsgen's theme styles .dg-prose itself.
INPUT_CSS = "@tailwind base;\n@tailwind components;\n@tailwind utilities;\n"


def compile_css(
    config: dict[str, Any], content: str, css: str = INPUT_CSS, time_limit: float | None = None
) -> str:
    """Compile `css` with Tailwind over `content` (the class names, space-separated) and `config` (JSON-able,
    `typography` holds @tailwindcss/typography's options); raise EngineUnavailable or JsError."""
    limit = TIME_LIMIT if time_limit is None else time_limit
    quickjs = engine_module()
    context = quickjs.Context()
    context.set_memory_limit(MEMORY_LIMIT)
    context.set_max_stack_size(STACK_LIMIT)
    context.set_time_limit(limit)
    try:
        context.eval(QUIET_CONSOLE)
        context.eval((_vendor_dir() / BUNDLE).read_text(encoding="utf-8"))
        context.set("__dgConfig", json.dumps(config))
        context.set("__dgCss", css)
        context.set("__dgContent", content)
        context.eval("var __dgOut = __dgTailwind(__dgConfig, __dgCss, __dgContent)")
        jobs = 0
        while context.execute_pending_job():
            jobs += 1
            if jobs > MAX_JOBS:
                raise JsError("did not finish (too many pending jobs)")
        result = json.loads(context.eval("JSON.stringify(__dgOut)"))
    except quickjs.StackOverflow as exc:
        raise JsError("RangeError: too much recursion (stack overflow)") from exc
    except quickjs.JSException as exc:
        text = str(exc)
        if "interrupted" in text:
            raise JsError(f"did not finish within {limit:g} s") from exc
        if "out of memory" in text:
            raise JsError(f"used more than {MEMORY_LIMIT // (1024 * 1024)} MB of memory") from exc
        raise JsError(text.splitlines()[0] if text else "JavaScript error") from exc
    if not result.get("done"):
        raise JsError("did not finish (a promise never settled)")
    if "error" in result:
        raise JsError(str(result["error"]).splitlines()[0] or "Tailwind failed")
    return str(result.get("css") or "")
