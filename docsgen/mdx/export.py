"""The Markdown an agent reads (the page's .md export): audience blocks resolved, comments and ESM removed."""

from __future__ import annotations

import re

from docsgen.mdx.jsx_syntax import JsxSyntaxError, fence_end, find_closing_tag, scan_tag

_COMMENT_RE = re.compile(r"\{/\*.*?\*/\}", re.S)


def agent_markdown(body: str) -> str:
    """Return the MDX body for agents: <Visibility for="humans"> dropped, for="agents" unwrapped, comments gone."""
    out: list[str] = []
    i = 0
    n = len(body)
    while i < n:
        line_end = body.find("\n", i)
        line_end = n if line_end < 0 else line_end + 1
        stripped = body[i:line_end].lstrip()
        indent = line_end - i - len(stripped)
        if stripped.startswith(("```", "~~~")):
            end = fence_end(body, i + indent, n)
            end = n if end < 0 else min(n, end + 1)
            out.append(body[i:end])
            i = end
            continue
        if stripped.startswith("<Visibility"):
            try:
                tag = scan_tag(body, i + indent)
            except JsxSyntaxError:
                tag = None
            if tag is not None and not tag.closing:
                audience = next((a.value for a in tag.attrs if a.name == "for"), "humans").strip().lower()
                found = None if tag.self_closing else find_closing_tag(body, "Visibility", tag.end, n)
                inner_end, after = found if found else (tag.end, tag.end)
                if audience == "agents":
                    out.append(_dedent(body[tag.end : inner_end]))
                after_line = body.find("\n", after)
                i = n if after_line < 0 else after_line + 1
                continue
        out.append(body[i:line_end])
        i = line_end
    text = _COMMENT_RE.sub("", "".join(out))
    return re.sub(r"\n{3,}", "\n\n", text)


def _dedent(text: str) -> str:
    lines = text.strip("\n").split("\n")
    widths = [len(line) - len(line.lstrip()) for line in lines if line.strip()]
    cut = min(widths, default=0)
    return "\n".join(line[cut:] for line in lines) + "\n"
