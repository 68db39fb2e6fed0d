"""Mintlify's CSS hooks (customize/custom-scripts.mdx) on docsgen's elements, so a site's own style.css applies.

Mintlify documents 49 ids and 118 class names a site's custom CSS may target (`#navbar`, `#content-area`,
`.sidebar-group`, `.callout` ...). The theme's templates carry the ids of the page frame themselves (they are
written where the element is); what MDX components and API pages render is given its hooks here, in one pass
over the finished HTML: a Mintlify class beside each docsgen class that names the same element, and the id of
an element that occurs once per page on its first occurrence only (ids stay unique).
"""

from __future__ import annotations

import re

# docsgen class -> the Mintlify class(es, space-separated) naming the same element. The names docsgen has no
# element for are listed, with the reason, in tests/render/test_css_hooks.py (NO_SUCH_CLASS_ELEMENT); the ones the
# theme's scripts make are written by those scripts (option-dropdown, chat-assistant-*, code-snippet-feedback-*).
CLASS_HOOKS: dict[str, str] = {
    # content components
    "dg-accordion": "accordion",
    "dg-accordion-group": "accordion-group",
    "dg-callout": "callout",
    "dg-card": "card",
    "dg-cardgroup": "card-group",
    "dg-columns": "columns",
    "dg-code": "code-block",
    "dg-code-header-icon": "code-block-icon",
    "dg-code-fade": "code-block-fade-overlay",
    "dg-copy": "code-block-copy-button",
    "dg-codegroup": "code-group",
    "dg-expandable": "expandable",
    "dg-frame": "frame",
    "dg-icon": "icon",
    "dg-step": "step",
    "dg-steps": "steps",
    "dg-tab-icon": "tab-icon",
    "dg-tabset": "tabs",
    "dg-tile": "tile",
    "dg-tooltip": "tooltip",
    "dg-update": "update",
    # page layout
    "dg-prose": "mdx-content",
    "dg-panel": "panel",
    "dg-eyebrow": "eyebrow",
    "dg-breadcrumbs": "breadcrumb-list",
    "dg-crumb": "breadcrumb-item",
    # topbar
    "dg-logo": "nav-logo",
    "dg-navbar-link": "navbar-link",
    "dg-anchors": "nav-anchors",
    "dg-anchor": "nav-anchor",
    "dg-tabs": "nav-tabs",
    "dg-tab-link": "nav-tabs-item",
    "dg-navbar": "topbar-right-container",
    "dg-nav-tag": "nav-tag-pill",
    "dg-nav-tag-text": "nav-tag-pill-text",
    # topbar dropdowns and the products selector
    "dg-switch-dropdown-trigger": "nav-dropdown-trigger",
    "dg-switch-dropdown-content": "nav-dropdown-content",
    "dg-switch-dropdown-item": "nav-dropdown-item",
    "dg-switch-dropdown-text": "nav-dropdown-item-text-container",
    "dg-switch-dropdown-title": "nav-dropdown-item-title",
    "dg-switch-dropdown-description": "nav-dropdown-item-description",
    "dg-switch-dropdown-icon": "nav-dropdown-item-icon",
    "dg-switch-product-trigger": "nav-dropdown-products-selector-trigger",
    "dg-switch-product-content": "nav-dropdown-products-selector-content",
    "dg-switch-product-item": "nav-dropdown-products-selector-item",
    "dg-switch-product-title": "nav-dropdown-products-selector-item-title",
    "dg-switch-product-description": "nav-dropdown-products-selector-item-description",
    "dg-switch-product-icon": "nav-dropdown-products-selector-item-icon",
    # sidebar
    "dg-nav-group-box": "sidebar-group",
    "dg-nav-group-icon": "sidebar-group-icon",
    "dg-nav-group-title": "sidebar-group-header",
    "dg-method": "method-nav-pill",
    # table of contents
    "dg-toc": "toc",
    "dg-toc-item": "toc-item",
    # footer and pagination
    "dg-footer": "footer",
    "dg-footer-links": "advanced-footer",
    "dg-prev": "pagination-prev",
    "dg-next": "pagination-next",
    "dg-pagination-title": "pagination-title",
    # API reference
    "dg-api-section": "api-section",
    "dg-api-heading": "api-section-heading api-section-heading-title",  # the heading is its title
    "dg-api-media": "api-section-heading-subtitle",  # the body's media type under "Body"
    "dg-api-field": "field",
    "dg-field": "field",
    "dg-api-method": "method-pill",
    "dg-prompt": "prompt",
    # feedback
    "dg-feedback-row": "feedback-toolbar",
    # multi-view
    "dg-view": "multi-view-item",
    "dg-view-select": "multi-view-dropdown",
    "dg-view-trigger": "multi-view-dropdown-trigger",
    "dg-view-option": "multi-view-dropdown-item",
    # directory
    "dg-directory": "directory",
    "dg-directory-group": "directory-group",
    "dg-directory-page": "directory-page",
    "dg-directory-card": "directory-card",
    # 404
    "dg-notfound": "not-found-container",
    "dg-notfound-code": "not-found-status-code",
    "dg-notfound-title": "not-found-title",
    "dg-notfound-description": "not-found-description",
    # color and tree
    "dg-color": "color",
    "dg-color-row": "color-row",
    "dg-color-item": "color-item",
    "dg-tree": "tree",
    "dg-tree-folder": "tree-folder",
    "dg-tree-file": "tree-file",
}

