"""Mintlify's 118 CSS hook class names (customize/custom-scripts.mdx): each one is on the element it names in
docsgen's built pages, written by the theme script that makes that element, or listed here with the reason
docsgen has no such element (the same reasons are in docs/guides/customize.mdx).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from docsgen.build import build
from tests.conftest import FIXTURES, REPO, SHARED, write_tree
from tests.render.test_css_hooks import hook_site

# The 118 class names the page documents, in its order.
DOCUMENTED_CLASSES = [
    "accordion",
    "accordion-group",
    "callout",
    "card",
    "card-group",
    "columns",
    "code-block",
    "code-block-icon",
    "code-block-copy-button",
    "code-block-fade-overlay",
    "code-group",
    "expandable",
    "frame",
    "icon",
    "mermaid",
    "step",
    "steps",
    "tab-icon",
    "tabs",
    "tile",
    "tooltip",
    "update",
    "mdx-content",
    "panel",
    "eyebrow",
    "link",
    "breadcrumb-list",
    "breadcrumb-item",
    "nav-logo",
    "navbar-link",
    "nav-anchors",
    "nav-anchor",
    "nav-tabs",
    "nav-tabs-item",
    "mobile-nav-tabs-item",
    "topbar-right-container",
    "nav-tag-pill",
    "nav-tag-pill-text",
    "nav-dropdown-trigger",
    "nav-dropdown-content",
    "nav-dropdown-item",
    "nav-dropdown-item-text-container",
    "nav-dropdown-item-title",
    "nav-dropdown-item-description",
    "nav-dropdown-item-icon",
    "nav-dropdown-products-selector-trigger",
    "nav-dropdown-products-selector-content",
    "nav-dropdown-products-selector-item",
    "nav-dropdown-products-selector-item-title",
    "nav-dropdown-products-selector-item-description",
    "nav-dropdown-products-selector-item-icon",
    "sidebar-group",
    "sidebar-group-icon",
    "sidebar-group-header",
    "sidebar-title",
    "sidebar-nav-group-divider",
    "toc",
    "toc-item",
    "footer",
    "advanced-footer",
    "pagination-prev",
    "pagination-next",
    "pagination-title",
    "api-section",
    "api-section-heading",
    "api-section-heading-title",
    "api-section-heading-subtitle",
    "field",
    "option-dropdown",
    "tryit-button",
    "method-pill",
    "method-nav-pill",
    "prompt",
    "chat-assistant-sheet",
    "chat-assistant-sheet-header",
    "chat-assistant-sheet-content",
    "chat-assistant-input",
    "chat-assistant-floating-input",
    "chat-assistant-send-button",
    "chat-assistant-disclaimer-text",
    "chat-assistant-payload-item",
    "starter-question-text",
    "feedback-toolbar",
    "contextual-feedback-container",
    "contextual-feedback-form",
    "contextual-feedback-form-title",
    "contextual-feedback-input",
    "contextual-feedback-button",
    "contextual-feedback-form-submit-button",
    "code-snippet-feedback-popover-content",
    "code-snippet-feedback-form",
    "code-snippet-feedback-textarea",
    "code-snippet-feedback-form-title",
    "code-snippet-feedback-form-description",
    "code-snippet-feedback-form-submit-button",
    "login-link",
    "logout-link",
    "multi-view-item",
    "multi-view-dropdown",
    "multi-view-dropdown-trigger",
    "multi-view-dropdown-content",
    "multi-view-dropdown-item",
    "directory",
    "directory-group",
    "directory-page",
    "directory-card",
    "not-found-container",
    "not-found-status-code",
    "not-found-title",
    "not-found-description",
    "not-found-recommended-pages-list",
    "not-found-recommended-page-link",
    "color",
    "color-row",
    "color-item",
    "tree",
    "tree-folder",
    "tree-file",
]

# Written by the theme's scripts, on the element they make (checked in a browser: test_css_hooks_browser.py and,
# for the assistant, which needs a feedback server, tests/server/test_analytics_browser.py).
SCRIPT_MADE = {
    "option-dropdown": "api-reference.js",  # the switch between a field's oneOf/anyOf options
    "tryit-button": "playground.js",  # the button that opens the playground
    **{
        f"chat-assistant-{part}": "assistant.js"
        for part in ("sheet", "sheet-header", "sheet-content", "input", "send-button", "disclaimer-text")
    },
    "chat-assistant-payload-item": "assistant.js",
    **{
        f"code-snippet-feedback-{part}": "feedback.js"  # the comment form under a code block
        for part in ("form", "textarea", "form-title", "form-submit-button")
    },
    "not-found-recommended-page-link": "not-found.js",  # a page the 404 page recommends (its list is in the HTML)
}

# Elements docsgen's pages do not have (docs/guides/customize.mdx gives the same reasons).
NO_SUCH_CLASS_ELEMENT = {
    "mobile-nav-tabs-item": "phones show the same tab row as desktops (its items are `nav-tabs-item`)",
    "sidebar-title": "the sidebar has no title above its groups",
    "sidebar-nav-group-divider": "sidebar groups are separated by space, not a divider element",
    "chat-assistant-floating-input": "the assistant opens from the search dialog; there is no floating input",
    "starter-question-text": "the assistant shows no suggested starter questions",
    "code-snippet-feedback-popover-content": "the code snippet comment form opens inline under the block, not "
    "in a popover (the form is `code-snippet-feedback-form`)",
    "code-snippet-feedback-form-description": "the code snippet comment form has a title and no description",
    "login-link": "a static site has no sign-in link (the feedback server's sign-in gate has its own page)",
    "logout-link": "a static site has no sign-out link",
    "multi-view-dropdown-content": "the view selector is a native <select>, its list drawn by the browser (the "
    "trigger is the <select>, the items its <option>s)",
}

SPEC = {
    "openapi": "3.1.0",
    "info": {"title": "Pets", "version": "1"},
    "servers": [{"url": "https://api.example.com"}],
    "paths": {
        "/pets": {
            "post": {
                "summary": "Create pet",
                "requestBody": {
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "properties": {
                                    "kind": {
                                        "oneOf": [
                                            {"title": "Cat", "type": "object", "properties": {"a": {}}},
                                            {"title": "Dog", "type": "object", "properties": {"b": {}}},
                                        ]
                                    }
                                },
                            }
                        }
                    }
                },
                "responses": {"200": {"description": "ok"}},
            }
        }
    },
}

GUIDE = """---
title: Guide
---

