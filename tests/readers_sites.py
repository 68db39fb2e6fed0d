"""Sites and tools for the readers' browser suite: fixture sites built once, a phone-hostile site, axe-core from npm.

axe-core is a test-only dependency, installed with npm into $DOCSGEN_TEST_CACHE/axe (default
/tmp/docsgen-test-cache/axe), like the real OpenAPI specs of tests/openapi_real.py.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import tempfile
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from tests.conftest import FIXTURES, write_tree

CACHE = Path(os.environ.get("DOCSGEN_TEST_CACHE", "/tmp/docsgen-test-cache")) / "axe"
AXE_VERSION = "4.14.1"
ARTIFACTS = Path(os.environ.get("DOCSGEN_ARTIFACTS", "/tmp/docsgen-test-artifacts")) / "readers"


def axe_source() -> str:
    """Return axe.min.js, installing axe-core from npm into the test cache the first time."""
    target = CACHE / f"axe-core-{AXE_VERSION}.min.js"
    if not target.is_file():
        npm = shutil.which("npm")
        if npm is None:
            raise RuntimeError("npm is needed to install axe-core for the accessibility checks")
        CACHE.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
            result = subprocess.run(
                [
                    npm,
                    "install",
                    "--silent",
                    "--no-audit",
                    "--no-fund",
                    "--prefix",
                    tmp,
                    f"axe-core@{AXE_VERSION}",
                ],
                capture_output=True,
                text=True,
                timeout=600,
                check=False,
            )
            built = Path(tmp) / "node_modules" / "axe-core" / "axe.min.js"
            if result.returncode != 0 or not built.is_file():
                raise RuntimeError(f"npm install axe-core failed: {result.stderr.strip()[-500:]}")
            built.replace(target)
    return target.read_text(encoding="utf-8")


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


def serve(folder: Path) -> tuple[ThreadingHTTPServer, str]:
    """Serve a built site on 127.0.0.1 (a free port) and return the server and its base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(folder)))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


LONG = "/organizations/{organization_id}/projects/{project_id}/environments/{environment_id}/deployments/{deployment_id}/artifacts"
_SPEC = {
    "openapi": "3.1.0",
    "info": {"title": "Deploys", "version": "1.0.0"},
    "servers": [{"url": "https://api.example-with-a-rather-long-hostname.com/v1/internal/platform"}],
    "paths": {
        LONG: {
            "get": {
                "summary": "List deployment artifacts",
                "parameters": [
                    {
                        "name": name,
                        "in": "path",
                        "required": True,
                        "schema": {
                            "type": "string",
                            "pattern": "^[a-z0-9]{8}-[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{12}$",
                        },
                        "description": "An identifier_with_a_very_long_unbroken_name_that_does_not_wrap_anywhere",
                    }
                    for name in ("organization_id", "project_id", "environment_id", "deployment_id")
                ],
                "responses": {
                    "200": {
                        "description": "The artifacts",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "properties": {
                                        "artifact_download_url_with_signature_and_expiry": {
                                            "type": "string",
                                            "format": "uri",
                                            "example": "https://downloads.example.com/" + "a" * 120,
                                        }
                                    },
                                }
                            }
                        },
                    }
                },
            }
        }
    },
}

WIDE_CODE = "```python\nx = '" + "a_long_unbroken_line_of_code_" * 8 + "'\n```\n"