# A docsgen class that, beside the key, means the element is another one (the prompt's copy button).
_NOT_WITH = {"dg-copy": "dg-prompt-copy"}

# docsgen class -> the Mintlify id of that element, given to its first occurrence on a page.
ID_HOOKS: dict[str, str] = {
    "dg-request-example": "request-example",
    "dg-response-example": "response-example",
    "dg-update-filters": "changelog-filters",
    "dg-update-filters-content": "changelog-filters-content",
    "dg-view-select": "multi-view-dropdown",
}


def _trie_pattern(words: list[str]) -> str:
    """Return a regex alternation matching exactly the given words, as a trie (shared prefixes tested once: the
    regex engine tries a branch per letter, not every word in turn)."""
    trie: dict[str, dict] = {}
    for word in words:
        node = trie
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def pattern(node: dict[str, dict]) -> str:
        branches = [re.escape(char) + pattern(node[char]) for char in sorted(node) if char]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    return pattern(trie)


# A class of CLASS_HOOKS, followed by neither a word character nor "-" ("dg-method-get" is not "dg-method"): the
# class attributes holding one are the only ones add_hooks changes. The page is searched for these names (the
# regex engine passes over a code block's hundreds of token spans and an API page's hundreds of endpoints-menu
# entries), and each name found inside a class attribute has that attribute rewritten.
# The ID_HOOKS classes are searched for in the same pass (where each first occurs: the id pass starts there).
_HOOKED_CLASS = re.compile(_trie_pattern([*CLASS_HOOKS, *ID_HOOKS]) + r"(?![\w-])")
# The class attributes as they are read: `class="value"` with a value naming a "dg-" class and holding no quote,
# "<" or ">". A page where one `class="` runs on into another (`class="a class="dg-card"`, never made by docsgen's
# own templates) reads `class="a class="` as the attribute, so the inner one is none: such a page is split on
# every such attribute instead.
_DG_CLASS_ATTR = re.compile(r'class="(?=[^"<>]*dg-)([^"<>]*)"')
_TAG_START = re.compile(r"<[a-zA-Z][^<>]*\Z")


# any class ID_HOOKS names, the longest first (none holds "dg-" but at its start, so every occurrence is found)
_ID_CLASSES = re.compile("|".join(re.escape(cls) for cls in sorted(ID_HOOKS, key=len, reverse=True)))


def add_hooks(html: str) -> str:
    """Return page HTML with Mintlify's class names beside docsgen's and its ids on once-per-page elements."""
    found: dict[str, int] = {}  # ID_HOOKS class -> where the page first names it (no id can be placed before)
    hooked = _hooked_pass(html, found)
    if hooked is None:
        html = _split_pass(html)
        found = dict.fromkeys(_ID_CLASSES.findall(html), 0)  # one scan of the page: most have none of them
    else:
        html = hooked
    if found:
        for cls, hook in ID_HOOKS.items():
            starts = [at for name, at in found.items() if name.startswith(cls)]
            if starts:
                html = _first_id(html, cls, hook, min(starts))
    return html


def _hooked_pass(html: str, found: dict[str, int]) -> str | None:
    """Return html with each class attribute naming a class of CLASS_HOOKS rewritten (its hooks added); None
    when such an attribute's `class="` may be inside another one's value (the split pass reads that page).
    `found` gets each ID_HOOKS class named (followed by neither a word character nor "-") and where it first
    is in the returned html. Each candidate attribute (a pair of quotes) is looked at once, however many names lie
    between its quotes: the searches for quotes never go over the same text twice."""
    parts: list[str] = []
    done = 0  # html[:done] is in parts
    shift = before = 0  # what the rewrites so far added / had added before the last one
    memo = _CLASS_MEMO
    # html[:passed] holds no attribute to rewrite (a name before it is between the same two quotes)
    passed = 0
    for name in _HOOKED_CLASS.finditer(html):
        at = name.start()
        if (cls := name[0]) in ID_HOOKS and cls not in found:
            found[cls] = at + (before if at < done else shift)  # the attribute's value keeps its place in it
        if at < done or at < passed:
            continue  # in the attribute just rewritten, or between the quotes of one that is none
        quote = html.rfind('"', done, at)
        close = html.find('"', at)
        if close < 0:
            # no quote after it: no attribute from here on (names are still noted in found)
            passed = len(html)
            continue
        if quote < 6 or not html.startswith('class="', quote - 6):
            passed = close
            continue
        value = html[quote + 1 : close]
        if "<" in value or ">" in value:
            passed = close
            continue
        previous = html.rfind('"', 0, quote - 6)
        if previous >= 6 and html.startswith('class="', previous - 6):
            return None  # `class="...class="`: is this one an attribute? the split pass reads the page
        parts.append(html[done : quote - 6])
        parts.append(attr := memo.get(value) or _with_class_hooks(value))
        before, shift = shift, shift + len(attr) - (close + 7 - quote)
        done = close + 1
    if not parts:
        return html
    parts.append(html[done:])
    return "".join(parts)


