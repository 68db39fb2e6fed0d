"""Located notes for docs.json `contextual` options docsgen offers differently or not at all."""

from __future__ import annotations

import os

from docsgen.common.errors import Diagnostic
from docsgen.config.load import RawConfig

SITE_URL_ENV = "DOCSGEN_SITE_URL"
MCP_OPTIONS = ("mcp", "add-mcp", "cursor", "vscode")  # options pointing at the site's MCP server
# Options Mintlify offers that docsgen leaves out, with why (reported by check_contextual).
UNSUPPORTED = {
    "devin-desktop": "Devin Desktop's deep link is not documented",
    "windsurf": "Devin Desktop's deep link is not documented",
    "devin-mcp": "Devin's MCP install link is not documented",
}


def _has_feedback_server(raw: RawConfig) -> bool:
    """Tell whether docs.json `feedback` names a docsgen server (`server` + `project`, or a /v1/feedback/ endpoint)."""
    fb = raw.data.get("feedback")
    if not isinstance(fb, dict):
        return False
    return bool(fb.get("server") and fb.get("project")) or "/v1/feedback/" in str(fb.get("endpoint") or "")


def check_contextual(raw: RawConfig) -> list[Diagnostic]:
    """Return one info per option that is left out, or that works differently than on Mintlify."""
    menu = raw.data.get("contextual")
    options = menu.get("options") if isinstance(menu, dict) else None
    if not isinstance(options, list):
        return []
    canonical = ((raw.data.get("seo") or {}).get("metatags") or {}).get("canonical")
    site_known = (
        bool(os.environ.get(SITE_URL_ENV)) or isinstance(canonical, str) and canonical.startswith("http")
    )
    out: list[Diagnostic] = []
    mcp_noted = False
    for i, option in enumerate(options):
        path = ("contextual", "options", i)
        if not isinstance(option, str):
            continue
        if option in UNSUPPORTED:
            out.append(
                raw.diagnostic(
                    "contextual.unsupported",
                    f"'{option}': {UNSUPPORTED[option]}: left out",
                    path,
                    severity="info",
                )
            )
        elif option == "assistant" and not _has_feedback_server(raw):
            out.append(
                raw.diagnostic(
                    "contextual.unsupported",
                    "'assistant': the assistant needs docs.json `feedback` to name a docsgen server: without one "
                    "the option opens the site search on the page's title",
                    path,
                    severity="info",
                )
            )
        elif option in MCP_OPTIONS and not site_known and not mcp_noted:
            mcp_noted = True
            out.append(
                raw.diagnostic(
                    "contextual.mcp-url",
                    f"'{option}' points at the site's MCP server, <site URL>/mcp (docsgen mcp), but no site URL is set: "
                    "the menu uses /mcp on the host that serves the page",
                    path,
                    severity="info",
                    hint="set seo.metatags.canonical, or build with --site-url, to write the address into the pages",
                )
            )
    return out