# A site meant to be hard on phones and on dark mode: language and version switchers, a CTA, a long API path,
# site CSS written for Mintlify (`.dark ...`), an accent with its own dark-mode colour.
HOSTILE_FILES: dict[str, str] = {
    "docs.json": json.dumps(
        {
            "theme": "mint",
            "name": "Hostile Platform Documentation",
            "colors": {"primary": "#0052FF", "light": "#F472B6", "dark": "#15803D"},
            "icons": {"library": "lucide"},
            "navbar": {
                "links": [{"label": "Community", "href": "https://example.com/community"}],
                "primary": {"type": "button", "label": "Get started", "href": "https://example.com/start"},
            },
            "navigation": {
                "versions": [
                    {
                        "version": "v2",
                        "languages": [
                            {
                                "language": "en",
                                "tabs": [
                                    {
                                        "tab": "Guides",
                                        "icon": "book-open",
                                        "groups": [{"group": "Start", "pages": ["index", "guide", "wide"]}],
                                    },
                                    {"tab": "API", "icon": "code", "openapi": "deploys.json"},
                                ],
                            },
                            {
                                "language": "fr",
                                "groups": [{"group": "Démarrer", "pages": ["fr/index", "fr/guide"]}],
                            },
                        ],
                    },
                    {"version": "v1", "groups": [{"group": "Old", "pages": ["v1/index"]}]},
                ]
            },
        }
    ),
    "deploys.json": json.dumps(_SPEC),
    "style.css": ".dark .dg-hostile-probe { color: rgb(250, 250, 200); }\n",
    "index.mdx": (
        '---\ntitle: Home\n---\n\n<p className="dg-hostile-probe">Probe</p>\n\n'
        '<CardGroup cols={2}>\n<Card title="Guide" icon="rocket" href="/guide">Read it.</Card>\n'
        '<Card title="Heart" icon="heart">Outline.</Card>\n</CardGroup>\n\n'
        "![Architecture diagram](/diagram.svg)\n\n"
        "##### A fifth-level heading\n\n- [ ] a task to do\n- [x] a task done\n\n"
        "`a_very_long_inline_code_identifier_that_is_longer_than_a_phone_screen_is_wide_by_itself`\n"
    ),
    "guide.mdx": "---\ntitle: Guide\n---\n\nEnglish guide.\n",
    # Wide code inside a changelog entry and a card in columns (phones), a diagram with edge labels (dark mode).
    "wide.mdx": (
        "---\ntitle: Wide things\n---\n\n"
        f'<Update label="v2.0" description="June">\n\n{WIDE_CODE}\n</Update>\n\n'
        f'<Columns cols={{2}}>\n<Card title="Code">\n\n{WIDE_CODE}\n</Card>\n'
        '<Card title="Two">Short.</Card>\n</Columns>\n\n'
        "```mermaid\ngraph TD\n  A[Start] -->|Yes| B[Done]\n  A -->|No| C[Retry]\n```\n"
    ),
    "diagram.svg": '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="200"><rect width="600" height="200" '
    'fill="#888"/></svg>',
    "fr/index.mdx": "---\ntitle: Accueil\n---\n\nBonjour.\n",
    "fr/guide.mdx": "---\ntitle: Guide FR\n---\n\nGuide en français.\n",
    "v1/index.mdx": "---\ntitle: Old\n---\n\nOld version.\n",
}


def write_hostile(root: Path) -> Path:
    """Write the hostile site's docs folder under root."""
    return write_tree(root, HOSTILE_FILES)


# Prose mentions "accordion" once; an MDX code sample repeats it: the excerpt must come from the prose.
SEARCH_FILES: dict[str, str] = {
    "docs.json": json.dumps(
        {
            "theme": "mint",
            "name": "S",
            "colors": {"primary": "#1D4ED8"},
            "navigation": {"pages": ["index", "acc"]},
        }
    ),
    "index.mdx": "---\ntitle: Home\n---\n\nHello.\n",
    "acc.mdx": (
        "---\ntitle: Folding sections\n---\n\nUse an accordion to fold long answers away.\n\n"
        "Some unrelated prose about other things that goes on for a while, so the excerpt has a choice.\n\n"
        "```mdx\n<AccordionGroup>\n"
        + "".join(f'<Accordion title="Accordion {n}">Accordion {n}</Accordion>\n' for n in range(4))
        + "</AccordionGroup>\n```\n"
    ),
}


# An MDX page documenting an endpoint, with content of its own (goes under the method and path bar).
API_PAGE_FILES = {
    "docs.json": json.dumps(
        {
            "theme": "mint",
            "name": "P",
            "colors": {"primary": "#0E7490"},
            "navigation": {"pages": ["index", "list"]},
        }
    ),
    "index.mdx": "---\ntitle: Home\n---\n\nHi.\n",
    "list.mdx": (
        "---\ntitle: List pets\ndescription: Every pet.\nopenapi: petstore.yaml GET /pets\n---\n\n"
        "This endpoint is paginated.\n\n<Note>Rate limited.</Note>\n"
    ),
    "petstore.yaml": (FIXTURES / "api-site" / "petstore.yaml").read_text(),
}
