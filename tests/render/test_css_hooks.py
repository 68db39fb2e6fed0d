"""Mintlify's CSS hooks (customize/custom-scripts.mdx): its 49 ids, each on the element it names on the page kinds
that have that element, unique per page; its class names beside docsgen's; corpus sites' own style.css matching.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from docsgen.build import build
from tests.conftest import FIXTURES, write_tree

# The 49 ids the page documents, in its order.
DOCUMENTED_IDS = [
    "body-content",
    "content-area",
    "content",
    "header",
    "banner",
    "footer",
    "page-title",
    "pagination",
    "panel",
    "background-color",
    "navbar",
    "topbar-cta-button",
    "mobile-nav",
    "mobile-nav-content",
    "sidebar",
    "sidebar-content",
    "table-of-contents",
    "table-of-contents-layout",
    "table-of-contents-content",
    "search-bar-entry",
    "search-bar-entry-mobile",
    "search-input",
    "assistant-entry",
    "assistant-entry-mobile",
    "chat-assistant-sheet",
    "chat-assistant-textarea",
    "request-example",
    "response-example",
    "api-playground-input",
    "endpoints-menu-trigger",
    "ask-assistant-code-block-button",
    "code-snippet-feedback-button",
    "code-snippet-feedback-textarea",
    "feedback-thumbs-up",
    "feedback-thumbs-down",
    "feedback-form",
    "feedback-form-input",
    "feedback-form-cancel",
    "feedback-form-submit",
    "page-context-menu",
    "page-context-menu-button",
    "localization-select-trigger",
    "localization-select-content",
    "localization-select-item",
    "changelog-filters",
    "changelog-filters-content",
    "multi-view-dropdown",
    "text-selection-tooltip",
    "text-selection-tooltip-button",
]

FRAME = [
    "body-content",
    "content-area",
    "content",
    "header",
    "footer",
    "page-title",
    "background-color",
    "navbar",
    "sidebar",
    "sidebar-content",
    "mobile-nav",
    "search-bar-entry",
    "search-input",
]
# Which page kind holds which id (besides FRAME, on every page kind but 404).
PAGE_KINDS: dict[str, list[str]] = {
    "guide": [
        *FRAME,
        *[
            "banner",
            "pagination",
            "topbar-cta-button",
            "mobile-nav-content",
            "table-of-contents",
            "table-of-contents-layout",
        ],
        *[
            "table-of-contents-content",
            "feedback-thumbs-up",
            "feedback-thumbs-down",
            "feedback-form",
            "feedback-form-input",
        ],
        *["feedback-form-cancel", "feedback-form-submit", "page-context-menu", "page-context-menu-button"],
    ],
    "guide, theme with the search on top of the sidebar (luma)": [*FRAME, "search-bar-entry-mobile"],
    "page with a <Panel>": [*FRAME, "panel"],
    "API page": [*FRAME, "request-example", "response-example", "endpoints-menu-trigger"],
    "changelog with tags": [*FRAME, "changelog-filters", "changelog-filters-content"],
    "page with <View>s": [*FRAME, "multi-view-dropdown"],
    "multilingual page": [
        *FRAME,
        *["localization-select-trigger", "localization-select-content", "localization-select-item"],
    ],
    "404": [
        "content-area",
        "content",
        "navbar",
        "footer",
        "background-color",
        "search-bar-entry",
        "search-input",
    ],
}
# Made by the page's JavaScript (checked in a browser: test_css_hooks_browser.py; the assistant's in
# tests/server/test_analytics_browser.py, as the assistant needs a feedback server, and its phone, code-block and
# selection entries in test_assistant_actions_browser.py).
BROWSER_MADE = {
    "api-playground-input": "the playground's form (js/playground.js)",
    "code-snippet-feedback-button": "the first code block's feedback button (js/feedback.js)",
    "code-snippet-feedback-textarea": "its text area",
    "assistant-entry": "'Ask AI' in the search dialog (js/assistant.js)",
    "chat-assistant-sheet": "the assistant's chat panel",
    "chat-assistant-textarea": "its question field",
    "assistant-entry-mobile": "the phone top bar's assistant button (js/assistant-actions.js)",
    "ask-assistant-code-block-button": "'Ask AI' on the first code block",
    "text-selection-tooltip": "the tooltip over text selected in the page body",
    "text-selection-tooltip-button": "its 'Ask AI' button",
}
# Elements docsgen's pages do not have (none left: each documented id has its element).
NO_SUCH_ELEMENT: dict[str, str] = {}

SPEC = {
    "openapi": "3.1.0",
    "info": {"title": "Pets", "version": "1"},
    "servers": [{"url": "https://api.example.com"}],
    "paths": {
        "/pets": {
            "get": {
                "summary": "List pets",
                "responses": {
                    "200": {"description": "ok", "content": {"application/json": {"example": [1]}}}
                },
            }
        }
    },
}


def hook_site(root: Path, theme: str = "mint") -> Path:
    """Write a site whose pages have every element docsgen can carry a Mintlify id on."""
    config = {
        "theme": theme,
        "name": "Hooks",
        "colors": {"primary": "#1D4ED8"},
        "banner": {"content": "Hello"},
        "navbar": {
            "links": [{"label": "Blog", "href": "https://blog.example.com"}],
            "primary": {"type": "button", "label": "Sign up", "href": "https://app.example.com"},
        },
        "feedback": {"endpoint": "https://fb.example/v1/feedback/acme", "thumbsRating": True},
        "contextual": {"options": ["copy", "view"]},
        "navigation": {
            "global": {
                "dropdowns": [
                    {
                        "dropdown": "Blog",
                        "icon": "book",
                        "description": "News",
                        "href": "https://blog.example.com",
                    }
                ]
            },
            "tabs": [
                {
                    "tab": "Docs",
                    "groups": [
                        {
                            "group": "Docs",
                            "pages": ["index", "guide", "panel", "changelog", "views", "GET /pets"],
                        }
                    ],
                },
                {"tab": "More", "groups": [{"group": "More", "pages": ["more"]}]},
            ],
        },
        "openapi": "openapi.json",
    }
    return write_tree(
        root,
        {
            "docs.json": json.dumps(config),
            "openapi.json": json.dumps(SPEC),
            "index.mdx": "---\ntitle: Home\n---\n\nHello.\n",
            "guide.mdx": "---\ntitle: Guide\n---\n\n## Setup\n\n```bash\nmake\n```\n\n## Use\n\n"
            '<Steps>\n<Step title="One">\n\nDo\n\n</Step>\n</Steps>\n\n<AccordionGroup>\n'
            '<Accordion title="Q">\n\nA\n\n</Accordion>\n</AccordionGroup>\n',
            "more.mdx": "---\ntitle: More\n---\n\nMore.\n",
            "panel.mdx": "---\ntitle: Panel\n---\n\n## A\n\n<Panel>side</Panel>\n",
            "changelog.mdx": '---\ntitle: Changelog\n---\n\n<Update label="May" tags={["API"]}>\n\nOne\n\n'
            '</Update>\n\n<Update label="April" tags={["UI"]}>\n\nTwo\n\n</Update>\n',
            "views.mdx": '---\ntitle: Views\n---\n\n<View title="Python">\n\nPy\n\n</View>\n\n'
            '<View title="Go">\n\nGo\n\n</View>\n',
        },
    )


def ids_of(path: Path) -> Counter[str]:
    return Counter(re.findall(r'\sid="([^"]+)"', path.read_text(encoding="utf-8")))


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("hooks")
    build(hook_site(root / "src"), root / "out")
    build(hook_site(root / "src-luma", "luma"), root / "out-luma")
    build(FIXTURES / "nav-languages", root / "langs")
    api = next(p for p in (root / "out").rglob("index.html") if "list-pets" in str(p))
    return {
        "guide": root / "out/guide/index.html",
        "guide, theme with the search on top of the sidebar (luma)": root / "out-luma/guide/index.html",
        "page with a <Panel>": root / "out/panel/index.html",
        "API page": api,
        "changelog with tags": root / "out/changelog/index.html",
        "page with <View>s": root / "out/views/index.html",
        "multilingual page": root / "langs/fr/guide/index.html",
        "404": root / "out/404.html",
    }


def test_every_documented_id_is_placed_made_by_script_or_has_no_element():
    assert len(DOCUMENTED_IDS) == 49 == len(set(DOCUMENTED_IDS))
    placed = {i for ids in PAGE_KINDS.values() for i in ids}
    assert placed | set(BROWSER_MADE) | set(NO_SUCH_ELEMENT) == set(DOCUMENTED_IDS)
    assert not placed & set(BROWSER_MADE) and not placed & set(NO_SUCH_ELEMENT)
    assert len(placed) + len(BROWSER_MADE) == 49  # every documented id has its element


@pytest.mark.parametrize("kind", list(PAGE_KINDS))
def test_page_kind_holds_its_ids_once_each(built, kind):
    ids = ids_of(built[kind])
    missing = [i for i in PAGE_KINDS[kind] if i not in ids]
    assert not missing, f"{kind}: missing {missing}"
    assert [i for i, n in ids.items() if n > 1] == [], f"{kind}: duplicate ids"


def test_ids_sit_on_the_elements_they_name(built):
    html = built["guide"].read_text(encoding="utf-8")
    for tag, hook in [
        ("header", "navbar"),
        ("aside", "sidebar"),
        ("nav", "sidebar-content"),
        ("main", "content-area"),
        ("h1", "page-title"),
        ("footer", "footer"),
        ("nav", "pagination"),
        ("aside", "table-of-contents"),
        ("a", "topbar-cta-button"),
        ("input", "search-input"),
        ("textarea", "feedback-form-input"),
        ("div", "banner"),
    ]:
        assert re.search(rf'<{tag}\b[^>]*\sid="{hook}"', html), (tag, hook)
    assert re.search(r'<h1\b[^>]*id="page-title"[^>]*>Guide<', html)
    assert re.search(r'<html\b[^>]*data-current-path="/guide"', html)


def test_mintlify_class_names_stand_beside_docsgens(built, tmp_path):
    guide = built["guide"].read_text(encoding="utf-8")
    for cls in (
        "nav-logo",
        "navbar-link",
        "nav-tabs" if "dg-tabs" in guide else "nav-logo",
        "toc",
        "toc-item",
        "mdx-content",
        "footer",
        "pagination-prev",
        "pagination-next",
        "pagination-title",
        "code-block",
        "code-block-copy-button",
        "topbar-right-container",
    ):
        assert re.search(rf'class="[^"]*\b{cls}\b', guide), cls
    sidebar = next((built["guide"].parents[1] / "_nav").glob("*.html")).read_text(encoding="utf-8")
    assert 'class="dg-nav-group-box sidebar-group"' in sidebar and "sidebar-group-header" in sidebar
    api = built["API page"].read_text(encoding="utf-8")
    assert "method-pill" in api and "api-section" in api and "method-nav-pill" not in api.split("</main>")[0]
    components = tmp_path / "components"
    build(FIXTURES / "components", components)
    text = "".join(p.read_text(encoding="utf-8") for p in components.rglob("index.html"))
    for cls in (
        "callout",
        "card",
        "columns",
        "accordion",
        "accordion-group",
        "code-group",
        "steps",
        "step",
        "tabs",
        "tile",
        "tooltip",
        "update",
        "expandable",
        "frame",
        "icon",
        "field",
        "prompt",
        "color",
        "color-row",
        "color-item",
        "tree",
        "tree-folder",
        "tree-file",
        "panel",
        "card-group",
        "multi-view-item",
        "multi-view-dropdown",
        "mermaid",
    ):
        assert re.search(rf'class="[^"]*(?<![\w-]){re.escape(cls)}(?![\w-])', text), cls
    not_found = built["404"].read_text(encoding="utf-8")
    for cls in ("not-found-container", "not-found-status-code", "not-found-title", "not-found-description"):
        assert cls in not_found
