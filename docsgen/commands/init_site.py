"""docsgen init: a small working starter site, never overwriting what is there."""

from __future__ import annotations

import json
from pathlib import Path

from docsgen.common.errors import DocsgenError, error
from docsgen.common.newfile import blocked, create_file


def starter_files(name: str) -> dict[str, str]:
    """Return the starter site as {relative path: content}."""
    docs = {
        "$schema": "https://docsgen.dev/docs.schema.json",
        "theme": "mint",
        "name": name,
        "colors": {"primary": "#0D9373", "light": "#07C983", "dark": "#0D9373"},
        "navigation": {
            "tabs": [
                {
                    "tab": "Guides",
                    "groups": [
                        {"group": "Get started", "pages": ["index", "quickstart"]},
                        {"group": "Writing", "pages": ["writing/pages", "writing/navigation"]},
                    ],
                }
            ]
        },
        "footer": {"socials": {"github": "https://github.com/"}},
    }
    return {
        "docs.json": json.dumps(docs, indent=2) + "\n",
        "index.mdx": "---\ntitle: Introduction\ndescription: Welcome to your new documentation site.\n---\n\n"
        "This site is built with **docsgen** from `docs.json` and MDX pages.\n\n"
        "## Next steps\n\n- Follow the [quickstart](/quickstart).\n- Learn how [pages](/writing/pages) work.\n",
        "quickstart.mdx": "---\ntitle: Quickstart\ndescription: Build and preview the site.\n---\n\n"
        "## Build\n\n```bash\ndocsgen build . -o _site\n```\n\n## Preview\n\n```bash\ndocsgen dev .\n```\n",
        "writing/pages.mdx": "---\ntitle: Pages\n---\n\nEach `.mdx` file is a page. Its frontmatter sets the title and description.\n\n"
        "| Field | Meaning |\n| --- | --- |\n| `title` | Page title |\n| `description` | Shown under the title |\n",
        "writing/navigation.mdx": "---\ntitle: Navigation\n---\n\nThe `navigation` field of `docs.json` lists pages in groups and tabs.\n"
        "See the [pages guide](./pages).\n",
    }


def write_starter(out_dir: Path, name: str = "My Docs") -> list[Path]:
    """Write the starter files into out_dir; refuse (writing nothing) if any already exists."""
    files = starter_files(name)
    clashes = [(rel, why) for rel in files if (why := blocked(out_dir, out_dir / rel))]
    if clashes:
        raise DocsgenError(
            [
                error("init.exists", f"{why}; docsgen init never overwrites files", str(out_dir / rel))
                for rel, why in clashes
            ]
        )
    written = []
    for rel, content in files.items():
        target = out_dir / rel
        try:
            create_file(out_dir, target, content)
        except OSError as exc:  # planted after the check
            raise DocsgenError([error("init.exists", f"{rel} not written: {exc}", str(target))]) from None
        written.append(target)
    return written
