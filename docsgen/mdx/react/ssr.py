"""Render one custom React component element to HTML at build time; mark interactive ones for hydration."""

from __future__ import annotations

import html
import json
import re
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from docsgen.common.errors import warning
from docsgen.mdx.jsx_html import mark_decorative_images
from docsgen.mdx.react.expand import expand_placeholders, substitute
from docsgen.mdx.react.js_engine import DefineError, EngineUnavailable, JsError, get_engine
from docsgen.mdx.react.modules import Loader, Module, ModuleError

if TYPE_CHECKING:
    from docsgen.mdx.state import Element, FileFrame, RenderState

MAX_DEPTH = 8  # components rendering Mintlify components rendering components...
MAX_OUTPUT = 5_000_000  # characters of HTML from one component call
# Component processor time (engine.TIME_LIMIT bounds one call): a page's components together, and all of one
# build process's. Processor time, not wall time: the same site falls back on the same pages on a busy machine.
PAGE_BUDGET = 10.0  # seconds
SITE_BUDGET = 120.0  # seconds
_site_spent = 0.0  # component time spent in this process


def _spend(state: RenderState, seconds: float) -> None:
    global _site_spent
    _site_spent += seconds
    state.react_spent = getattr(state, "react_spent", 0.0) + seconds  # type: ignore[attr-defined]


def _over_budget(element: Element) -> bool:
    """Tell whether the page's or the process's component time is spent; warn once per page when it is."""
    state = element.state
    page = getattr(state, "react_spent", 0.0)
    if page < PAGE_BUDGET and _site_spent < SITE_BUDGET:
        return False
    if not getattr(state, "react_budget_warned", False):
        state.react_budget_warned = True  # type: ignore[attr-defined]
        which = (
            f"this page's ({PAGE_BUDGET:g} s)" if page >= PAGE_BUDGET else f"the build's ({SITE_BUDGET:g} s)"
        )
        element.warn(
            "react.budget",
            f"components have used {which} time for React components: <{element.name}> and the components "
            "after it render their children",
        )
    return True


def render_react(element: Element) -> str:
    """Run a custom component (a page's `export const`, an imported .jsx/.tsx file) and return its HTML.

    Falls back to its children, with a warning, when it cannot run (no engine, a JavaScript error)."""
    state = element.state
    try:
        engine = get_engine()
    except EngineUnavailable as exc:
        state.add(
            warning(
                "react.engine-missing",
                f"React components in MDX pages render only their children: {exc}",
            )
        )
        return element.render_children()
    depth = state.react.depth
    if depth >= MAX_DEPTH:
        state.error(
            "react.depth",
            f"<{element.name}> nests components more than {MAX_DEPTH} levels deep: rendering its children",
            element.line,
            element.column,
        )
        return element.render_children()
    loader = _loader(state, engine)
    try:
        module = _frame_module(loader, state.frame, state)
    except ModuleError as exc:
        state.add(
            warning(
                "react.compile",
                f"cannot compile the component code: {exc.message}; <{element.name}> renders its children",
                exc.path,
                exc.line,
                exc.column,
            )
        )
        return element.render_children()
    _report_missing(state, loader, module)
    # the page cache and the dev server rebuild the page when one of its component files changes
    state.dependencies.update(mod.path for mod in _graph(loader, module) if mod.path != state.ctx.source)
    raw: list[str] = []
    props = _props(element, raw)
    answer = _answer(element, engine, loader, module, json.dumps(props, default=str))
    if answer is None:
        return _children_html(element, props, raw)
    result = answer
    if "error" in result and str(result["error"]).startswith("InternalError:"):  # out of memory, stack
        engine.broken = True
        return _stopped(element, str(result["error"]), _children_html(element, props, raw))
    if "error" in result:
        path, line = loader.locate(result.get("frames") or [], module)
        where = f" (at {path}:{line})" if line else ""
        missing = [spec for mod in _graph(loader, module) for spec, _ in mod.missing]
        if missing:
            where += f"; these imports found nothing: {', '.join(sorted(set(missing)))}"
        verb = "threw" if result.get("thrown") else "cannot render:"
        message = f"<{element.name}> {verb} {result['error']}{where}; rendering its children"
        element.warn("react.component-error", message)
        return _children_html(element, props, raw)
    if len(str(result.get("html") or "")) > MAX_OUTPUT:
        what = f"it rendered more than {MAX_OUTPUT:,} characters"
        return _stopped(element, what, _children_html(element, props, raw))
    interactive = bool(result.get("interactive"))
    state.react.depth = depth + 1
    try:
        expanded = expand_placeholders(element, result.get("mdx") or [], raw, interactive)
    finally:
        state.react.depth = depth
    html_out = mark_decorative_images(_resolve_urls(str(result.get("html") or ""), state))
    state.classes.update(class_names(html_out))  # names built at run time reach Tailwind too
    out = substitute(html_out, raw, expanded, wrap=interactive)
    if not interactive:
        return out
    return _island(element, loader, module, props, raw, result.get("mdx") or [], expanded, out)


