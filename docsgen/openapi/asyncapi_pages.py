"""AsyncAPI channel pages: MDX pages with `asyncapi: "file channel"` and navigation groups with `asyncapi`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docsgen.common.errors import warning
from docsgen.mdx import MdxContext, MdxResult
from docsgen.openapi import urls
from docsgen.openapi.asyncapi import AsyncSpec, AsyncStore, parse_ref
from docsgen.openapi.asyncapi_render import render_channel
from docsgen.pages.page import Page
from docsgen.sources.walk import page_url, url_output

if TYPE_CHECKING:
    from docsgen.openapi.pages import ApiPages


def _store(api: ApiPages) -> AsyncStore:
    # cached on the ApiPages, which declares no such field (issue 17: typed fields instead of caches on objects)
    if getattr(api, "_async_store", None) is None:
        api._async_store = AsyncStore(api.store)  # type: ignore[attr-defined]
    return api._async_store  # type: ignore[attr-defined]


def _generator(api: ApiPages, spec: AsyncSpec, name: str, trusted: bool):
    from docsgen.openapi.pages import api_settings, markdown_to_html

    def generate(page: Page, ctx: MdxContext) -> MdxResult:
        rendered = render_channel(
            spec, name, settings=api_settings(api.config, page.meta, ctx.words), markdown=markdown_to_html
        )
        rendered.playground = {}  # no HTTP playground on a channel page
        return api.combine(page, rendered, page.body if trusted else "", ctx, trusted)

    return generate


def attach_channel(api: ApiPages, page: Page, value: Any) -> None:
    """Give an MDX page with `asyncapi` frontmatter its channel; a located warning when it cannot be found."""
    where = (page.source or page.key, 2, 1, "asyncapi")
    if not isinstance(value, str) or not value.strip():
        api.diagnostics.append(
            warning(
                "asyncapi.frontmatter",
                f"`asyncapi` must be a string like '/asyncapi.yaml channelName', found {str(value)[:40]!r}; "
                "the page is built without a channel",
                *where,
            )
        )
        return
    source, channel = parse_ref(value)
    spec, problems = _store(api).load(source, where)
    api.diagnostics.extend(problems)
    if spec is None:
        return
    if not channel or spec.channel(channel) is None:
        known = ", ".join(spec.channels()[:8]) or "none"
        api.diagnostics.append(
            warning(
                "asyncapi.unknown-channel",
                f"channel '{channel}' is not in {spec.source}; the page is built without it"
                if channel
                else f"`asyncapi: {value.strip()}` names no channel; the page is built without one",
                *where,
                hint=f"channels of {spec.source}: {known} (write 'file channelName')",
            )
        )
        return
    page.meta.setdefault("title", str((spec.channel(channel) or {}).get("title") or channel))
    page.kind = "channel"
    page.method = "WSS"
    page.generate = _generator(api, spec, channel, trusted=True)


def channel_pages(
    api: ApiPages, value: Any, directory: str | None, where: tuple, inherited: dict
) -> list[Page]:
    """Return one generated page per channel of a navigation `asyncapi` field (string or {source, directory})."""
    from docsgen.openapi.frontmatter import spec_refs

    out: list[Page] = []
    for source, own_dir in spec_refs(value):
        spec, problems = _store(api).load(source, where)
        api.diagnostics.extend(problems)
        if spec is None:
            continue
        base = (own_dir or directory or "websockets").strip("/")
        for name in spec.channels():
            channel = spec.channel(name) or {}
            title = str(channel.get("title") or name)
            key = urls.unique_path(f"{base}/{urls.slugify(name) or 'channel'}", api.pages)
            url = page_url(key)
            meta: dict[str, Any] = {"title": title}
            if inherited.get("version"):
                meta["version"] = inherited["version"]
            page = Page(key, url, url_output(url), meta=meta, kind="channel", spec=spec.source)
            page.method = "WSS"
            page.generate = _generator(api, spec, name, trusted=False)
            api.pages[key] = page
            out.append(page)
    return out
