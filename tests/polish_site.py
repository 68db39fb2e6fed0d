"""A site with what a reader who knows hosted Mintlify notices (issue 30's list), for tests/*/test_polish_*browser.py.

One docs folder: breadcrumbs (maple) with a tab and a group of the same name, eight tabs (too many for a phone),
`colors.dark` for buttons, long TOCs, a table with inline code, a Prompt with a long description, a card with an
icon no library knows, and an OpenAPI spec whose endpoint has path parameters, long response-example names and a
deprecated operation and parameter.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import write_tree

TABS = [
    "Overview",
    "API reference",
    "Integrations",
    "SDK libraries",
    "Self-hosting",
    "Changelog",
    "Community",
    "Help",
]

_SPEC = {
    "openapi": "3.1.0",
    "info": {"title": "Projects", "version": "1.0.0"},
    "servers": [{"url": "https://api.example-platform.com/v1"}],
    "paths": {
        # Fits a phone's bar until "Try it" joins it: then it scrolls, so it must take keyboard focus.
        "/project/update/{projectId}": {
            "get": {
                "summary": "Get an update",
                "parameters": [
                    {"name": "projectId", "in": "path", "required": True, "schema": {"type": "string"}}
                ],
                "responses": {"200": {"description": "OK"}},
            }
        },
        "/projects/{projectId}/deployments/{deploymentId}": {
            "post": {
                "summary": "Trigger a deployment",
                "description": "Starts a deployment of a project.",
                "deprecated": True,
                "parameters": [
                    {"name": "projectId", "in": "path", "required": True, "schema": {"type": "string"}},
                    {"name": "deploymentId", "in": "path", "required": True, "schema": {"type": "string"}},
                    {
                        "name": "legacy_mode",
                        "in": "query",
                        "deprecated": True,
                        "description": "Deprecated. Use `mode` instead.",
                        "schema": {"type": "boolean", "deprecated": True},
                    },
                ],
                "responses": {
                    "202": {
                        "description": "Accepted",
                        "content": {
                            "application/json": {
                                "schema": {"type": "object", "properties": {"statusId": {"type": "string"}}},
                                "examples": {
                                    "deployment_accepted_and_queued_for_processing": {
                                        "summary": "Deployment accepted and queued for processing",
                                        "value": {"statusId": "queued"},
                                    },
                                    "deployment_accepted_and_running_immediately": {
                                        "summary": "Deployment accepted and running immediately",
                                        "value": {"statusId": "running"},
                                    },
                                },
                            }
                        },
                    },
                    "422": {"description": "Invalid project configuration supplied by the caller"},
                },
            }
        },
    },
}

_SECTIONS = "".join(
    f"## Section {n}\n\n"
    + "Paragraph of text that fills the section so the page is long enough to scroll.\n\n" * 14
    for n in range(1, 7)
)


def _tab(name: str) -> dict:
    slug = name.lower().replace(" ", "-")
    if name == "Overview":
        return {"tab": name, "groups": [{"group": "Overview", "pages": ["index", "guide", "updates", "old"]}]}
    if name == "API reference":
        return {"tab": name, "groups": [{"group": "Endpoints", "openapi": "projects.json"}]}
    return {"tab": name, "groups": [{"group": f"{name} pages", "pages": [f"{slug}/index"]}]}


FILES: dict[str, str] = {
    "docs.json": json.dumps(
        {
            "theme": "maple",
            "name": "Polish",
            "colors": {"primary": "#0052FF", "light": "#F472B6", "dark": "#15803D"},
            "api": {"url": "full"},
            "contextual": {"options": ["copy", "view"]},
            "navbar": {
                "primary": {"type": "button", "label": "Sign up", "href": "https://example.com/signup"}
            },
            "navigation": {"tabs": [_tab(name) for name in TABS]},
        }
    ),
    "projects.json": json.dumps(_SPEC),
    "index.mdx": (
        "---\ntitle: Overview\ndescription: Everything about the platform.\n---\n\n"
        '<CardGroup cols={2}>\n<Card title="Unknown" icon="no-such-icon-anywhere">An icon nobody knows.</Card>\n'
        '<Card title="Known" icon="rocket">A known icon.</Card>\n</CardGroup>\n\n'
        "| Setting | Meaning |\n| --- | --- |\n"
        "| `max_connections_per_host` | How many connections one host may hold open at the same time. |\n"
        "| `retry_backoff_multiplier` | How much longer each retry waits than the one before it, as a factor. |\n\n"
        '<Prompt description="Ask your assistant to set up the integration for this project" icon="sparkles">\n'
        "Set up the integration.\n</Prompt>\n\n" + _SECTIONS
    ),
    # A heading in a closed tab is in "On this page" but has no box: the scroll-spy must skip it.
    "guide.mdx": "---\ntitle: A guide with a rather long title that goes on\n---\n\n"
    + _SECTIONS
    + '<Tabs>\n<Tab title="Shown">\n\n## In the first tab\n\nA.\n</Tab>\n'
    + '<Tab title="Hidden">\n\n## In the second tab\n\nB.\n</Tab>\n</Tabs>\n',
    "updates.mdx": (
        "---\ntitle: Product updates\ndescription: New updates and improvements\n---\n\n"
        '<Update label="May 2025">\nMay things.\n</Update>\n\n<Update label="April 2025">\nApril things.\n</Update>\n'
    ),
    # A page marked deprecated that also carries the tag "Deprecated" (as real sites do): one badge.
    "old.mdx": '---\ntitle: Old keys\ndeprecated: true\ntag: "Deprecated"\n---\n\nUse new keys.\n',
    **{
        f"{name.lower().replace(' ', '-')}/index.mdx": f"---\ntitle: {name} home\n---\n\nAbout {name}.\n"
        for name in TABS[2:]
    },
}


def write_polish(root: Path) -> Path:
    """Write the site's docs folder under root."""
    return write_tree(root, FILES)