def _answer(
    element: Element, engine: Any, loader: Loader, module: Module, props_json: str
) -> dict[str, Any] | None:
    """The engine's answer to the call (remembered when the same call was answered before: docsgen/mdx/react/
    memo.py), or None when the component does not run (the time budget is spent, it was stopped: warned)."""
    with (
        engine.lock
    ):  # the realm's calls and the answer go together (the dev server renders from several threads)
        calls = engine.calls
        key = calls.key(loader, module, element.name, props_json)
        call = (module.id, element.name, props_json)
        remembered = engine.memo.get(key[0])
        if remembered is not None:
            calls.advance(key, call, ran=False)
            return remembered
        if _over_budget(element):
            return None
        _catch_up(element, engine, calls)
        try:
            result = _run(element, engine, loader, module, props_json)
        finally:
            calls.advance(key, call, ran=True)
        if result is not None:
            engine.memo.put(key[0], result)
        return result


def _catch_up(element: Element, engine: Any, calls: Any) -> None:
    """Run the realm's calls answered from memory so far (answers dropped): the next call sees what they left."""
    unrun, calls.unrun = calls.unrun, []
    for module_id, export, props_json in unrun:
        try:
            engine.render(module_id, export, props_json)
        except (DefineError, JsError):
            return  # they did not fail when answered: the realm has ended, the next call starts afresh
        finally:
            _spend(element.state, engine.last_cpu)


def _run(
    element: Element, engine: Any, loader: Loader, module: Module, props_json: str
) -> dict[str, Any] | None:
    """Render in the page's realm; None (warned) when the component could not run."""
    try:
        return engine.render(module.id, element.name, props_json)
    except DefineError as exc:  # a module QuickJS rejects (sucrase took it): located in its file
        mod = loader.modules.get(exc.module_id)
        _load_failed(element, mod.path if mod else element.state.frame.path, exc.error)
        return None
    except JsError as exc:
        if exc.killed:  # past the deadline in native code: this page's problem, the site builds
            element.warn("react.killed", f"<{element.name}> {exc.message}; rendering its children")
            return None
        _stopped(element, f"it {exc.message}", "")
        return None
    finally:
        _spend(
            element.state, engine.last_cpu
        )  # processor time: which pages fall back does not depend on load


def _load_failed(element: Element, path: str, error: JsError) -> None:
    message = f"cannot load the component code: {error.message}; <{element.name}> renders its children"
    element.state.add(warning("react.compile", message, path, error.line, 0))


def _stopped(element: Element, why: str, children: str) -> str:
    """A component stopped by a limit (time, memory, stack, output): a located warning (the problem is this page's:
    the site builds; `--strict` makes it an error), its children instead."""
    element.warn("react.limit", f"<{element.name}> was stopped: {why}; rendering its children")
    return children


_CLASS_ATTR = re.compile(r'\sclass="([^"]*)"')


def class_names(out: str) -> set[str]:
    """Return the class names of a component's HTML (docsgen's own `dg-` names left out)."""
    return {
        name
        for m in _CLASS_ATTR.finditer(out)
        for name in html.unescape(m.group(1)).split()
        if not name.startswith("dg-") and len(name) <= 160
    }


_URL_ATTR = re.compile(r'(\s(?:href|src)=")([^"]*)(")')


def _resolve_urls(out: str, state: RenderState) -> str:
    """Map links and image paths a component wrote ("/quickstart", "/images/a.png") as links in pages are."""
    ctx = state.ctx

    def resolve(m: re.Match[str]) -> str:
        value = html.unescape(m.group(2))
        if not value or value.startswith(("#", "http:", "https:", "mailto:", "data:", "//")):
            return m.group(0)
        attr = m.group(1)
        resolved = ctx.resolve_link(value) if "href" in attr else ctx.resolve_asset(value)
        return f"{attr}{html.escape(resolved)}{m.group(3)}"

    return _URL_ATTR.sub(resolve, out)


def _children_html(element: Element, props: dict[str, Any], raw: list[str]) -> str:
    """The children rendered once already for the props (rendering twice would repeat ids and warnings)."""
    marker = props.get("children")
    if isinstance(marker, dict) and isinstance(marker.get("__dgRaw"), int):
        return raw[marker["__dgRaw"]]
    return ""


def _report_missing(state: RenderState, loader: Loader, module: Module) -> None:
    """Warn once per import that found nothing (a file not in the docs folder, a package other than React)."""
    for mod in _graph(loader, module):
        for spec, line in mod.missing:
            if spec.startswith(("/", "./", "../")):
                what = "no such file in the docs folder (tried .jsx, .tsx, .js, .ts and index files)"
            else:
                what = "packages cannot be imported (only react is available)"
            state.add(warning("react.missing-import", f"cannot import {spec!r}: {what}", mod.path, line, 1))


def _loader(state: RenderState, engine: Any) -> Loader:
    loader = state.react.loader
    if loader is None:
        engine.begin_page()  # a page's components start from a clean realm
    if loader is None or loader.engine is not engine or loader.realm != engine.realm_number:
        loader = Loader(engine, state.ctx.docs_dir)  # (again, in a new realm, after a component was stopped)
        loader.mdx_statements = lambda path: _mdx_statements(state, path)
        state.react.loader = loader
    return loader


