"""MDX pages whose frontmatter names an endpoint (`openapi`), a schema (`openapi-schema`) or a manual one (`api`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from docsgen.common.errors import Diagnostic, error, warning
from docsgen.mdx import MdxContext, MdxResult, render_mdx
from docsgen.openapi.discover import SpecFinder
from docsgen.openapi.navigation import ENTRY, WEBHOOK
from docsgen.openapi.playground_auth import playground_page
from docsgen.openapi.render import render_manual_endpoint, render_schema_page
from docsgen.openapi.render.playground import documented_fields
from docsgen.openapi.spec import Operation, Spec
from docsgen.pages.page import Page

if TYPE_CHECKING:
    from pathlib import Path

    from docsgen.config.model import SiteConfig

# Where a frontmatter problem is reported: (file, line, column, JSON path), spread into a Diagnostic helper.
Where = tuple[str, int, int, str]


def spec_refs(value: Any) -> list[tuple[str, str | None]]:
    """Return [(spec source, directory)] from an `openapi` field: string, list, or {source, directory}."""
    if isinstance(value, str):
        return [(value, None)]
    if isinstance(value, list):
        return [ref for item in value for ref in spec_refs(item)]
    if isinstance(value, dict) and isinstance(value.get("source"), str):
        return [(value["source"], value.get("directory"))]
    return []


def readable(method: str, path: str) -> str:
    return f"{method.upper()} {path}"


def join_markdown(*parts: str) -> str:
    """Join Markdown blocks with one blank line."""
    return "\n\n".join(p.strip() for p in parts if p.strip()) + "\n"


class SpecAccess(Protocol):
    """What attaching spec content to MDX pages needs from the site's API pages (pages.ApiPages provides it)."""

    docs_dir: Path
    config: SiteConfig
    pages: dict[str, Page]
    diagnostics: list[Diagnostic]
    finder: SpecFinder | None

    def load_spec(self, source: str, where: Where, *, quiet: bool = False) -> Spec | None: ...
    def declared_specs(self) -> list[str]: ...
    def endpoint_generator(
        self, spec: Spec, op: Operation, webhook: bool, mdx: Any, trusted: bool = True
    ) -> Callable[[Page, MdxContext], MdxResult]: ...
    def combine(
        self, page: Page, rendered: Any, mdx: str, ctx: MdxContext, trusted: bool = True
    ) -> MdxResult: ...
    def mdx_markdown(self, page: Page, mdx: str) -> str: ...
    def attach_channel(self, page: Page, value: Any) -> None: ...


