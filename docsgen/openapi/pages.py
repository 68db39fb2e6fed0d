"""OpenAPI operations, webhooks and schemas become ordinary Pages before the navigation is built (spec 2.5)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docsgen.common.errors import Diagnostic, error, warning
from docsgen.common.jsonpos import format_path
from docsgen.config.model import NavEntry, NavNode, SiteConfig
from docsgen.mdx import MdxContext, MdxResult, render_mdx
from docsgen.openapi import urls
from docsgen.openapi.asyncapi_pages import attach_channel, channel_pages
from docsgen.openapi.check import too_large
from docsgen.openapi.descriptions import markdown_to_html
from docsgen.openapi.discover import SpecFinder
from docsgen.openapi.frontmatter import (
    FrontmatterPages,
    join_markdown,
    readable,
    spec_refs,
)
from docsgen.openapi.navigation import ENTRY as _ENTRY
from docsgen.openapi.navigation import WEBHOOK as _WEBHOOK
from docsgen.openapi.navigation import Generated, declared_overlays, navigation_pages, uses_api
from docsgen.openapi.overview import add_overviews
from docsgen.openapi.playground_auth import check_site, playground_page
from docsgen.openapi.render import (
    ApiSettings,
    RenderedApi,
    api_words,
    render_operation,
    render_webhook,
)
from docsgen.openapi.render.endpoint import with_page_content
from docsgen.openapi.render.mdtext import summary_text
from docsgen.openapi.sanitize import is_script_url, sanitize_html
from docsgen.openapi.spec import Operation, Spec
from docsgen.openapi.spec_links import SpecLinks
from docsgen.openapi.store import SpecStore
from docsgen.pages.markdown_export import page_markdown_of
from docsgen.pages.page import Page
from docsgen.sources.walk import page_url, url_output

DEFAULT_DIRECTORY = urls.DEFAULT_DIRECTORY


def api_settings(
    config: SiteConfig, meta: dict | None = None, words: Mapping[str, str] | None = None
) -> ApiSettings:
    """Return the docs.json `api` settings, with a page's `playground` frontmatter winning, and the API words of
    the page's language (`words`: its interface words, MdxContext.words)."""
    api = config.api
    return ApiSettings(
        base_url_display="full" if api.url_full else "relative",
        example_languages=api.examples.languages,
        examples_defaults=api.examples.defaults,
        examples_prefill=api.examples.prefill,
        autogenerate=api.examples.autogenerate,
        playground_display=api.display(meta),
        params_expanded=api.params_expanded,
        params_post=api.params_post,
        proxy=api.playground.proxy,
        words=api_words(words),
    )


