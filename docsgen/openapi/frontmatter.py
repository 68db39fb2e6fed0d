"""MDX pages whose frontmatter names an endpoint (`openapi`), a schema (`openapi-schema`) or a manual one (`api`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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


class FrontmatterPages:
    """The part of ApiPages that attaches endpoints, webhooks and schemas to MDX pages (see pages.ApiPages)."""

    docs_dir: Path
    config: SiteConfig
    pages: dict[str, Page]
    diagnostics: list[Diagnostic]
    finder: SpecFinder | None

    if TYPE_CHECKING:  # provided by ApiPages

        def _spec(self, source: str, where: Where, *, quiet: bool = False) -> Spec | None: ...
        def _declared_specs(self) -> list[str]: ...
        def _endpoint_generator(
            self, spec: Spec, op: Operation, webhook: bool, mdx: Any, trusted: bool = True
        ): ...
        def _combine(self, page: Page, rendered: Any, mdx: str, ctx: MdxContext, trusted: bool = True): ...
        def _mdx_markdown(self, page: Page, mdx: str) -> str: ...

    def _prepare_mdx_pages(self) -> None:
        for page in list(self.pages.values()):
            if page.source is None:
                continue
            if "asyncapi" in page.meta and not any(page.meta.get(k) for k in ("openapi", "api")):
                from docsgen.openapi.asyncapi_pages import attach_channel

                # self is the ApiPages this mixin is part of
                attach_channel(self, page, page.meta["asyncapi"])  # type: ignore[arg-type]
                continue
            for field_name in ("openapi", "openapi-schema", "api"):
                value = page.meta.get(field_name)
                if isinstance(value, str) and value.strip():
                    self._attach(page, field_name, value.strip())
                    break
                if value is not None and not isinstance(value, str):
                    self.diagnostics.append(
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

    def _spec_named(self, name: str, page: Page | None) -> str:
        """Return the source a spec name means for this page (see docsgen.openapi.discover)."""
        if self.finder is None:
            return name
        return self.finder.find(name, page.source if page else None)

    def find_operation_spec(self, kind: str, name: str, where: Where) -> Spec | None:
        """Return the spec holding an operation ("METHOD /path") or webhook when no spec is named.

        Declared specs (docs.json) are searched first, then every OpenAPI file of the repository, as Mintlify
        does. None (with a warning) when no spec has it.
        """
        declared = list(dict.fromkeys(self._declared_specs()))
        sources = declared + [
            f for f in (self.finder.openapi_files() if self.finder else []) if f not in declared
        ]
        loaded: list[Spec] = []
        unreadable = False
        for source in sources:
            spec = self._spec(source, where, quiet=source not in declared)
            if spec is None:
                unreadable = unreadable or source in declared
                continue
            loaded.append(spec)
            if _find(spec, kind, name) is not None:
                return self._spec(source, where)  # the one used: its problems are reported
        if unreadable:
            return None  # maybe in the declared spec that cannot be read: its warning says so
        if declared and loaded and loaded[0].source == declared[0]:
            return loaded[0]  # reported as an unknown operation of the declared spec, with suggestions
        self.diagnostics.append(
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
            self.diagnostics.append(
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
            spec = self._spec(self._spec_named(named, page), where)
        else:
            spec = self.find_operation_spec(kind, name, where)
        if spec is None:
            return
        op = _find(spec, kind, name)
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
        page.meta.setdefault("title", op.summary or readable(op.method, op.path))
        if op.description and "description" not in page.meta:
            page.summary = op.description.strip().split("\n\n")[0][:300]
        if op.deprecated:
            page.meta.setdefault("deprecated", True)
        page.method = "WEBHOOK" if webhook else op.method
        page.kind = "webhook" if webhook else "endpoint"
        page.spec, page.api_path = spec.source, op.path
        page.generate = self._endpoint_generator(spec, op, bool(webhook), lambda page: page.body)

    def _attach_schema(self, page: Page, value: str, where: Where) -> None:
        from docsgen.openapi.pages import api_settings, markdown_to_html

        parts = value.split()
        source, name = (
            (self._spec_named(parts[0], page), " ".join(parts[1:]))
            if len(parts) > 1
            else (self._schema_spec(parts[0], where), parts[0])
        )
        spec = self._spec(source, where) if source else None
        if spec is None:
            return
        if name not in spec.schemas():
            near = spec.nearest("schema", name)
            self.diagnostics.append(
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
                spec.data, name, settings=api_settings(self.config, page.meta), markdown=markdown_to_html
            )
            return self._combine(page, rendered, page.body, ctx)

        page.generate = generate

    def _schema_spec(self, name: str, where: Where) -> str | None:
        refs = self._declared_specs()
        holders = []
        unreadable = False
        for source in dict.fromkeys(refs):
            spec = self._spec(source, where)
            unreadable = unreadable or spec is None
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
        if not holders and not unreadable:  # (a spec that cannot be read has its own warning)
            self.diagnostics.append(
                warning(
                    "openapi.unknown-schema",
                    f"no spec of this site has a schema named '{name}'; the page is built without it",
                    *where,
                )
            )
        return holders[0] if holders else None

    def _attach_manual(self, page: Page, value: str) -> None:
        from docsgen.openapi.pages import api_settings

        mdx = self.config.api.get("mdx") or {}
        page.method = value.split()[0].upper() if value.split() else None
        page.kind = "endpoint"

        def generate(page: Page, ctx: MdxContext) -> MdxResult:
            body = render_mdx(page.body, ctx)
            rendered = render_manual_endpoint(
                value,
                settings=api_settings(self.config, page.meta),
                servers=mdx.get("server"),
                auth=mdx.get("auth"),
                params=documented_fields(body.html),  # ParamFields become playground inputs
            )
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
                markdown=join_markdown(rendered.markdown, self._mdx_markdown(page, page.body)),
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
