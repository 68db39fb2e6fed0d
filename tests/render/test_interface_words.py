"""No English left behind: a walk over the theme's scripts and templates for words a reader sees that do not come
from the string table (themes/base/strings.json). In scripts, every string literal that reads as English prose
must be the English text of a T("key", ...) / problem(path, "key", ...) call (the page's words are read from
<html data-strings>); in templates, every text node and every aria-label, title, placeholder and alt must come
from `t.*`. What is left is listed below with why it is not the reader's language (protocol words, key names,
messages for developers in the console)."""

from __future__ import annotations

import re

from docsgen.common.resources import themes_dir

# (file, literal): why it stays as written
ALLOWED = {
    # protocol words, header names and values, key names, media queries, selectors
    ("playground-oauth.js", "Basic "): "HTTP Basic credentials",
    ("playground-oauth.js", "Authorization"): "header name",
    ("playground-request.js", "Authorization"): "header name",
    ("playground-request.js", "Basic "): "HTTP Basic credentials",
    ("playground-request.js", "Bearer "): "HTTP Bearer credentials",
    ("playground-request.js", "Cookie"): "header name",
    ("playground-ws.js", "closed by the reader"): "the WebSocket close reason sent to the server",
    ("playground.js", "input, select, textarea, button"): "selector",
    ("playground.js", "input, select, textarea"): "selector",
    ("playground.js", " dg-pg-invalid"): "class name",
    ("playground.js", " dg-pg-valid"): "class name",
    ("playground.js", "pre code"): "selector",
    ("playground.js", "AbortError"): "DOMException name",
    ("mermaid-init.js", "(prefers-color-scheme: dark)"): "media query",
    ("contextual.js", "npx add-mcp ${mcpUrl}"): "a shell command the reader copies",
    ("assistant-actions.js", "Control+I Meta+I"): "aria-keyshortcuts value (key names)",
    # errors thrown for the console or turned into a translated message by their caller
    ("image-actions.js", "no image"): "rejected promise; the reader sees copy_failed",
    ("mermaid-init.js", "mermaid did not load"): "console error; the diagram keeps its source",
    ("mermaid-init.js", "cannot load ${src}"): "console error; the diagram keeps its source",
    ("react.js", "preact did not load"): "console error; the server-rendered HTML stays",
    ("react.js", "cannot load ${src}"): "console error; the server-rendered HTML stays",
    ("react.js", "module ${id} is missing from the page"): "console error",
    ("react.js", "React"): "the global's name",
    ("search.js", "no search index"): "caught; the reader sees search_unavailable",
}
KEY_NAMES = {
    "Enter",
    "Escape",
    "ArrowRight",
    "ArrowLeft",
    "ArrowUp",
    "ArrowDown",
    "Home",
    "End",
    "Content-Type",
}
SAMPLES = "playground-samples.js"  # code samples in curl, Python, Go ...: program text, not interface words
# template text that is not a language's word: key caps, a brand, a symbol
TEMPLATE_ALLOWED = {"Esc", "Ctrl K", "RSS", "&times;", "Esc:", "(Ctrl K)", "OAuth 2.0"}

# the English argument of T("key", "English") and problem(path, "key", "English"): where its quote opens
CALL = re.compile(r'\b(?:T\(|problem\((?:[^;()"]|"[^"]*"|\([^()]*\))*?,)\s*"[a-z_]+",\s*(?=")')


def table_words(src: str) -> set[int]:
    """Return where each string table call's English text starts."""
    return {m.end() for m in CALL.finditer(src)}


def js_literals(src: str):
    """Yield (line, text) of each string literal of a script, skipping comments and regular expressions."""
    i, n, prev, word = 0, len(src), "", ""
    while i < n:
        c = src[i]
        if c in " \t\r\n":
            i += 1
        elif src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif c in "\"'`":
            j = i + 1
            while j < n and src[j] != c:
                j += 2 if src[j] == "\\" else 1
            yield i, src[i + 1 : j]
            i, prev, word = j + 1, c, ""
        elif c == "/" and (
            prev == "" or prev in "(,=:[!&|?{};+-*%<>~^" or word in ("return", "typeof", "case")
        ):
            j, in_class = i + 1, False
            while j < n and src[j] != "\n" and (src[j] != "/" or in_class):
                if src[j] == "\\":
                    j += 1
                elif src[j] == "[":
                    in_class = True
                elif src[j] == "]":
                    in_class = False
                j += 1
            i, prev, word = j + 1, "/", ""
        elif c.isalnum() or c in "_$":
            j = i
            while j < n and (src[j].isalnum() or src[j] in "_$"):
                j += 1
            i, prev, word = j, "a", src[i:j]
        else:
            i, prev, word = i + 1, c, ""


