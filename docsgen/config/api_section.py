"""The typed view of docs.json `api`: the specs, the playground, generated examples, parameter display, the
endpoint URL and hand-written API pages (`api.mdx`). Made once from the validated JSON (SiteConfig.api), so the
OpenAPI page loader, the playground's authentication, the dev proxy and the API render settings read named
fields instead of looking keys up in the raw dict."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


def _dict(value: Any) -> dict:
    return value if isinstance(value, dict) else {}


def _strings(value: Any) -> tuple[str, ...]:
    """A string or a list of strings, as a tuple of the strings."""
    if isinstance(value, str):
        return (value,)
    return tuple(v for v in value if isinstance(v, str)) if isinstance(value, list) else ()


@dataclass(frozen=True)
class Playground:
    """`api.playground`: who sees the playground and how its requests are sent."""

    display: str | None = None  # "interactive" | "simple" | "none" | "auth", as written (None: not set)
    mode: str | None = None  # Mintlify's older name for `display`, honoured when `display` is not set
    proxy: bool = True  # requests go through the site's proxy (docsgen dev, docsgen server)
    credentials: bool = False  # direct requests include cookies
    # site authentication as written (checked by docsgen.openapi.playground_auth.client_auth)
    auth: Any = None

    @classmethod
    def from_json(cls, value: Any) -> Playground:
        raw = _dict(value)
        display, mode = raw.get("display"), raw.get("mode")
        return cls(
            display=display if isinstance(display, str) and display else None,
            mode=mode if isinstance(mode, str) and mode else None,
            proxy=raw.get("proxy", True) is not False,
            credentials=raw.get("credentials") is True,
            auth=raw.get("auth"),
        )


@dataclass(frozen=True)
class Examples:
    """`api.examples`: the generated request samples."""

    languages: tuple[str, ...] = ()  # as written (aliases allowed), in display order; () = the default set
    defaults: str = "all"  # "all" | "required": which optional fields generated examples include
    prefill: bool = False  # playground inputs start with the spec's examples
    autogenerate: bool = True  # False: only the spec's own x-codeSamples are shown

    @classmethod
    def from_json(cls, value: Any) -> Examples:
        raw = _dict(value)
        languages = raw.get("languages")
        return cls(
            languages=tuple(languages) if isinstance(languages, list) else (),
            defaults=raw.get("defaults", "all"),
            prefill=bool(raw.get("prefill", False)),
            autogenerate=raw.get("autogenerate", True) is not False,
        )


@dataclass(frozen=True)
class ManualPages:
    """`api.mdx`: the base URL(s) and authentication of hand-written API pages (`api:` frontmatter)."""

    servers: tuple[str, ...] = ()
    auth_method: str | None = None  # "bearer" | "basic" | "key" | "cobo"
    auth_name: str | None = None  # the header carrying an API key

    @classmethod
    def from_json(cls, value: Any) -> ManualPages:
        raw = _dict(value)
        auth = _dict(raw.get("auth"))
        method, name = auth.get("method"), auth.get("name")
        return cls(
            servers=_strings(raw.get("server")),
            auth_method=method if isinstance(method, str) else None,
            auth_name=name if isinstance(name, str) else None,
        )

    @property
    def auth(self) -> dict[str, str] | None:
        """The authentication as the hand-written page renderer takes it (None: none configured)."""
        if self.auth_method is None:
            return None
        return {"method": self.auth_method, **({"name": self.auth_name} if self.auth_name else {})}


@dataclass(frozen=True)
class ApiSection:
    """docs.json `api`."""

    openapi: Any = None  # the site's OpenAPI spec(s) as written: a source, a list, or {source, directory}
    playground: Playground = field(default_factory=Playground)
    examples: Examples = field(default_factory=Examples)
    params_expanded: bool = False  # `params.expanded: "all"`: nested schema trees start open
    params_post: tuple[str, ...] = ()  # `params.post`: schema keys shown as pills after a field's name
    url_full: bool = False  # `url: "full"`: endpoint bars show the server's base URL
    base_urls: tuple[str, ...] = ()  # `baseUrl` (Mintlify's older key), as written: URLs the dev proxy allows
    mdx: ManualPages = field(default_factory=ManualPages)

    @classmethod
    def from_json(cls, value: Any) -> ApiSection:
        raw = _dict(value)
        params = _dict(raw.get("params"))
        post = params.get("post")
        return cls(
            openapi=raw.get("openapi"),
            playground=Playground.from_json(raw.get("playground")),
            examples=Examples.from_json(raw.get("examples")),
            params_expanded=params.get("expanded") == "all",
            params_post=tuple(k for k in post if isinstance(k, str)) if isinstance(post, list) else (),
            url_full=raw.get("url") == "full" or raw.get("baseUrl") == "full",
            base_urls=_strings(raw.get("baseUrl")),
            mdx=ManualPages.from_json(raw.get("mdx")),
        )

    def display(self, page_meta: Mapping[str, Any] | None = None) -> str:
        """Who sees a page's playground: its `playground` frontmatter, else docs.json's; "interactive" for
        anything else."""
        shown = (page_meta or {}).get("playground") or self.playground.display or self.playground.mode
        return shown if shown in ("interactive", "simple", "none", "auth") else "interactive"