See [the reference](/dir/one).

```bash install.sh icon="terminal" expandable
{lines}
```

<Tabs>
<Tab title="One" icon="house">

A

</Tab>
<Tab title="Two">

B

</Tab>
</Tabs>

<View title="Python">

Py

</View>

<View title="Go">

Go

</View>
"""


def class_site(root: Path) -> Path:
    """Write a maple site with products, anchors, footer columns, directories, tagged groups with icons, a code
    block with an icon, tabs with icons, views, a link and an API body with options."""
    group = {"group": "Start", "icon": "rocket", "tag": "New", "pages": ["index", "guide", "POST /pets"]}
    config = {
        "theme": "maple",
        "name": "Classes",
        "colors": {"primary": "#1D4ED8"},
        "footer": {
            "links": [{"header": "Company", "items": [{"label": "Blog", "href": "https://b.example"}]}]
        },
        "navigation": {
            "global": {"anchors": [{"anchor": "Status", "icon": "signal", "href": "https://status.example"}]},
            "products": [
                {
                    "product": "Core",
                    "icon": "box",
                    "description": "The core",
                    "groups": [
                        group,
                        {
                            "group": "Dir",
                            "root": "dir/index",
                            "directory": "accordion",
                            "pages": ["dir/one", {"group": "Sub", "pages": ["dir/two"]}],
                        },
                        {
                            "group": "Cards",
                            "root": "cards/index",
                            "directory": "card",
                            "pages": ["cards/one"],
                        },
                    ],
                },
                {"product": "Extra", "description": "More", "pages": ["extra"]},
            ],
        },
        "openapi": "openapi.json",
    }
    pages = {
        f"{d}/{n}.mdx": f"---\ntitle: {d} {n}\n---\n\nText.\n"
        for d in ("dir", "cards")
        for n in ("index", "one", "two")
    }
    return write_tree(
        root,
        {
            "docs.json": json.dumps(config),
            "openapi.json": json.dumps(SPEC),
            "index.mdx": "---\ntitle: Home\n---\n\nHello.\n",
            "extra.mdx": "---\ntitle: Extra\n---\n\nMore.\n",
            "guide.mdx": GUIDE.replace("{lines}", "\n".join(f"echo {i}" for i in range(30))),
            **pages,
        },
    )


def _classes(paths: list[Path]) -> set[str]:
    found: set[str] = set()
    for path in paths:
        for value in re.findall(r'class="([^"]*)"', path.read_text(encoding="utf-8")):
            found.update(value.split())
    return found


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("hook-classes")
    build(class_site(root / "src"), root / "classes")
    build(hook_site(root / "hooks-src"), root / "hooks")
    build(FIXTURES / "components", root / "components")
    return {name: root / name for name in ("classes", "hooks", "components")}


def test_every_documented_class_is_placed_made_by_script_or_has_no_element(built):
    assert len(DOCUMENTED_CLASSES) == 118 == len(set(DOCUMENTED_CLASSES))
    html = _classes([p for out in built.values() for p in out.rglob("*.html")])
    placed = {c for c in DOCUMENTED_CLASSES if c in html}
    scripted, absent = set(SCRIPT_MADE), set(NO_SUCH_CLASS_ELEMENT)
    unaccounted = set(DOCUMENTED_CLASSES) - placed - scripted - absent
    assert not unaccounted, f"neither placed, made by a script nor listed as absent: {sorted(unaccounted)}"
    assert not placed & absent, f"listed as absent but placed: {sorted(placed & absent)}"
    assert not placed & scripted, f"listed as script-made but in the HTML: {sorted(placed & scripted)}"
    assert not scripted & absent
    assert (len(placed), len(scripted), len(absent)) == (94, 14, 10)


def test_script_made_classes_are_in_the_scripts_that_make_them():
    for name, script in SCRIPT_MADE.items():
        source = (REPO / "themes/base/static/js" / script).read_text(encoding="utf-8")
        assert re.search(rf"[\"' ]{re.escape(name)}[\"' ]", source), (name, script)


@pytest.mark.shared
def test_the_list_is_mintlifys():
    doc = (SHARED / "corpus/mintlify-docs/customize/custom-scripts.mdx").read_text(encoding="utf-8")
    section = doc.split("Multiple instances of these elements", 1)[1].split("Active state", 1)[0]
    assert re.findall(r"^\s+- `([a-z-]+)`:", section, re.M) == DOCUMENTED_CLASSES


def test_new_hooks_sit_on_the_elements_they_name(built):
    out = built["classes"]
    guide = (out / "guide/index.html").read_text(encoding="utf-8")
    header = re.search(r'<div class="dg-code-header">(.*?)</div>', guide, re.S)
    assert header and re.search(
        r'<span class="[^"]*\bcode-block-icon\b[^"]*" data-icon="terminal"', header[1]
    )
    body = re.search(r'<div class="dg-code-body">(.*?)</pre>(.*?)</div>', guide, re.S)
    assert body and 'class="dg-code-fade code-block-fade-overlay"' in body[2]
    tab = re.search(r'<button type="button" role="tab"[^>]*>(.*?)</button>', guide, re.S)
    assert tab and re.search(r'class="[^"]*\btab-icon\b[^"]*" data-icon="house"', tab[1])
    assert re.search(r'<a href="[^"]*dir/one/?" class="link">the reference</a>', guide)
    assert re.search(r'<select class="[^"]*\bmulti-view-dropdown-trigger\b', guide)
    assert len(re.findall(r'<option class="[^"]*\bmulti-view-dropdown-item\b', guide)) == 2
    api = next(p for p in out.rglob("index.html") if "create-pet" in str(p)).read_text(encoding="utf-8")
    assert re.search(r'<h2 class="[^"]*\bapi-section-heading-title\b[^"]*" id="[^"]*">Body</h2>', api)
    assert re.search(r'<p class="[^"]*\bapi-section-heading-subtitle\b[^"]*"><code>application/json<', api)
    directory = (out / "dir/index.html").read_text(encoding="utf-8")
    assert re.search(r'<li class="[^"]*\bdirectory-page\b[^"]*"><a href="[^"]*one', directory)
    cards = (out / "cards/index.html").read_text(encoding="utf-8")
    assert re.search(r'<a class="[^"]*\bdirectory-card\b', cards)
    # a <Tab>'s icon does not count as the page's code block icon, nor the reverse
    assert "code-block-icon" not in tab[1] and "tab-icon" not in header[1]


def test_class_hooks_are_worked_out_once_per_value_and_the_memo_stays_bounded() -> None:
    """add_hooks keeps each class attribute's rewrite (pages repeat the frame's and components' classes): the
    second page gets the same hooks from the memo, a value with no docsgen class is left as it is, and a page
    of thousands of distinct values does not grow the memo past its bound."""
    from docsgen.render import hooks

    page = (
        '<div class="dg-card extra"><span class="dg-callout dg-note">x</span><p class="plain dg-">y</p></div>'
    )
    first = hooks.add_hooks(page)
    assert 'class="dg-card extra card"' in first and 'class="plain dg-"' in first
    assert hooks._CLASS_MEMO["dg-card extra"] == 'class="dg-card extra card"'
    assert hooks.add_hooks(page) == first
    many = "".join(f'<i class="dg-card n{i}"></i>' for i in range(hooks._CLASS_MEMO_SIZE + 10))
    out = hooks.add_hooks(many)
    assert out.count(' card"') == hooks._CLASS_MEMO_SIZE + 10
    assert len(hooks._CLASS_MEMO) <= hooks._CLASS_MEMO_SIZE


def _hooks_reference(html: str) -> str:
    """add_hooks as first written: every class attribute naming a "dg-" class rewritten in turn, then each
    once-per-page id given by a regex search for its class."""
    from docsgen.render import hooks

    html = re.sub(r'class="(?=[^"<>]*dg-)([^"<>]*)"', lambda m: hooks._class_hooks(m[1]), html)
    for cls, hook in hooks.ID_HOOKS.items():
        if cls not in html or f'id="{hook}"' in html:
            continue
        found = re.search(r'class="(?:[^"]* )?' + re.escape(cls) + r'(?: [^"]*)?"', html)
        if not found:
            continue
        start, end = html.rfind("<", 0, found.start()), html.find(">", found.end())
        if start < 0 or end < 0 or not re.match(r"<[a-zA-Z][^<>]*\Z", html[start : found.start()]):
            continue
        if not re.search(r'\sid="', html[start:end]):
            html = html[: found.start()] + f'id="{hook}" ' + html[found.start() :]
    return html


def test_hooks_are_those_of_a_rewrite_of_each_attribute_in_turn() -> None:
    """add_hooks (a search for the hooked class names, each rewriting its attribute; a search for the id classes)
    gives what rewriting each "dg-" class attribute and then giving each once-per-page id in turn gives, on pages
    with and without those classes, names that only begin like a hooked one, and attributes running into others."""
    from docsgen.render import hooks

    pages = [
        '<p class="dg-prose">a</p><p class="x">b</p><div class="dg-card dg-card">c</div>',
        '<div class="dg-view-select dg-view">v</div><div class="dg-view-select">w</div><i class="dg-copy dg-prompt-copy">',
        '<div id="request-example"></div><div class="dg-request-example">x</div><b class="dg-response-example">',
        "no classes at all",
        '<a class="dg-">x</a><a class="">y</a><a class="dg-update-filters-content dg-update-filters">z</a>',
        '<a class="dg-update-filters-content">z</a><b class="dg-update-filters x">',
        '<span class="dg-method-get dg-endpoints-label">g</span><i class="dg-api-field-head">'
        '<i class="dg-method\tdg-api-field">dg-card <b class="x dg-card.y">',
        '<a class="dg-x class="dg-card">r</a><p class="dg-card">',  # the inner class=" is inside the first value
        '<a title="class="dg-card">t</a><a class="dg-card<">u</a><a class="dg-tile" class="dg-step">',
        '<i class="dg-request-example x">a</i><i class="y  dg-response-example">b</i>'
        '<i class=" dg-response-example">c</i><i data-class="dg-request-example">d</i>',
        '<i x="dg-request-example" class="dg-request-example" id="q">a</i><b class="dg-request-example">',
        'class="dg-card"<p class="dg-card">dg-request-example class="dg-request-example"',
    ]
    for page in pages:
        assert hooks.add_hooks(page) == _hooks_reference(page), page


def test_only_attributes_naming_a_hooked_class_reach_python() -> None:
    """An API page's hundreds of endpoints-menu entries (`dg-endpoints-label`, `dg-method-get`: no hook) and
    names that only begin like a hooked class are left to the regex engine: only the attributes naming a class
    of CLASS_HOOKS are looked up, and the page is what the pass over every "dg-" attribute gives."""
    from docsgen.render import hooks

    hooks._CLASS_MEMO.clear()
    menu = '<li><span class="dg-endpoints-method dg-method-get">GET</span><span class="dg-endpoints-label">x</span>'
    page = (
        menu * 50 + '<div class="dg-api-field-head"><b class="dg-api-field">f</b><i class="dg-method">m</i>'
    )
    assert hooks.add_hooks(page) == _hooks_reference(page)
    assert set(hooks._CLASS_MEMO) == {"dg-api-field", "dg-method"}


def test_hooks_match_the_reference_on_random_markup() -> None:
    """Pages assembled at random from the pieces the passes look at (quotes, brackets, `class="`, hooked and
    unhooked names, ids, whitespace) get what the pass over every "dg-" attribute gives."""
    import random

    from docsgen.render import hooks

    pieces = [
        'class="', '"', " ", "\n", "<", ">", "<i ", "<b ", 'id="x" ', "dg-", "dg-card", "dg-card-x", "dg-method",
        "dg-method-get", "dg-api-field", "dg-request-example", "dg-response-example", "dg-update-filters",
        "dg-update-filters-content", "dg-view-select", "dg-copy", "dg-prompt-copy", "card", "x", "=", 'id="request-example"',
        '<i class="dg-card">', '<i class="x dg-request-example">', '<b class="dg-response-example"', ' class="dg-copy ',
        '<p class="dg-view-select y">', '<a id="q" class="dg-request-example">', ' class="dg-x class=', '"dg-card ',
    ]  # fmt: skip
    rng = random.Random(35)
    for _ in range(3000):
        page = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 30)))
        assert hooks.add_hooks(page) == _hooks_reference(page), page


def test_the_id_classes_are_found_by_the_class_pass_where_the_page_first_names_them(monkeypatch) -> None:
    """The once-per-page id classes are noticed by the pass over the hooked class names, with where each is
    first named, so the id pass starts there: no second scan of the page for them (but on a page the split pass
    reads, where a `class="` runs into another)."""
    from docsgen.render import hooks

    scans: list[str] = []
    scan, first_id = hooks._ID_CLASSES, hooks._first_id
    starts: list[tuple[str, int]] = []

    class Counted:
        def findall(self, html: str) -> list[str]:
            scans.append(html)
            return scan.findall(html)

    def placed(html: str, cls: str, hook: str, start: int = 0) -> str:
        starts.append((cls, start))
        return first_id(html, cls, hook, start)

    monkeypatch.setattr(hooks, "_ID_CLASSES", Counted())
    monkeypatch.setattr(hooks, "_first_id", placed)
    page = '<p class="dg-card">' + "x" * 1000 + '<div class="dg-card dg-request-example">a</div>'
    out = hooks.add_hooks(page)
    assert (
        out == _hooks_reference(page)
        and 'id="request-example" class="dg-card dg-request-example card"' in out
    )
    named = out.index("dg-request-example") - len('id="request-example" ')  # where, before the id went in
    assert scans == [] and starts == [("dg-request-example", named)]
    run_on = '<a class="dg-x class="dg-card">r</a><i class="dg-request-example">'
    assert hooks.add_hooks(run_on) == _hooks_reference(run_on) and len(scans) == 1


@pytest.mark.timeout(60)
def test_hooks_read_a_page_naming_hooked_classes_a_million_times_in_one_pass() -> None:
    """Hostile text (a 10 MB page naming hooked and id classes in its prose, inside an attribute that is none, or
    after the last quote) is read in one pass: each stretch between quotes is searched once (searching back to
    the last quote and on to the next one for every name took minutes at this size); a smaller page of the same
    kinds gets what the reference pass gives."""
    from docsgen.render import hooks

    def kinds(count: int) -> list[str]:
        return [
            '<div class="dg-card">x</div><p>' + "dg-card " * count + "</p>",
            '<p class="' + "dg-card " * count + '<"></p><i class="dg-card">',
            '<p title="x">' + "dg-request-example " * count + '</p><div class="dg-request-example">x</div>',
            '<p class="dg-card">' + " dg-response-example" * count + " </p>",
        ]

    for page in kinds(300):
        assert hooks.add_hooks(page) == _hooks_reference(page), page[:80]
    for page in kinds(500_000):
        out = hooks.add_hooks(page)
        assert len(out) >= len(page) and out.count("dg-") == page.count("dg-")
    assert 'id="request-example" class="dg-request-example' in hooks.add_hooks(kinds(500_000)[2])