def reads_as_prose(text: str) -> bool:
    """Tell whether a literal reads as English a person would see (not a key, selector or code)."""
    if not re.search(r"[A-Za-z]{2,}", text) or text == "use strict":
        return False
    if re.search(r"[<>=;]|^\s*[.#\[]|^[a-z]+[-:]", text) and not re.search(r"\{\w+\}", text):
        return False
    if re.match(r"^[A-Z][a-z]+", text):
        return True
    words = re.findall(r"[A-Za-z][a-z']+", text)
    return len(words) >= 2 and " " in text and not re.search(r"[.#]\w|\[", text)


def english_in_scripts() -> list[str]:
    found = []
    for path in sorted((themes_dir() / "base" / "static").rglob("*.js")):
        if "vendor" in path.parts or path.name == SAMPLES:
            continue
        src = path.read_text(encoding="utf-8")
        calls = table_words(src)
        for at, text in js_literals(src):
            if at in calls or text in KEY_NAMES:
                continue
            if reads_as_prose(text) and (path.name, text) not in ALLOWED:
                found.append(f"{path.name}:{src.count(chr(10), 0, at) + 1}: {text!r}")
    return found


TEMPLATE_ATTRS = re.compile(r'\s(?:aria-label|title|placeholder|alt)="([^"]*)"')


def english_in_templates() -> list[str]:
    found = []
    paths = sorted((themes_dir()).rglob("*.html"))
    assert len(paths) > 20
    for path in paths:
        text = path.read_text(encoding="utf-8")
        text = re.sub(r"\{#.*?#\}", " ", text, flags=re.S)
        text = re.sub(r"<(script|style)\b.*?</\1>", " ", text, flags=re.S | re.I)
        # quoted text inside {{ }} / {% %} that reads as prose (a default written into an expression)
        for block in re.findall(r"\{\{.*?\}\}|\{%.*?%\}", text, flags=re.S):
            for literal in re.findall(r"'([^']*)'|\"([^\"]*)\"", block):
                words = literal[0] or literal[1]
                if re.search(r"[A-Z][a-z]+ [a-z]+", words):
                    found.append(f"{path.name}: {words!r} in {block[:60]!r}")
        plain = re.sub(r"\{\{.*?\}\}|\{%.*?%\}", " ", text, flags=re.S)
        pieces = [m.group(1) for m in re.finditer(r">([^<]+)<", plain)]
        pieces += [m.group(1) for m in TEMPLATE_ATTRS.finditer(plain)]
        for piece in pieces:
            words = piece.strip()
            if re.search(r"[A-Za-z]{2,}", words) and words not in TEMPLATE_ALLOWED:
                found.append(f"{path.name}: {words!r}")
    return found


def test_scripts_write_no_english_of_their_own():
    assert english_in_scripts() == []


def test_templates_write_no_english_of_their_own():
    assert english_in_templates() == []


def test_the_walk_finds_what_it_is_for(tmp_path):
    """The scanners catch the kinds of string this class of bug was made of (so an empty list means something)."""
    src = 'el("button", {}, "Get token"); x.textContent = "Not connected."; T("send", "Send"); k === "Enter";'
    hits = [text for at, text in js_literals(src) if at not in table_words(src)]
    assert [t for t in hits if reads_as_prose(t) and t not in KEY_NAMES] == ["Get token", "Not connected."]
    assert reads_as_prose("must be at least {n}") and not reads_as_prose(".dg-pg-field input")
    assert not reads_as_prose("use strict") and not reads_as_prose("content-type")
    src = 'problem(path ? path + "." + name : name, "val_required", "is required")'
    assert table_words(src) == {src.index('"is required"')}