MAX_STATEMENTS = 512  # snippets whose statements are kept per process (the oldest go first)
_statements_kept: OrderedDict[tuple[str, str, int], tuple[tuple[str, int, int], ...]] = OrderedDict()


def _mdx_statements(state: RenderState, path: str) -> list[tuple[str, int, int]]:
    """The top-level import/export blocks of an .mdx snippet (text, file line, column), without rendering it;
    [] when it must not be read. Parsed once per process for its path and text (the text is the page's read of
    it, checked as every snippet read is): the pages importing it do not look at the file again."""
    from docsgen.mdx.snippets import read_snippet

    loaded = read_snippet(state, path)
    if loaded is None:
        return []
    key = (path, *loaded)
    found = _statements_kept.get(key)
    if found is None:
        found = _statements_kept[key] = tuple(_statements(path, *loaded))
        while len(_statements_kept) > MAX_STATEMENTS:
            _statements_kept.popitem(last=False)
    else:
        _statements_kept.move_to_end(key)
    return list(found)


def _statements(path: str, text: str, offset: int) -> list[tuple[str, int, int]]:
    from docsgen.mdx.parser import MD
    from docsgen.mdx.state import FileFrame

    frame = FileFrame(path, text, offset)
    found = []
    for token in MD.parse(text, {}):
        if token.type == "mdx_esm" and token.meta and "pos" in token.meta:
            line, column = frame.locate(token.meta["pos"])
            found.append((token.content, line, column))
    return found


def _frame_module(loader: Loader, frame: FileFrame, state: RenderState) -> Module:
    """The module of the file being rendered (page or .mdx snippet): its ESM plus a view of its local names."""
    module_id = f"page:{frame.path}"
    if module_id in loader.modules:
        return loader.modules[module_id]
    statements = list(frame.env.get("esm", []))
    names = sorted(n for n in frame.react if n.isidentifier())
    getters = ", ".join(f"get {n}() {{ return {n}; }}" for n in names)
    statements.append((f"export const __dgLocals = {{ {getters} }};\n", 0, 0))  # 0: after the rest
    return loader.load_page(frame.path, statements)


def _props(element: Element, raw: list[str]) -> dict[str, Any]:
    """Props as JSON; HTML (children, JSX-valued props) travels as {"__dgRaw": index into raw}."""
    from docsgen.mdx.state import JsxValue

    def convert(value: Any) -> Any:
        if isinstance(value, JsxValue):
            raw.append(value.render(element.state))
            return {"__dgRaw": len(raw) - 1}
        if isinstance(value, dict):
            return {str(k): convert(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [convert(v) for v in value]
        if value is None or isinstance(value, (str, int, float, bool)):
            return value
        return str(value)

    props = {name: convert(value) for name, value in element.props.items()}
    if element.children:
        raw.append(element.render_children())
        props["children"] = {"__dgRaw": len(raw) - 1}
    return props


def _island(
    element: Element,
    loader: Loader,
    module: Module,
    props: dict[str, Any],
    raw: list[str],
    mdx: list[dict[str, Any]],
    expanded: list[str],
    inner: str,
) -> str:
    """Wrap server HTML for hydration and add the code the browser needs (each module once per page)."""
    state = element.state
    state.assets.add("react")
    emitted = state.react.emitted
    scripts: list[str] = []
    for mod in _graph(loader, module):
        key = f"{mod.id}:{hash(mod.code)}"
        if key in emitted:
            continue
        emitted.add(key)
        code = mod.code.replace("</", "<\\/").replace("<!--", "<\\!--")  # inert inside <script>
        scripts.append(
            f'<script type="text/plain" data-dg-module="{html.escape(mod.id)}" '
            f'data-deps="{html.escape(json.dumps(mod.deps))}" '
            f'data-names="{html.escape(json.dumps(mod.names))}">{code}</script>'
        )
    placeholders = {str(item.get("sig")): expanded[i] for i, item in enumerate(mdx) if i < len(expanded)}
    attrs = {
        "data-module": module.id,
        "data-export": element.name,
        "data-props": json.dumps(props, default=str),
        "data-raw": json.dumps(raw),
        "data-mdx": json.dumps(placeholders),
    }
    rendered = "".join(f' {k}="{html.escape(v)}"' for k, v in attrs.items())
    return f'<dg-island style="display:contents"{rendered}>{inner}</dg-island>' + "".join(scripts)


def _graph(loader: Loader, module: Module) -> list[Module]:
    """The module and every module it imports, dependencies first."""
    seen: dict[str, Module] = {}

    def visit(mod: Module) -> None:
        if mod.id in seen:
            return
        seen[mod.id] = mod
        for dep in mod.deps.values():
            target = dep.get("__module") if isinstance(dep, dict) else dep
            if target and target in loader.modules:
                visit(loader.modules[target])

    visit(module)
    return list(seen.values())[::-1]
