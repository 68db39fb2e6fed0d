"""The page the dev server shows instead of one that failed to build: file, line, column, message and source."""

from __future__ import annotations

from html import escape
from pathlib import Path

from docsgen.common.errors import Diagnostic

CONTEXT_LINES = 2
_STYLE = """
body{margin:0;font:15px/1.5 system-ui,sans-serif;background:#1b1b1f;color:#eee}
main{max-width:60rem;margin:3rem auto;padding:0 1.5rem}
h1{color:#ff6b6b;font-size:1.6rem;margin:0 0 .5rem}
.dg-dev-hint{color:#aaa;margin:0 0 1.5rem}
ol{padding:0;list-style:none}
li{background:#26262b;border-left:4px solid #ff6b6b;border-radius:6px;padding:1rem 1.25rem;margin:0 0 1rem}
.dg-dev-loc{font:600 14px ui-monospace,monospace;color:#ffd166}
.dg-dev-msg{display:block;margin:.35rem 0;white-space:pre-wrap}
.dg-dev-code{color:#888;font-size:13px}
.dg-dev-hintline{color:#8ecae6;display:block}
pre{background:#111;border-radius:4px;padding:.6rem .8rem;overflow:auto;font:13px/1.45 ui-monospace,monospace}
.dg-dev-here{background:#4a1f22;display:inline-block;min-width:100%}
"""


def source_excerpt(docs_dir: Path, diagnostic: Diagnostic) -> str:
    """Return the lines around the problem, numbered, with the failing line marked (HTML-escaped)."""
    if not diagnostic.path or not diagnostic.line:
        return ""
    root = docs_dir.resolve()
    path = (root / diagnostic.path).resolve()
    if not path.is_relative_to(root) or not path.is_file():
        return ""
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return ""
    first = max(1, diagnostic.line - CONTEXT_LINES)
    last = min(len(lines), diagnostic.line + CONTEXT_LINES)
    width = len(str(last))
    out = []
    for number in range(first, last + 1):
        text = f"{number:>{width}} | {lines[number - 1]}"
        if number == diagnostic.line:
            out.append(f'<span class="dg-dev-here">{escape(text)}</span>')
            if diagnostic.column:
                out.append(escape(" " * (width + 3 + diagnostic.column - 1) + "^"))
        else:
            out.append(escape(text))
    return "<pre>" + "\n".join(out) + "</pre>" if out else ""


def error_page(diagnostics: list[Diagnostic], docs_dir: Path, *, title: str = "Build failed") -> bytes:
    """Return a self-contained HTML page listing the errors (the dev server adds the reload script)."""
    items = []
    for d in diagnostics:
        hint = f'<span class="dg-dev-hintline">hint: {escape(d.hint)}</span>' if d.hint else ""
        where = f' <span class="dg-dev-code">at {escape(d.json_path)}</span>' if d.json_path else ""
        code = f' <span class="dg-dev-code">[{escape(d.code)}]</span>' if d.code else ""
        items.append(
            f'<li class="dg-dev-error" data-file="{escape(d.path)}" data-line="{d.line}" data-column="{d.column}">'
            f'<span class="dg-dev-loc">{escape(d.location())}</span>{code}{where}'
            f'<span class="dg-dev-msg">{escape(d.message)}</span>{hint}{source_excerpt(docs_dir, d)}</li>'
        )
    count = len(diagnostics)
    html = (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)} - docsgen dev</title><style>{_STYLE}</style></head>\n"
        f'<body><main id="dg-dev-error"><h1>{escape(title)}</h1>'
        f'<p class="dg-dev-hint">{count} error{"s" if count != 1 else ""}. This page reloads by itself once '
        "the file is fixed; the terminal shows the same list.</p>"
        f"<ol>{''.join(items)}</ol></main>\n</body></html>\n"
    )
    return html.encode("utf-8")