@dataclass
class ApiPages:
    """Generates and renders every API page of a site; each spec is parsed once."""

    docs_dir: Path
    config: SiteConfig
    pages: dict[str, Page]
    store: SpecStore
    diagnostics: list[Diagnostic] = field(default_factory=list)
    used: dict[str, Spec] = field(default_factory=dict)
    finder: SpecFinder | None = None
    _made: dict[tuple[str, str], list[Page]] = field(default_factory=dict)  # every page of an operation
    _placed: dict[tuple[str, str, str], Page] = field(default_factory=dict)  # by (spec, operation, directory)
    _links: SpecLinks | None = None
    frontmatter: FrontmatterPages = field(init=False)

    def __post_init__(self) -> None:
        self.frontmatter = FrontmatterPages(self)  # MDX pages that name an operation, schema or channel

    @classmethod
    def for_site(
        cls, docs_dir: Path, config: SiteConfig, pages: dict[str, Page], files: list[str] | None = None
    ) -> ApiPages | None:
        """Return the generator, or None when nothing in the site refers to OpenAPI.

        `files` lists the docs folder's non-page files (docs-relative): where specs named by file name, or not
        named at all, are looked for. Without it the folder is walked when needed.
        """
        if not uses_api(config, pages):
            return None
        store = SpecStore(docs_dir)
        store.overlays = {store.normalize(k): v for k, v in declared_overlays(config).items()}
        api = cls(docs_dir, config, pages, store, finder=SpecFinder(docs_dir, files))
        api.diagnostics += check_site(docs_dir, config)
        api.frontmatter.prepare()
        return api

    # -- navigation entries -------------------------------------------------------------------------
    def navigation_pages(self) -> Generated:
        """Make the pages the navigation's API entries name, keyed by each entry's JSON path (before navigation)."""
        return navigation_pages(self.config, self.resolve_entry)

    def resolve_entry(self, entry: NavEntry, node: NavNode, inherited: dict) -> list[Page]:
        """Return the pages a navigation entry names: '*' (all of the element's spec), METHOD /path, webhook."""
        refs = spec_refs(node.fields.get("openapi") if entry.value == "*" else None) or spec_refs(
            inherited.get("openapi")
        )
        directory = (
            node.fields.get("directory")
            if isinstance(node.fields.get("directory"), str)
            and node.fields["directory"]
            not in ("accordion", "card", "none")  # a listing layout (docsgen.nav.tree)
            else inherited.get("directory")
        )
        where = self._where(entry)
        if entry.value == "*" and node.fields.get("asyncapi") and not node.fields.get("openapi"):
            return channel_pages(self, node.fields["asyncapi"], directory, where, inherited)
        if entry.value == "*":
            out: list[Page] = []
            for source, own_dir in refs:
                spec = self.load_spec(self.frontmatter.spec_named(source, None), where)
                if spec is not None:
                    out.extend(self._all_pages(spec, own_dir or directory, inherited))
            return out
        webhook = _WEBHOOK.match(entry.value)
        match = _ENTRY.match(entry.value)
        if not (webhook or match):
            return []
        found = webhook or match
        assert found is not None
        if webhook:
            kind, name = "webhook", webhook.group("name").strip()
        else:
            assert match is not None
            kind, name = "operation", f"{match.group('method').upper()} {match.group('path')}"
        named: str | None = found.group("spec")
        chosen = named or (refs[0][0] if refs else None)
        if chosen is not None:
            spec = self.load_spec(self.frontmatter.spec_named(chosen, None), where)
        else:
            spec = self.frontmatter.find_operation_spec(kind, name, where)
        if spec is None:
            return []  # the spec cannot be read: said once per use, the rest of the navigation is built
        op = (
            spec.webhook_operation(name)
            if webhook
            else spec.find_operation(found.group("method"), found.group("path"))
        )
        if op is None:
            near = spec.nearest(kind, name)
            self.diagnostics.append(
                error(
                    "openapi.unknown-" + kind,
                    f"{kind} '{name}' is not in {spec.source}",
                    *where,
                    hint=f"did you mean: {', '.join(near)}?"
                    if near
                    else f"{spec.source} has no {kind} by that name",
                )
            )
            return []
        if op.excluded:
            return []  # x-hidden: the page is made (reachable by URL), out of the navigation
        page_dir = directory or next((d for s, d in refs if s == chosen and d), None)
        page = self._operation_page(spec, op, page_dir, inherited, webhook=bool(webhook))
        return [page] if page is not None else []

    def attach_channel(self, page: Page, value: Any) -> None:
        """Give an MDX page with `asyncapi` frontmatter its channel (docsgen.openapi.asyncapi_pages)."""
        attach_channel(self, page, value)

    def _where(self, entry: NavEntry) -> tuple[str, int, int, str]:
        file, line, col = self.config.locate(entry.json_path) if self.config.locate else ("docs.json", 0, 0)
        return file, line, col, format_path(entry.json_path)

    def declared_specs(self) -> list[str]:
        """Return the specs docs.json declares (`api.openapi` first, then the navigation's), as sources."""
        names = [s for s, _ in spec_refs(self.config.api.openapi)]
        names += [s for s, _ in _nav_specs(self.config.navigation)]
        return list(dict.fromkeys(self.frontmatter.spec_named(n, None) for n in names))

    def load_spec(self, source: str, where: tuple, *, quiet: bool = False) -> Spec | None:
        """Return a loaded spec, its problems reported at `where`; quiet: only searched, reported when used."""
        spec, diags = self.store.load(source, origin=where)
        if quiet:
            return spec
        # A spec's problems concern only its pages: warnings in a build (--strict makes them errors).
        self.diagnostics.extend(d.as_warning() if d.is_error else d for d in diags)
        if spec is not None and spec.source not in self.used:
            self.used[spec.source] = spec
        return spec

    def _all_pages(self, spec: Spec, directory: str | None, inherited: dict) -> list[Page]:
        out = []
        tagged: list[tuple[str, Page]] = []
        for op in spec.operations():
            if not op.excluded:
                page = self._operation_page(spec, op, directory, inherited)
                out.append(page)
                if page is not None and not page.hidden:
                    tagged.append((op.tags[0] if op.tags else "", page))
        add_overviews(
            self.pages,
            spec,
            directory,
            tagged,
            lambda t: _group_label(spec, t),
            markdown_to_html,
            lambda page, html, md: self._fix_links(page, html, spec.source, md),
        )
        for name in spec.webhooks():
            hook = spec.webhook_operation(name)
            if hook is not None and not hook.excluded:
                out.append(self._operation_page(spec, hook, directory, inherited, webhook=True))
        return [p for p in out if p is not None]

    # -- page making -------------------------------------------------------------------------------
    def _page_key(
        self, spec: Spec, op: Operation, directory: str | None, tag: str, webhook: bool
    ) -> str | None:
        """Return the page path of a generated page (Mintlify's, see docsgen.openapi.urls), None if refused."""
        ext = op.extension
        href = ext.get("href") if isinstance(ext.get("href"), str) else None
        if href and not href.startswith(("http://", "https://")):
            try:
                return urls.href_path(href)
            except urls.HrefError as exc:
                key = "x-svc" if isinstance(op.data.get("x-svc"), dict) else "x-mint"
                json_path = (*op.json_path, key, "href")
                line, column = spec.line_of(json_path)
                self.diagnostics.append(
                    error(
                        "openapi.bad-href",
                        f"{exc}; the page is not generated",
                        spec.source,
                        line,
                        column,
                        spec.format_path(json_path),
                        hint="an href is a path of this site, like /api/pets/list",
                    )
                )
                return None
        return urls.operation_path(directory, op.method, op.path, op.summary, tag, webhook=webhook)

    def _operation_page(
        self, spec: Spec, op: Operation, directory: str | None, inherited: dict, *, webhook: bool = False
    ) -> Page | None:
        ident = (spec.source, ("webhook " + op.path) if webhook else op.key)
        ext = op.extension
        href = ext.get("href") if isinstance(ext.get("href"), str) else ""
        # One page per operation and directory: a spec shown in two folders (one per language or version) has
        # its pages in each; an x-mint.href names one page wherever the spec is used.
        place = (
            *ident,
            "" if href and not href.startswith(("http://", "https://")) else urls.directory_key(directory),
        )
        if place in self._placed:
            return self._placed[place]
        title = op.summary or (f"Webhook {op.path}" if webhook else readable(op.method, op.path))
        key = self._page_key(spec, op, directory, op.tags[0] if op.tags else "", webhook)
        if key is None:
            return None
        key = urls.unique_path(key, self.pages)
        tag = _group_label(spec, op.tags[0]) if op.tags else ("Webhooks" if webhook else "")
        meta: dict[str, Any] = {"title": title}
        if inherited.get("version"):
            meta["version"] = inherited["version"]
        if op.deprecated:
            meta["deprecated"] = True
        if op.hidden:
            meta["hidden"] = True  # x-hidden: built and reachable by URL, not in the navigation (Mintlify)
        meta.update(self._spec_metadata(spec, op, ext.get("metadata")))
        if isinstance(ext.get("groups"), list) and "groups" not in meta:  # x-mint.groups (Mintlify)
            meta["groups"] = [str(g) for g in ext["groups"] if isinstance(g, str | int)]
        url = page_url(key)
        page = Page(key, url, url_output(url), meta=meta, kind="webhook" if webhook else "endpoint")
        page.method = "WEBHOOK" if webhook else op.method
        page.spec, page.api_path, page.api_tag = spec.source, op.path, tag
        if op.tags:
            page.api_tag_parents = tuple(_group_label(spec, t) for t in spec.tag_parents(op.tags[0]))
        if op.description:
            page.summary = summary_text(op.description)  # meta description and search: text, not Markdown
        content: str = ext["content"] if isinstance(ext.get("content"), str) else ""

        # x-mint.content comes from the spec (maybe fetched from a URL): rendered as MDX, then sanitised.
        page.generate = self.endpoint_generator(spec, op, webhook, lambda page: content, trusted=False)
        self.pages[key] = page
        self._placed[place] = page
        self._made.setdefault(ident, []).append(page)
        return page

    def _spec_metadata(self, spec: Spec, op: Operation, metadata: Any) -> dict:
        """Return x-mint.metadata as page frontmatter: never `openapi`, never a script URL (the spec may be remote)."""
        out: dict = {}
        for name, value in (metadata if isinstance(metadata, dict) else {}).items():
            if name == "openapi":
                continue
            if isinstance(value, str) and is_script_url(value):
                key = "x-svc" if isinstance(op.data.get("x-svc"), dict) else "x-mint"
                json_path = (*op.json_path, key, "metadata", name)
                line, column = spec.line_of(json_path)
                self.diagnostics.append(
                    warning(
                        "openapi.extension",
                        f"`metadata.{name}` is a script URL ({value.strip()[:30]!r}); left out",
                        spec.source,
                        line,
                        column,
                        spec.format_path(json_path),
                    )
                )
                continue
            out[name] = value
        return out

    def endpoint_generator(
        self, spec: Spec, op: Operation, webhook: bool, mdx: Callable[[Page], str], trusted: bool = True
    ):
        """Return the page.generate function of an endpoint or webhook page, with `mdx(page)` placed before it."""

        def generate(page: Page, ctx: MdxContext) -> MdxResult:
            settings = api_settings(self.config, page.meta, ctx.words)
            if webhook:
                rendered = render_webhook(spec.data, op.path, settings=settings, markdown=markdown_to_html)
            else:
                rendered = render_operation(
                    spec.data, op.method, op.path, settings=settings, markdown=markdown_to_html
                )
            result = self.combine(page, rendered, mdx(page), ctx, trusted)
            if rendered.trees_cut:
                result.diagnostics.append(too_large(spec, op))
            return result

        return generate

    def _fix_links(self, page: Page, html: str, spec_source: str, markdown: str = "") -> tuple[str, str]:
        """Make links written in spec descriptions work on this site (see SpecLinks.fix)."""
        if self._links is None:
            self._links = SpecLinks(self.pages, self._made, self.used)
        return self._links.fix(page, html, spec_source, markdown)

    def mdx_markdown(self, page: Page, mdx: str) -> str:
        """Return MDX written for an API page as Markdown (its links are resolved with the twin's)."""
        if not mdx.strip():
            return ""
        return page_markdown_of(mdx, self.docs_dir, self.config.variables, page.source or page.key)

    def combine(
        self, page: Page, rendered: RenderedApi, mdx: str, ctx: MdxContext, trusted: bool = True
    ) -> MdxResult:
        """Merge generated API HTML with MDX written for the page (x-svc.content or an MDX file's body).

        MDX from the spec (trusted=False) keeps its components and formatting, never scripts, event handlers
        or javascript: URLs (see docsgen.openapi.sanitize).
        """
        extra, problems = playground_page(self.docs_dir, self.config, page, rendered.playground)
        before = render_mdx(mdx, ctx) if mdx.strip() else MdxResult("")
        if not trusted:
            before.html = sanitize_html(before.html)
            before.panel_html = sanitize_html(before.panel_html)
            before.aside_html = sanitize_html(before.aside_html)
            before.text_html = sanitize_html(before.text_html) if before.text_html is not None else None
        spec_source = page.spec or ""
        html, markdown = self._fix_links(page, rendered.html, spec_source, rendered.markdown)
        result = MdxResult(
            html=with_page_content(html, before.html),
            toc=before.toc + rendered.toc,
            diagnostics=before.diagnostics + problems,
            dependencies=before.dependencies,
            assets=before.assets | rendered.assets | extra,
            icons=before.icons,
            text_html=before.text_source,  # text: the MDX part
            panel_html=before.panel_html,
            aside_html=rendered.aside_html + before.aside_html,
            search_html=before.html + rendered.search_html,
            api_data=rendered.playground,
        )
        if not include_schema(self.config):  # docs.json markdown.schema false: no reference in the twin
            markdown = rendered.description
        result.markdown = join_markdown(self.mdx_markdown(page, mdx), markdown)
        return result

    # -- after the navigation ------------------------------------------------------------------------
    def finish(self, nav: Any) -> list[Diagnostic]:
        """Return the problems found: unknown operations, load errors, and validation warnings of used specs."""
        out = list(self.diagnostics)
        for spec in self.used.values():
            out.extend(self.store.validate(spec))  # warnings: a slightly invalid spec still renders
        return out


def include_schema(config: SiteConfig) -> bool:
    """docs.json `markdown.schema` (default true): whether API pages' Markdown twins carry the reference."""
    markdown = config.raw.get("markdown") if isinstance(config.raw, dict) else None
    return not (isinstance(markdown, dict) and markdown.get("schema") is False)


def _group_label(spec: Spec, tag: str) -> str:
    """Return the navigation label of a tag: its `x-group` (Mintlify), else the tag; its URL keeps the tag."""
    tags = spec.data.get("tags")
    for item in tags if isinstance(tags, list) else []:
        if isinstance(item, dict) and item.get("name") == tag:
            for label in (item.get("x-group"), item.get("summary")):  # summary: 3.2's display name of a tag
                if isinstance(label, str) and label.strip():
                    return label.strip()
            return tag
    return tag


def _nav_specs(node: NavNode) -> list[tuple[str, str | None]]:
    out = spec_refs(node.fields.get("openapi"))
    for child in node.children:
        if isinstance(child, NavNode):
            out.extend(_nav_specs(child))
    return out
