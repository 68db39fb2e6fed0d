"""HTML for generated API reference pages (endpoints, webhooks, schema models) from a raw OpenAPI dict."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
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


# The interface words (themes/base/strings.json keys) API reference pages are written with: section titles, field
# pills and facts. Each is looked up with its English text (RenderContext.word), so a page without words is English.
WORD_KEYS: tuple[str, ...] = (
    "authorizations", "path_parameters", "query_parameters", "header_parameters", "cookie_parameters", "body",
    "payload", "response", "callbacks", "request", "required", "deprecated_pill", "read_only", "write_only",
    "available_options", "allowed_value", "default", "example", "examples", "required_range", "string_length",
    "pattern", "multiple_of", "array_length", "n_elements", "unique_items", "property_count", "and_more",
    "scopes", "messages", "headers", "expected_responses", "send", "receive", "auth_bearer", "auth_basic", "auth_oauth2", "auth_oidc",
    "auth_mtls", "response_no_body", "one_of", "any_of", "by_discriminator", "recursive_see_above",
    "nested_not_shown", "nested_too_large", "nested_more_than", "show_child_attributes", "content_types", "links", "encoding", "content_type",
    "body_is_required", "request_example", "response_example", "payload_example", "message_examples", "type",
    "webhook", "other_servers", "channel_address", "server",
)  # fmt: skip


class ApiWords(Mapping[str, str]):
    """The API words of a page's language (a read-only, hashable mapping: part of ApiSettings, a cache key)."""

    def __init__(self, words: Mapping[str, str] | None = None) -> None:
        self._words = {key: words[key] for key in WORD_KEYS if key in words} if words else {}
        self._hash = hash(frozenset(self._words.items()))

    def __getitem__(self, key: str) -> str:
        return self._words[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._words)

    def __len__(self) -> int:
        return len(self._words)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ApiWords) and self._words == other._words

    def __repr__(self) -> str:
        return f"ApiWords({self._words!r})"


NO_WORDS = ApiWords()


_WORDS_MEMO: dict[int, tuple[Mapping[str, str], ApiWords]] = {}


def api_words(words: Mapping[str, str] | None) -> ApiWords:
    """Return the API words of a page's interface words, made once per words object (the pages of a language
    share theirs, docsgen.render.html.page_strings; the object is held with its answer so its id is not reused)."""
    if not words:
        return NO_WORDS
    found = _WORDS_MEMO.get(id(words))
    if found is not None and found[0] is words:
        return found[1]
    if len(_WORDS_MEMO) >= 64:
        _WORDS_MEMO.clear()
    made = ApiWords(words)
    _WORDS_MEMO[id(words)] = (words, made)
    return made


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
    words: ApiWords = NO_WORDS  # the page language's words (English when empty)

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
    "NO_WORDS",
    "WORD_KEYS",
    "ApiWords",
    "api_words",
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