def _split_pass(html: str) -> str:
    """Return html with every class attribute naming a "dg-" class rewritten, split on those attributes."""
    # split, not sub: the class values (every other part) are looked up in a loop, where a callback per match
    # (a match object and a call each) cost twice as much
    parts = _DG_CLASS_ATTR.split(html)
    memo = _CLASS_MEMO
    for index in range(1, len(parts), 2):
        parts[index] = memo.get(parts[index]) or _with_class_hooks(parts[index])
    return "".join(parts)


# class attribute value -> the attribute with its hooks: pages repeat the same few dozen values (the frame's, the
# components'), so each is worked out once per process (bounded: a value holding page-made classes is rare)
_CLASS_MEMO: dict[str, str] = {}
_CLASS_MEMO_SIZE = 4096


def _with_class_hooks(value: str) -> str:
    """Return the class attribute of this value with its hooks (`class="..."`), from the memo when known."""
    found = _CLASS_MEMO.get(value)
    if found is None:
        if len(_CLASS_MEMO) >= _CLASS_MEMO_SIZE:
            _CLASS_MEMO.clear()
        found = _CLASS_MEMO[value] = _class_hooks(value)
    return found


def _class_hooks(value: str) -> str:
    """Return `class="value"` with the Mintlify classes of its docsgen classes added."""
    tokens = value.split()
    extra = [
        hook
        for t in tokens
        if t in CLASS_HOOKS and _NOT_WITH.get(t) not in tokens
        for hook in CLASS_HOOKS[t].split()
        if hook not in tokens
    ]
    return f'class="{value} {" ".join(dict.fromkeys(extra))}"' if extra else f'class="{value}"'


def _first_id(html: str, cls: str, hook: str, start: int = 0) -> str:
    """Give the first element carrying class `cls` the id `hook`, unless the page has that id or it has one
    (`start`: where html first names `cls`, or before)."""
    if f'id="{hook}"' in html:
        return html
    found = _class_attr_with(html, cls, start)
    if found is None:
        return html
    attr_start, attr_end = found
    tag = html.rfind("<", 0, attr_start)
    end = html.find(">", attr_end)
    if tag < 0 or end < 0 or not _TAG_START.match(html, tag, attr_start):
        return html
    if re.search(r'\sid="', html[tag:end]):
        return html
    return html[:attr_start] + f'id="{hook}" ' + html[attr_start:]


def _class_attr_with(html: str, cls: str, start: int = 0) -> tuple[int, int] | None:
    """Return (start, end) of the first `class="..."` whose value holds `cls` between single spaces or quotes
    (what `class="(?:[^"]* )?CLS(?: [^"]*)?"` finds), found by looking at each occurrence of `cls` from `start`
    in turn."""
    pos = html.find(cls, start)
    # the quotes around each occurrence, each stretch of html searched once (a page naming cls a million times in
    # its text has each occurrence's quotes found without going back to the start or on to the end every time)
    seen_to, last_quote = 0, -1  # the last '"' in html[:seen_to] (-1: none)
    # the first '"' at or after the last occurrence's end (-1: none to the end; -2: not looked yet)
    next_quote = -2
    while pos >= 0:
        after = pos + len(cls)
        before, follows = html[pos - 1 : pos], html[after : after + 1]
        if (before == '"' or before == " ") and (follows == '"' or follows == " "):
            found = html.rfind('"', seen_to, pos)
            last_quote, seen_to = (found if found >= 0 else last_quote), pos
            if next_quote != -1 and next_quote < after:
                next_quote = html.find('"', after)
            quote, close = last_quote, next_quote
            if quote >= 6 and close >= 0 and html.startswith('class="', quote - 6):
                return quote - 6, close + 1
        pos = html.find(cls, pos + 1)
    return None
