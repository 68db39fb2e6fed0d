"""What a generated operation or webhook page gives the search index (its `search_html`).

A reader searches an API reference for the operation: what it does, its method and path, its operationId,
its tag, its parameters, and the names of what it takes and returns. Not for the fortieth property
description of a response schema: those words are on the page, but indexed they make every page long,
which both slows the index down (Pagefind's time grows with the words it parses) and ranks long pages
below short ones for the words of their own title. docs/search.mdx explains the choice to users;
bench/search_quality.py measures it.

The record holds, besides the title and the first paragraph of the description (which
docsgen.outputs.search.record_for adds from the page's title and meta description):
- the method and path, the operationId (its words too) and the tags;
- one heading per section (its id is the page's anchor: results link to it), and in it the parameter names
  with the first sentence of their description, the body's and the successful responses' first-level
  property names, callback names.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from docsgen.openapi.render.context import plain_text
from docsgen.openapi.render.fmt import esc
from docsgen.openapi.render.operation_view import OperationView
from docsgen.openapi.render.params import Section

_SENTENCE_END = re.compile(r"(?<=[.!?])\s")
MAX_BRIEF = 160  # characters of a parameter's description kept for search: its first sentence, cut here
# A path is one word to Pagefind, matched by readers typing a path: weighted above the title, an exact path
# outranks the longer paths it is the start of (a query's last word also matches as a prefix) and a title
# word the method happens to repeat ("GET /repos/{owner}/{repo}/pulls" is not "Get a pull request").
PATH_WEIGHT = ' data-pagefind-weight="10"'
METHOD_WEIGHT = ' data-pagefind-weight="7"'
_WORD_SPLIT = re.compile(r"[/_\-.{}]+")


def brief(desc_html: str) -> str:
    """Return the first sentence of a description (HTML in, escaped plain text out), at most MAX_BRIEF long."""
    if not desc_html:
        return ""
    text = " ".join(plain_text(desc_html).split())
    text = _SENTENCE_END.split(text, maxsplit=1)[0]
    if len(text) > MAX_BRIEF:
        text = text[:MAX_BRIEF].rsplit(" ", 1)[0]
    return str(esc(text))


def words_of(name: str) -> str:
    """Return an identifier's words (`repos/list-for-org` -> `repos list for org`) for readers who type them."""
    return " ".join(part for part in _WORD_SPLIT.split(name) if part)


def _names(fields: list[tuple[str, str]]) -> str:
    return " ".join(f"<code>{esc(name)}</code>" for name, _desc in fields)


def _successful(found: list[Section]) -> list[Section]:
    """The responses a reader gets back when the call works: 2xx (else 'default', else the first)."""
    ok = [s for s in found if s.title.startswith("2")]
    if ok:
        return ok
    return [s for s in found if s.title == "default"] or found[:1]


def operation_record(
    view: OperationView,
    sections: list[tuple[str, Section]],
    response: tuple[str, list[Section]] | None,
    callbacks: tuple[str, list[tuple[str, str]]] | None,
    word: Callable[[str, str], str] = lambda key, english: english,
) -> str:
    """Return the search HTML of an operation or webhook page.

    sections: (heading id, section) of authorizations, parameters and body, as the page shows them;
    response: (heading id, each status's section); callbacks: (heading id, [(id, name)]).
    """
    method, path, ident = view.method, view.path, view.operation_id
    head = [f"<p><span{METHOD_WEIGHT}>{esc(method.upper())}</span> <span{PATH_WEIGHT}>{esc(path)}</span></p>"]
    about = []
    if ident.strip():
        about.append(f"<code>{esc(ident)}</code> {esc(words_of(ident))}")
    about += [esc(label) for label in view.tags]
    if about:
        head.append(f"<p>{' · '.join(str(a) for a in about)}</p>")
    parts = [f'<div class="dg-api" data-kind="{esc(view.kind)}">', *head]
    for hid, section in sections:
        parts.append(f'<h2 id="{esc(hid)}">{esc(section.title)}</h2>')
        if section.sid == "body":
            parts.append(f"<p>{_names(section.fields)}</p>")
            continue
        for name, desc in section.fields:
            parts.append(f"<p><code>{esc(name)}</code> {brief(desc)}</p>")
    if response is not None:
        hid, found = response
        names: dict[str, str] = {}
        for status in _successful(found):
            names.update((name, desc) for name, desc in status.fields if name not in names)
        parts.append(f'<h2 id="{esc(hid)}">{esc(word("response", "Response"))}</h2>')
        if names:
            parts.append(f"<p>{_names(list(names.items()))}</p>")
    if callbacks is not None:
        hid, items = callbacks
        parts.append(f'<h2 id="{esc(hid)}">{esc(word("callbacks", "Callbacks"))}</h2>')
        parts.append(f"<p>{' '.join(str(esc(name)) for _cid, name in items)}</p>")
    parts.append("</div>")
    return "".join(parts)
