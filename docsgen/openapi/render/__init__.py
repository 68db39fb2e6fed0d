"""HTML for generated API reference pages (endpoints, webhooks, schema models) from a raw OpenAPI dict."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from docsgen.mdx.types import TocItem

# Canonical language keys of docs.json `api.examples.languages`, each with its accepted aliases.
LANGUAGE_ALIASES: dict[str, tuple[str, ...]] = {
    "bash": ("bash", "curl", "sh", "shell"),
    "python": ("python", "py"),
    "javascript": ("javascript", "js"),
    "node": ("node", "nodejs", "node.js"),
    "php": ("php",),
    "go": ("go", "golang"),
    "java": ("java",),
    "ruby": ("ruby", "rb"),
    "powershell": ("powershell",),
    "swift": ("swift",),
    "csharp": ("csharp", "c#"),
    "dotnet": ("dotnet", ".net", "dot-net"),
    "typescript": ("typescript", "ts"),
    "c": ("c",),
    "cpp": ("c++", "cpp"),
    "kotlin": ("kotlin", "kt"),
    "rust": ("rust", "rs"),
    "dart": ("dart", "flutter"),
}
_ALIAS_TO_LANG = {alias: lang for lang, aliases in LANGUAGE_ALIASES.items() for alias in aliases}
DEFAULT_LANGUAGES: tuple[str, ...] = ("bash", "python", "javascript", "go", "java", "ruby", "php")


def normalize_language(name: str) -> str | None:
    """Return the canonical language key for a docs.json language name or alias, or None if unknown."""
    return _ALIAS_TO_LANG.get(str(name).strip().lower())


def normalize_languages(names: tuple[str, ...] | list[str] | None) -> tuple[str, ...]:
    """Map docs.json languages (aliases allowed) to canonical keys, keeping order and dropping repeats."""
    if not names:
        return DEFAULT_LANGUAGES
    out: list[str] = []
    for name in names:
        lang = normalize_language(name)
        if lang and lang not in out:
            out.append(lang)
    return tuple(out) or DEFAULT_LANGUAGES


@dataclass(frozen=True)
class ApiSettings:
    """The docs.json `api` settings that change how reference pages look."""

    base_url_display: str = "relative"  # "relative" | "full" (docs.json api.url == "full")
    example_languages: tuple[str, ...] = DEFAULT_LANGUAGES  # canonical keys or aliases, in display order
    examples_defaults: str = "all"  # "all" | "required": which optional fields generated examples include
    examples_prefill: bool = False  # playground inputs prefilled from examples/x-default
    autogenerate: bool = True  # False: only x-codeSamples are shown
    playground_display: str = "interactive"  # "interactive" | "simple" | "none" | "auth"
    params_expanded: bool = False  # nested schema trees open by default
    params_post: tuple[str, ...] = ()  # docs.json api.params.post: schema keys shown as pills after a field
    proxy: bool = True

    @property
    def languages(self) -> tuple[str, ...]:
        """Canonical language keys in display order."""
        return normalize_languages(self.example_languages)


@dataclass
class RenderedApi:
    """One rendered API page: main column, right column, TOC, metadata, playground data, Markdown twin."""

    html: str
    aside_html: str = ""
    toc: list[TocItem] = field(default_factory=list)
    title: str = ""
    description: str = ""
    deprecated: bool = False
    playground: dict[str, Any] = field(default_factory=dict)
    assets: set[str] = field(default_factory=lambda: {"api-reference"})
    text: str = (
        ""  # plain text: nothing reads MdxResult.text of generated pages, so the renderer leaves it empty
    )
    markdown: str = ""  # the same content as Markdown, for the agents' twin of the page (docsgen.render.twin)
    search_html: str = ""  # compact HTML for the search index: headings with ids, first-level fields
    trees_cut: bool = False  # the page's schema trees were too large to show in full (limits.MAX_TREE_WORK)


Markdown = Callable[[str], str]


def render_operation(
    data: dict, method: str, path: str, *, settings: ApiSettings, markdown: Markdown
) -> RenderedApi:
    """Render the reference page of one operation (`method` any case, `path` exactly as in `paths`)."""
    from docsgen.openapi.render.endpoint import render_operation_page

    return render_operation_page(data, method, path, settings, markdown)


def render_webhook(data: dict, name: str, *, settings: ApiSettings, markdown: Markdown) -> RenderedApi:
    """Render the reference page of one OpenAPI 3.1 webhook (payload schema and example)."""
    from docsgen.openapi.render.endpoint import render_webhook_page

    return render_webhook_page(data, name, settings, markdown)


def render_schema_page(
    data: dict, schema_name: str, *, settings: ApiSettings, markdown: Markdown
) -> RenderedApi:
    """Render the page of one `components.schemas` model."""
    from docsgen.openapi.render.endpoint import render_model_page

    return render_model_page(data, schema_name, settings, markdown)


def render_manual_endpoint(
    api: str,
    *,
    settings: ApiSettings,
    servers: list[str] | str | None = None,
    auth: dict | None = None,
    params: list[dict] | None = None,
) -> RenderedApi:
    """Render the header and playground data of a hand-written `api: "METHOD /path"` MDX page."""
    from docsgen.openapi.render.manual import render_manual

    return render_manual(api, settings=settings, servers=servers, auth=auth, params=params)


__all__ = [
    "DEFAULT_LANGUAGES",
    "LANGUAGE_ALIASES",
    "ApiSettings",
    "RenderedApi",
    "normalize_language",
    "normalize_languages",
    "render_manual_endpoint",
    "render_operation",
    "render_schema_page",
    "render_webhook",
]
