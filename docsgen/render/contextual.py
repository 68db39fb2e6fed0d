"""The contextual page menu (docs.json `contextual`, or a page's own): which options a page shows, and where.

Options docsgen cannot offer are reported once, located in docs.json (check_contextual, config stage); on a
page they are left out. The MCP options point at `<site URL>/mcp`, where `docsgen mcp` is served (see
docs/guides/mcp.mdx); the site URL is --site-url, $DOCSGEN_SITE_URL or seo.metatags.canonical, else the menu
uses `/mcp` on the host that serves the page (resolved in the browser).
"""

from __future__ import annotations

import base64
import json
import re
from typing import Any
from urllib.parse import quote

from docsgen.common.theme import register_template_globals
from docsgen.config.safety import is_unsafe_url
from docsgen.site.policies import site_url

AI_TOOLS = {
    "chatgpt": ("Open in ChatGPT", "https://chatgpt.com/?hints=search&q="),
    "claude": ("Open in Claude", "https://claude.ai/new?q="),
    "perplexity": ("Open in Perplexity", "https://www.perplexity.ai/search/new?q="),
    "grok": ("Open in Grok", "https://grok.com/?q="),
    "aistudio": ("Open in Google AI Studio", "https://aistudio.google.com/prompts/new_chat?prompt="),
    "devin": ("Open in Devin", "https://app.devin.ai/?prompt="),
}
LABELS = {
    "copy": ("Copy page", "Copy this page as Markdown for LLMs"),
    "view": ("View as Markdown", "View this page as plain text"),
    "assistant": ("Ask about this page", "Search these docs for what this page covers"),
    "download-pdf": ("Download PDF", "Print this page or save it as PDF"),
    "download-spec": ("Download API spec", "The OpenAPI file this page documents"),
    "mcp": ("Copy MCP server URL", "Connect AI tools to these docs"),
    "add-mcp": ("Copy MCP install command", "Install the MCP server with npx add-mcp"),
    "cursor": ("Connect to Cursor", "Install the MCP server in Cursor"),
    "vscode": ("Connect to VS Code", "Install the MCP server in VS Code"),
    **{k: (title, "Ask questions about this page") for k, (title, _) in AI_TOOLS.items()},
}
MAX_OPTIONS = 40


def menu_config(site: Any, page: Any) -> dict:
    """Return the page's `contextual` object: its frontmatter's when valid, else docs.json's."""
    own = page.meta.get("contextual")
    if isinstance(own, dict) and isinstance(own.get("options"), list):
        return own
    raw = site.config.raw.get("contextual")
    return raw if isinstance(raw, dict) else {}


def mcp_url(site: Any) -> str | None:
    """Return the public MCP server URL (`<site URL>/mcp`), None when the site URL is not known."""

    base = site_url(site)
    return f"{base}/mcp" if base else None


def cursor_link(name: str, url: str) -> str:
    """Cursor's MCP install deep link: base64 of {"url": ...} (as in Mintlify's docs)."""
    config = base64.b64encode(json.dumps({"url": url}, separators=(",", ":")).encode()).decode()
    return f"cursor://anysphere.cursor-deeplink/mcp/install?name={quote(name)}&config={quote(config)}"


def vscode_link(name: str, url: str) -> str:
    """VS Code's MCP install link: URL-encoded {"type": "http", "url": ...} (as in Mintlify's docs)."""
    config = json.dumps({"type": "http", "url": url}, separators=(",", ":"))
    return f"https://vscode.dev/redirect/mcp/install?name={quote(name)}&config={quote(config, safe='')}"


def _server_name(site: Any) -> str:
    name = re.sub(r"[^a-z0-9]+", "-", str(site.config.name or "docs").lower()).strip("-")
    return name[:60] or "docs"


def _spec_href(page: Any, root: str) -> str | None:
    spec = page.spec or (page.meta.get("openapi") if page.kind != "page" else None)
    if not isinstance(spec, str) or not spec.strip() or is_unsafe_url(spec):
        return None
    spec = spec.strip()
    if re.match(r"^https?://", spec):
        return spec
    if spec.startswith(("/", ".")) or ".." in spec.split("/"):
        spec = spec.lstrip("./")
    return root + spec if not re.match(r"^[a-z][a-z0-9+.-]*:", spec) else None


def contextual_menu(site: Any, page: Any, root: str, has_body: bool = True) -> dict:
    """Return {"options": [...], "display": "header" | "toc", "mcp": url} for a page (no options: no menu)."""
    menu = menu_config(site, page)
    found = menu.get("options")
    raw_options: list[Any] = found if isinstance(found, list) else []
    display = "toc" if menu.get("display") == "toc" else "header"
    if not has_body or page.meta.get("contextual") is False:
        return {"options": [], "display": "header", "mcp": ""}
    if not raw_options:  # no menu (most sites: every page): the MCP URL and server name are not worked out
        return {"options": [], "display": display, "mcp": ""}
    mcp = mcp_url(site)
    mcp_href = mcp or root + "mcp"  # relative: resolved against the page's address in the browser
    name = _server_name(site)
    options: list[dict] = []
    for o in raw_options[:MAX_OPTIONS]:
        if isinstance(o, str) and o in LABELS:
            title, description = LABELS[o]
            entry: dict[str, Any] = {"id": o, "title": title, "description": description}
            if o in AI_TOOLS:
                entry["base"] = AI_TOOLS[o][1]
            elif o == "download-spec":
                entry["href"] = _spec_href(page, root)
                if not entry["href"]:
                    continue  # only on pages that document an API (as Mintlify)
            elif o == "cursor":
                entry["href"] = cursor_link(name, mcp) if mcp else ""
            elif o == "vscode":
                entry["href"] = vscode_link(name, mcp) if mcp else ""
            options.append(entry)
        elif isinstance(o, dict) and isinstance(o.get("title"), str) and o.get("href"):
            href = o["href"]
            base = href if isinstance(href, str) else href.get("base") if isinstance(href, dict) else None
            if not isinstance(base, str) or is_unsafe_url(base):
                continue
            options.append(
                {
                    "id": "custom",
                    "title": o["title"],
                    "description": o.get("description") if isinstance(o.get("description"), str) else "",
                    "icon": o.get("icon"),
                    "href": base.replace("$mcp", mcp_href),
                    "spec": href,
                }
            )
    return {"options": options, "display": display, "mcp": mcp_href, "server": name}


register_template_globals({"dg_contextual": contextual_menu})
