"""OpenAPI operations, webhooks and schemas become ordinary Pages before the navigation is built (spec 2.5)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from docsgen.config.model import NavEntry, NavNode, SiteConfig
from docsgen.errors import Diagnostic, error, warning
from docsgen.jsonpos import format_path
from docsgen.markdown_export import page_markdown_of
from docsgen.mdx import MdxContext, MdxResult, render_mdx
from docsgen.openapi.playground_auth import check_site, playground_page
from docsgen.openapi.render import (
    ApiSettings,
    RenderedApi,
    render_manual_endpoint,
    render_operation,
    render_schema_page,
    render_webhook,
)
from docsgen.openapi.spec import Operation, Spec
from docsgen.openapi.spec_links import SpecLinks
from docsgen.openapi.store import SpecStore
from docsgen.pages import Page
from docsgen.sources import page_url, url_output

_ENTRY = re.compile(
    r"^(?:(?P<spec>\S+)\s+)?(?P<method>GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|TRACE)\s+(?P<path>/\S*)$", re.I
)
_WEBHOOK = re.compile(r"^(?:(?P<spec>\S+)\s+)?webhook\s+(?P<name>\S.*)$", re.I)
DEFAULT_DIRECTORY = "api-reference"


def slugify(text: str) -> str:
    """Return a URL slug: lower case words joined by hyphens."""
    slug = re.sub(r"[^\w\s-]", "", text.lower(), flags=re.UNICODE)
    slug = re.sub(r"[\s_-]+", "-", slug).strip("-")
    return slug or "endpoint"


@cache
def _safe_markdown():
    """Return the renderer for spec descriptions: Markdown with raw HTML escaped (descriptions are untrusted)."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark").enable("table").enable("strikethrough")
    md.options["html"] = False
    md.validateLink = lambda url: not url.strip().lower().startswith(("javascript:", "vbscript:", "data:"))
    return md


def markdown_to_html(text: str) -> str:
    """Render an untrusted Markdown string to safe HTML."""
    return _safe_markdown().render(text or "")


def api_settings(config: SiteConfig, meta: dict | None = None) -> ApiSettings:
    """Return the docs.json `api` settings, with a page's `playground` frontmatter winning."""
    api = config.api or {}
    playground = api.get("playground") or {}
    examples = api.get("examples") or {}
    params = api.get("params") or {}
    display = (
        (meta or {}).get("playground") or playground.get("display") or playground.get("mode") or "interactive"
    )
    return ApiSettings(
        base_url_display="full" if api.get("url") == "full" or api.get("baseUrl") == "full" else "relative",
        example_languages=tuple(examples.get("languages") or ()),
        examples_defaults=examples.get("defaults", "all"),
        examples_prefill=bool(examples.get("prefill", False)),
        autogenerate=examples.get("autogenerate", True) is not False,
        playground_display=display if display in ("interactive", "simple", "none", "auth") else "interactive",
        params_expanded=params.get("expanded") == "all",
        proxy=playground.get("proxy", True) is not False,
    )


def _spec_refs(value: Any) -> list[tuple[str, str | None]]:
    """Return [(spec source, directory)] from an `openapi` field: string, list, or {source, directory}."""
    if isinstance(value, str):
        return [(value, None)]
    if isinstance(value, list):
        return [ref for item in value for ref in _spec_refs(item)]
    if isinstance(value, dict) and isinstance(value.get("source"), str):
        return [(value["source"], value.get("directory"))]
    return []