@dataclass(frozen=True)
class FrontmatterPages:
    """Attaches endpoints, webhooks, schemas and channels to MDX pages by their frontmatter, and finds the spec an
    operation named without one belongs to; the specs and page making come from `api`."""

    api: SpecAccess

    def prepare(self) -> None:
        """Attach what each MDX page's `openapi`, `openapi-schema`, `api` or `asyncapi` field names."""
        for page in list(self.api.pages.values()):
            if page.source is None:
                continue
            if "asyncapi" in page.meta and not any(page.meta.get(k) for k in ("openapi", "api")):
                self.api.attach_channel(page, page.meta["asyncapi"])
                continue
            for field_name in ("openapi", "openapi-schema", "api"):
                value = page.meta.get(field_name)
                if isinstance(value, str) and value.strip():
                    self._attach(page, field_name, value.strip())
                    break
                if value is not None and not isinstance(value, str):
                    self.api.diagnostics.append(
                        warning(
                            "openapi.frontmatter",
                            f"`{field_name}` must be a string like 'openapi.json GET /path', found "
                            f"{type(value).__name__} {str(value)[:40]!r}; the page is built without it",
                            page.source or page.key,
                            2,
                            1,
                            field_name,
                        )
                    )

    def spec_named(self, name: str, page: Page | None) -> str:
        """Return the source a spec name means for this page (see docsgen.openapi.discover)."""
        if self.api.finder is None:
            return name
        return self.api.finder.find(name, page.source if page else None)

    def find_operation_spec(self, kind: str, name: str, where: Where) -> Spec | None:
        """Return the spec holding an operation ("METHOD /path") or webhook when no spec is named.

        Declared specs (docs.json) are searched first, then every OpenAPI file of the repository, as Mintlify
        does. None (with a warning) when no spec has it.
        """
        declared = list(dict.fromkeys(self.api.declared_specs()))
        sources = declared + [
            f for f in (self.api.finder.openapi_files() if self.api.finder else []) if f not in declared
        ]
        loaded: list[Spec] = []
        unreadable = False
        for source in sources:
            spec = self.api.load_spec(source, where, quiet=source not in declared)
            if spec is None:
                unreadable = unreadable or source in declared
                continue
            loaded.append(spec)
            if _find(spec, kind, name) is not None:
                return self.api.load_spec(source, where)  # the one used: its problems are reported
        if unreadable:
            return None  # maybe in the declared spec that cannot be read: its warning says so
        if declared and loaded and loaded[0].source == declared[0]:
            return loaded[0]  # reported as an unknown operation of the declared spec, with suggestions
        self.api.diagnostics.append(
            warning(
                "openapi.no-spec",
                f"'{name}' names an {kind} but the site has no OpenAPI spec holding it; left out",
                *where,
                hint="name the spec ('openapi.json GET /path'), set `openapi` in docs.json, "
                "or add the spec file to the docs folder",
            )
        )
        return None

    def _attach(self, page: Page, field_name: str, value: str) -> None:
        where = (page.source or page.key, 2, 1, field_name)
        if field_name == "api":
            self._attach_manual(page, value)
            return
        if field_name == "openapi-schema":
            self._attach_schema(page, value, where)
            return
        webhook = WEBHOOK.match(value)
        match = webhook or ENTRY.match(value)
        if match is None:
            self.api.diagnostics.append(
                error(
                    "openapi.frontmatter",
                    f"openapi: '{value}' is not '<spec> METHOD /path' or '<spec> webhook <name>'",
                    *where,
                )
            )
            return
        if webhook:
            kind, name = "webhook", webhook.group("name").strip()
        else:
            kind, name = "operation", f"{match.group('method').upper()} {match.group('path')}"
        named = match.group("spec")
        if named:
            spec = self.api.load_spec(self.spec_named(named, page), where)
        else:
            spec = self.find_operation_spec(kind, name, where)
        if spec is None:
            return
        op = _find(spec, kind, name)
        if op is None:
            # The page still has its own title and body: build it without the endpoint (an error under --strict).
            near = spec.nearest(kind, name)
            self.api.diagnostics.append(
                warning(
                    f"openapi.unknown-{kind}",
                    f"{kind} '{name}' is not in {spec.source}; the page is built without it",
                    *where,
                    hint=f"did you mean: {', '.join(near)}?" if near else "",
                )
            )
            return
        page.meta.setdefault("title", op.summary or readable(op.method, op.path))
        if op.description and "description" not in page.meta:
            page.summary = op.description.strip().split("\n\n")[0][:300]
        if op.deprecated:
            page.meta.setdefault("deprecated", True)
        page.method = "WEBHOOK" if webhook else op.method
        page.kind = "webhook" if webhook else "endpoint"
        page.spec, page.api_path = spec.source, op.path
        page.generate = self.api.endpoint_generator(spec, op, bool(webhook), lambda page: page.body)

    def _attach_schema(self, page: Page, value: str, where: Where) -> None:
        from docsgen.openapi.pages import api_settings, markdown_to_html

        parts = value.split()
        source, name = (
            (self.spec_named(parts[0], page), " ".join(parts[1:]))
            if len(parts) > 1
            else (self._schema_spec(parts[0], where), parts[0])
        )
        spec = self.api.load_spec(source, where) if source else None
        if spec is None:
            return
        if name not in spec.schemas():
            near = spec.nearest("schema", name)
            self.api.diagnostics.append(
                warning(
                    "openapi.unknown-schema",
                    f"schema '{name}' is not in {spec.source}; the page is built without it",
                    *where,
                    hint=f"did you mean: {', '.join(near)}?" if near else "",
                )
            )
            return
        page.meta.setdefault("title", name)
        page.kind = "schema"

        def generate(page: Page, ctx: MdxContext) -> MdxResult:
            rendered = render_schema_page(
                spec.data,
                name,
                settings=api_settings(self.api.config, page.meta, ctx.words),
                markdown=markdown_to_html,
            )
            return self.api.combine(page, rendered, page.body, ctx)

        page.generate = generate

    def _schema_spec(self, name: str, where: Where) -> str | None:
        refs = self.api.declared_specs()
        holders = []
        unreadable = False
        for source in dict.fromkeys(refs):
            spec = self.api.load_spec(source, where)
            unreadable = unreadable or spec is None
            if spec is not None and name in spec.schemas():
                holders.append(source)
        if len(holders) > 1:
            self.api.diagnostics.append(
                error(
                    "openapi.ambiguous-schema",
                    f"schema '{name}' exists in {', '.join(holders)}; name the file: 'openapi-schema: {holders[0]} {name}'",
                    *where,
                )
            )
            return None
        if not holders and not unreadable:  # (a spec that cannot be read has its own warning)
            self.api.diagnostics.append(
                warning(
                    "openapi.unknown-schema",
                    f"no spec of this site has a schema named '{name}'; the page is built without it",
                    *where,
                )
            )
        return holders[0] if holders else None

    def _attach_manual(self, page: Page, value: str) -> None:
        from docsgen.openapi.pages import api_settings

        mdx = self.api.config.api.mdx
        page.method = value.split()[0].upper() if value.split() else None
        page.kind = "endpoint"

        def generate(page: Page, ctx: MdxContext) -> MdxResult:
            body = render_mdx(page.body, ctx)
            rendered = render_manual_endpoint(
                value,
                settings=api_settings(self.api.config, page.meta, ctx.words),
                servers=list(mdx.servers),
                auth=mdx.auth,
                params=documented_fields(body.html),  # ParamFields become playground inputs
            )
            extra, problems = playground_page(self.api.docs_dir, self.api.config, page, rendered.playground)
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
                markdown=join_markdown(rendered.markdown, self.api.mdx_markdown(page, page.body)),
                search_html=rendered.search_html + body.html,
                api_data=rendered.playground,
            )
            return result

        page.generate = generate


def _find(spec: Spec, kind: str, name: str) -> Operation | None:
    """Return the operation ("METHOD /path") or webhook (its name) of a spec, or None."""
    if kind == "webhook":
        return spec.webhook_operation(name)
    method, _, path = name.partition(" ")
    return spec.find_operation(method, path)