@dataclass
class ApiPages:
    """Generates and renders every API page of a site; each spec is parsed once."""

    docs_dir: Path
    config: SiteConfig
    pages: dict[str, Page]
    store: SpecStore
    diagnostics: list[Diagnostic] = field(default_factory=list)
    used: dict[str, Spec] = field(default_factory=dict)
    _made: dict[tuple[str, str], Page] = field(default_factory=dict)
    _links: SpecLinks | None = None

    @classmethod
    def for_site(cls, docs_dir: Path, config: SiteConfig, pages: dict[str, Page]) -> ApiPages | None:
        """Return the generator, or None when nothing in the site refers to OpenAPI."""
        uses_nav = _nav_uses_openapi(config.navigation)
        uses_pages = any(p.meta.get(k) for p in pages.values() for k in ("openapi", "openapi-schema", "api"))
        if not (config.api.get("openapi") or uses_nav or uses_pages):
            return None
        api = cls(docs_dir, config, pages, SpecStore(docs_dir))
        api.diagnostics += check_site(docs_dir, config)
        api._prepare_mdx_pages()
        return api

    # -- navigation entries -------------------------------------------------------------------------
    def resolve_entry(self, entry: NavEntry, node: NavNode, inherited: dict) -> list[Page]:
        """Return the pages a navigation entry names: '*' (all of the element's spec), METHOD /path, webhook."""
        refs = _spec_refs(node.fields.get("openapi") if entry.value == "*" else None) or _spec_refs(
            inherited.get("openapi")
        )
        directory = (
            node.fields.get("directory")
            if isinstance(node.fields.get("directory"), str)
            else inherited.get("directory")
        )
        where = self._where(entry)
        if entry.value == "*":
            out: list[Page] = []
            for source, own_dir in refs:
                spec = self._spec(source, where)
                if spec is not None:
                    out.extend(self._all_pages(spec, own_dir or directory, inherited))
            return out
        webhook = _WEBHOOK.match(entry.value)
        match = _ENTRY.match(entry.value)
        named = (webhook or match).group("spec") if (webhook or match) else None
        source = named or (refs[0][0] if refs else self._default_spec(where, entry.value))
        if source is None:
            return []
        spec = self._spec(source, where)
        if spec is None:
            return []
        if webhook:
            op = spec.webhook_operation(webhook.group("name").strip())
            kind, name = "webhook", webhook.group("name").strip()
        else:
            op = spec.find_operation(match.group("method"), match.group("path")) if match else None
            kind, name = (
                "operation",
                f"{match.group('method').upper()} {match.group('path')}" if match else entry.value,
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
        if op.hidden or op.excluded:
            return []
        page_dir = directory or next((d for s, d in refs if s == source and d), None)
        return [self._operation_page(spec, op, page_dir, inherited, webhook=bool(webhook))]

    def _where(self, entry: NavEntry) -> tuple[str, int, int, str]:
        file, line, col = self.config.locate(entry.json_path) if self.config.locate else ("docs.json", 0, 0)
        return file, line, col, format_path(entry.json_path)

    def _default_spec(self, where: tuple, value: str) -> str | None:
        refs = _spec_refs(self.config.api.get("openapi"))
        if refs:
            return refs[0][0]
        self.diagnostics.append(
            error(
                "openapi.no-spec",
                f"'{value}' names an endpoint but no OpenAPI spec applies here",
                *where,
                hint="set `openapi` on this element or a parent, or name the spec: 'openapi.json GET /path'",
            )
        )
        return None

    def _spec(self, source: str, where: tuple) -> Spec | None:
        spec, diags = self.store.load(source, origin=where[:3])
        self.diagnostics.extend(diags)
        if spec is not None and spec.source not in self.used:
            self.used[spec.source] = spec
        return spec

    def _all_pages(self, spec: Spec, directory: str | None, inherited: dict) -> list[Page]:
        out = []
        for op in spec.operations():
            if not (op.hidden or op.excluded):
                out.append(self._operation_page(spec, op, directory, inherited))
        for name in spec.webhooks():
            op = spec.webhook_operation(name)
            if op is not None and not (op.hidden or op.excluded):
                out.append(self._operation_page(spec, op, directory, inherited, webhook=True))
        return out

    # -- page making -------------------------------------------------------------------------------
    def _operation_page(
        self, spec: Spec, op: Operation, directory: str | None, inherited: dict, *, webhook: bool = False
    ) -> Page:
        ident = (spec.source, ("webhook " + op.path) if webhook else op.key)
        if ident in self._made:
            return self._made[ident]
        ext = op.extension
        href = ext.get("href") if isinstance(ext.get("href"), str) else None
        title = op.summary or (f"Webhook {op.path}" if webhook else _readable(op.method, op.path))
        tag = op.tags[0] if op.tags else ("Webhooks" if webhook else "")
        if href and not href.startswith(("http://", "https://")):
            key = href.strip("/") or "index"
        else:
            base = (directory or DEFAULT_DIRECTORY).strip("/")
            slug = slugify(op.summary or op.operation_id or f"{op.method} {op.path}")
            key = "/".join(p for p in (base, slugify(tag) if tag else "", slug) if p)
        key = self._unique_key(key)
        meta: dict[str, Any] = {"title": title, "__tag": tag, "__spec": spec.source, "__path": op.path}
        if op.description:
            meta["__meta_description"] = op.description.strip().split("\n\n")[0][:300]
        if inherited.get("version"):
            meta["version"] = inherited["version"]
        if op.deprecated:
            meta["deprecated"] = True
        metadata = ext.get("metadata")
        if isinstance(metadata, dict):
            meta.update({k: v for k, v in metadata.items() if k != "openapi"})
        url = page_url(key)
        page = Page(key, url, url_output(url), meta=meta, kind="webhook" if webhook else "endpoint")
        page.method = "WEBHOOK" if webhook else op.method
        content = ext.get("content") if isinstance(ext.get("content"), str) else ""

        page.generate = self._endpoint_generator(spec, op, webhook, lambda page: content)
        self.pages[key] = page
        self._made[ident] = page
        return page

    def _endpoint_generator(self, spec: Spec, op: Operation, webhook: bool, mdx: Callable[[Page], str]):
        """Return the page.generate function of an endpoint or webhook page, with `mdx(page)` placed before it."""

        def generate(page: Page, ctx: MdxContext) -> MdxResult:
            settings = api_settings(self.config, page.meta)
            if webhook:
                rendered = render_webhook(spec.data, op.path, settings=settings, markdown=markdown_to_html)
            else:
                rendered = render_operation(
                    spec.data, op.method, op.path, settings=settings, markdown=markdown_to_html
                )
            return self._combine(page, rendered, mdx(page), ctx)

        return generate

    def _unique_key(self, key: str) -> str:
        candidate, n = key, 2
        while candidate in self.pages:
            candidate, n = f"{key}-{n}", n + 1
        return candidate

    def _fix_links(self, page: Page, html: str, spec_source: str, markdown: str = "") -> tuple[str, str]:
        """Make links written in spec descriptions work on this site (see SpecLinks.fix)."""
        if self._links is None:
            self._links = SpecLinks(self.pages, self._made, self.used)
        return self._links.fix(page, html, spec_source, markdown)

    def _mdx_markdown(self, page: Page, mdx: str) -> str:
        """Return MDX written for an API page as Markdown (its links are resolved with the twin's)."""
        if not mdx.strip():
            return ""
        return page_markdown_of(mdx, self.docs_dir, self.config.variables, page.source or page.key)

    def _combine(self, page: Page, rendered: RenderedApi, mdx: str, ctx: MdxContext) -> MdxResult:
        """Merge generated API HTML with MDX written for the page (x-svc.content or an MDX file's body)."""
        page.meta["__api_data"] = rendered.playground
        extra, problems = playground_page(self.docs_dir, self.config, page, rendered.playground)
        before = render_mdx(mdx, ctx) if mdx.strip() else MdxResult("")
        spec_source = page.meta.get("__spec", "")
        html, markdown = self._fix_links(page, rendered.html, spec_source, rendered.markdown)
        result = MdxResult(
            html=before.html + html,
            toc=before.toc + rendered.toc,
            diagnostics=before.diagnostics + problems,
            dependencies=before.dependencies,
            assets=before.assets | rendered.assets | extra,
            icons=before.icons,
            text_html=before.text_source,  # text: the MDX part
            panel_html=before.panel_html,
            aside_html=rendered.aside_html + before.aside_html,
        )
        result.markdown = _join(self._mdx_markdown(page, mdx), markdown)  # type: ignore[attr-defined]
        result.search_html = before.html + rendered.search_html  # type: ignore[attr-defined]
        return result

    # -- MDX pages with openapi / openapi-schema / api frontmatter -----------------------------------
    def _prepare_mdx_pages(self) -> None:
        for page in list(self.pages.values()):
            if page.source is None:
                continue
            for field_name in ("openapi", "openapi-schema", "api"):
                value = page.meta.get(field_name)
                if isinstance(value, str) and value.strip():
                    self._attach(page, field_name, value.strip())
                    break

    def _attach(self, page: Page, field_name: str, value: str) -> None:
        where = (page.source or page.key, 2, 1, field_name)
        if field_name == "api":
            self._attach_manual(page, value)
            return
        parts = value.split()
        if field_name == "openapi-schema":
            source, name = (
                (parts[0], " ".join(parts[1:]))
                if len(parts) > 1
                else (self._schema_spec(parts[0], where), parts[0])
            )
            spec = self._spec(source, where) if source else None
            if spec is None:
                return
            if name not in spec.schemas():
                near = spec.nearest("schema", name)
                self.diagnostics.append(
                    error(
                        "openapi.unknown-schema",
                        f"schema '{name}' is not in {spec.source}",
                        *where,
                        hint=f"did you mean: {', '.join(near)}?" if near else "",
                    )
                )
                return
            page.meta.setdefault("title", name)
            page.kind = "schema"

            def generate(page: Page, ctx: MdxContext) -> MdxResult:
                rendered = render_schema_page(
                    spec.data, name, settings=api_settings(self.config, page.meta), markdown=markdown_to_html
                )
                return self._combine(page, rendered, page.body, ctx)

            page.generate = generate
            return
        webhook = _WEBHOOK.match(value)
        match = _ENTRY.match(value)
        if not (webhook or match):
            self.diagnostics.append(
                error(
                    "openapi.frontmatter",
                    f"openapi: '{value}' is not '<spec> METHOD /path' or '<spec> webhook <name>'",
                    *where,
                )
            )
            return
        source = (webhook or match).group("spec") or self._default_spec(where, value)
        spec = self._spec(source, where) if source else None
        if spec is None:
            return
        if webhook:
            name = webhook.group("name").strip()
            op = spec.webhook_operation(name)
            kind = "webhook"
        else:
            name = f"{match.group('method').upper()} {match.group('path')}"
            op = spec.find_operation(match.group("method"), match.group("path"))
            kind = "operation"
        if op is None:
            # The page still has its own title and body: build it without the endpoint (an error under --strict).
            near = spec.nearest(kind, name)
            self.diagnostics.append(
                warning(
                    f"openapi.unknown-{kind}",
                    f"{kind} '{name}' is not in {spec.source}; the page is built without it",
                    *where,
                    hint=f"did you mean: {', '.join(near)}?" if near else "",
                )
            )
            return
        page.meta.setdefault("title", op.summary or _readable(op.method, op.path))
        if op.description and "description" not in page.meta:
            page.meta["__meta_description"] = op.description.strip().split("\n\n")[0][:300]
        if op.deprecated:
            page.meta.setdefault("deprecated", True)
        page.method = "WEBHOOK" if webhook else op.method
        page.kind = "webhook" if webhook else "endpoint"
        page.meta["__spec"] = spec.source
        page.meta["__path"] = op.path

        page.generate = self._endpoint_generator(spec, op, webhook, lambda page: page.body)

    def _schema_spec(self, name: str, where: tuple) -> str | None:
        refs = [s for s, _ in _spec_refs(self.config.api.get("openapi"))] or [
            s for s, _ in _nav_specs(self.config.navigation)
        ]
        holders = []
        for source in dict.fromkeys(refs):
            spec = self._spec(source, where)
            if spec is not None and name in spec.schemas():
                holders.append(source)
        if len(holders) > 1:
            self.diagnostics.append(
                error(
                    "openapi.ambiguous-schema",
                    f"schema '{name}' exists in {', '.join(holders)}; name the file: 'openapi-schema: {holders[0]} {name}'",
                    *where,
                )
            )
            return None
        if not holders:
            self.diagnostics.append(
                error("openapi.unknown-schema", f"no spec of this site has a schema named '{name}'", *where)
            )
            return None
        return holders[0]

    def _attach_manual(self, page: Page, value: str) -> None:
        mdx = self.config.api.get("mdx") or {}
        page.method = value.split()[0].upper() if value.split() else None
        page.kind = "endpoint"

        def generate(page: Page, ctx: MdxContext) -> MdxResult:
            rendered = render_manual_endpoint(
                value,
                settings=api_settings(self.config, page.meta),
                servers=mdx.get("server"),
                auth=mdx.get("auth"),
            )
            body = render_mdx(page.body, ctx)
            page.meta["__api_data"] = rendered.playground
            extra, problems = playground_page(self.docs_dir, self.config, page, rendered.playground)
            result = MdxResult(
                html=rendered.html + body.html,
                toc=body.toc,
                diagnostics=body.diagnostics + problems,
                dependencies=body.dependencies,
                assets=body.assets | rendered.assets | extra,
                icons=body.icons,
                text_html=body.text_source,
                panel_html=body.panel_html,
                aside_html=body.aside_html,
            )
            result.markdown = _join(rendered.markdown, self._mdx_markdown(page, page.body))  # type: ignore[attr-defined]
            result.search_html = rendered.search_html + body.html  # type: ignore[attr-defined]
            return result

        page.generate = generate

    # -- after the navigation ------------------------------------------------------------------------
    def finish(self, nav: Any) -> list[Diagnostic]:
        """Return the problems found: unknown operations, load errors, and validation warnings of used specs."""
        out = list(self.diagnostics)
        for spec in self.used.values():
            out.extend(self.store.validate(spec))  # warnings: a slightly invalid spec still renders
        return out


def _join(*parts: str) -> str:
    """Join Markdown blocks with one blank line."""
    return "\n\n".join(p.strip() for p in parts if p.strip()) + "\n"


def _readable(method: str, path: str) -> str:
    return f"{method.upper()} {path}"


def _nav_uses_openapi(node: NavNode) -> bool:
    if node.fields.get("openapi"):
        return True
    for child in node.children:
        if isinstance(child, NavNode) and _nav_uses_openapi(child):
            return True
        if isinstance(child, NavEntry) and (_ENTRY.match(child.value) or _WEBHOOK.match(child.value)):
            return True
    return False


def _nav_specs(node: NavNode) -> list[tuple[str, str | None]]:
    out = _spec_refs(node.fields.get("openapi"))
    for child in node.children:
        if isinstance(child, NavNode):
            out.extend(_nav_specs(child))
    return out
