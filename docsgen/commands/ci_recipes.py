"""`docsgen init --ci KIND`: a CI file that installs docsgen, builds the site with --strict and publishes it.

Each recipe is {path relative to the repository root: content}. The docs folder is given relative to that root;
the install pins docsgen's MAJOR.MINOR series (docs/reference/compatibility.mdx: a newer version may add
warnings, which --strict turns into errors).
"""

from __future__ import annotations

import os
import re
from pathlib import Path, PurePosixPath

from docsgen.commands.init_site import write_starter
from docsgen.common.errors import DocsgenError, error
from docsgen.common.newfile import blocked, create_file
from docsgen.common.resources import DISTRIBUTION, version

CI_KINDS = ("github-pages", "gitlab-pages", "netlify", "cloudflare")


def install_requirement() -> str:
    """Return the pip requirement CI files install: this version's MAJOR.MINOR series of the distribution."""
    found = re.match(r"(\d+)\.(\d+)", version())
    return f"{DISTRIBUTION}=={found.group(1)}.{found.group(2)}.*" if found else DISTRIBUTION


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:58] or "docs"


def _github_pages(docs: str, out: str, install: str) -> dict[str, str]:
    return {
        ".github/workflows/docs.yml": f"""# Build the docs with docsgen and publish them on GitHub Pages (written by `docsgen init --ci github-pages`).
# In the repository's Settings > Pages, set Source to "GitHub Actions".
name: docs
on:
  push:
    branches: [main]
  workflow_dispatch:
permissions:
  contents: read
  pages: write
  id-token: write
concurrency:
  group: pages
  cancel-in-progress: false
jobs:
  deploy:
    runs-on: ubuntu-latest
    environment:
      name: github-pages
      url: ${{{{ steps.deployment.outputs.page_url }}}}
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0  # full history: the pages' "Last updated" dates come from git
      - uses: actions/setup-python@v5
        with:
          python-version: "3.12"
      - run: pip install '{install}'
      - run: docsgen build {docs} --strict -o {out}
      - uses: actions/upload-pages-artifact@v3
        with:
          path: {out}
      - id: deployment
        uses: actions/deploy-pages@v4
"""
    }


def _gitlab_pages(docs: str, out: str, install: str) -> dict[str, str]:
    del out  # GitLab Pages publishes the folder `public`
    return {
        ".gitlab-ci.yml": f"""# Build the docs with docsgen and publish them on GitLab Pages (written by `docsgen init --ci gitlab-pages`).
pages:
  image: python:3.12
  variables:
    GIT_DEPTH: "0"  # full history: the pages' "Last updated" dates come from git
  script:
    - pip install '{install}'
    - docsgen build {docs} --strict -o public
  artifacts:
    paths:
      - public
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
"""
    }


def _netlify(docs: str, out: str, install: str) -> dict[str, str]:
    return {
        "netlify.toml": f"""# Build the docs with docsgen on Netlify (written by `docsgen init --ci netlify`).
# Netlify reads the site's _redirects file and serves 404.html for missing paths.
[build]
  command = "pip install '{install}' && docsgen build {docs} --strict -o {out}"
  publish = "{out}"

[build.environment]
  PYTHON_VERSION = "3.12"
"""
    }


def _cloudflare(docs: str, out: str, install: str, project: str) -> dict[str, str]:
    return {
        ".github/workflows/docs-cloudflare.yml": f"""# Build the docs with docsgen and publish them on Cloudflare Pages (written by `docsgen init --ci cloudflare`).
# Create the Pages project "{project}" (Direct Upload) and add the repository secrets CLOUDFLARE_API_TOKEN
# (permission: Cloudflare Pages, Edit) and CLOUDFLARE_ACCOUNT_ID.
name: docs
on:
  push:
    branches: [main]
  workflow_dispatch:
permissions:
  contents: read
  deployments: write
jobs:
  deploy:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0  # full history: the pages' "Last updated" dates come from git
      - uses: actions/setup-python@v5
        with:
          python-version: "3.12"
      - run: pip install '{install}'
      - run: docsgen build {docs} --strict -o {out}
      - uses: cloudflare/wrangler-action@v3
        with:
          apiToken: ${{{{ secrets.CLOUDFLARE_API_TOKEN }}}}
          accountId: ${{{{ secrets.CLOUDFLARE_ACCOUNT_ID }}}}
          command: pages deploy {out} --project-name={project}
"""
    }


def ci_files(kind: str, docs: str, site_name: str = "docs") -> dict[str, str]:
    """Return the CI files of a recipe for the docs folder `docs` (relative to the repository root)."""
    out = "_site" if docs == "." else f"{docs}/_site"
    install = install_requirement()
    if kind == "github-pages":
        return _github_pages(docs, out, install)
    if kind == "gitlab-pages":
        return _gitlab_pages(docs, out, install)
    if kind == "netlify":
        return _netlify(docs, out, install)
    if kind == "cloudflare":
        return _cloudflare(docs, out, install, _slug(site_name))
    raise DocsgenError(f"unknown CI recipe '{kind}' (one of: {', '.join(CI_KINDS)})")


def docs_folder_from(root: Path, docs_dir: Path) -> str:
    """Return docs_dir relative to the repository root (the working directory), as a CI file names it."""
    relative = os.path.relpath(docs_dir.absolute(), root.absolute())
    posix = PurePosixPath(Path(relative).as_posix())
    if posix.parts[:1] == ("..",) or posix.is_absolute():
        raise DocsgenError(
            f"the docs folder '{docs_dir}' is outside the working directory: run `docsgen init --ci` from the "
            "repository root"
        )
    if not re.fullmatch(r"[A-Za-z0-9._/-]+", str(posix)):
        raise DocsgenError(f"the docs folder '{posix}' has characters a CI file cannot quote safely")
    return str(posix)


def refuse_existing(root: Path, files: dict[str, str]) -> None:
    """Raise (naming each) when a file to write exists already or a link is on its way (docsgen.common.newfile)."""
    clashes = [(rel, why) for rel in files if (why := blocked(root, root / rel))]
    if clashes:
        raise DocsgenError(
            [
                error("init.exists", f"{why}; docsgen init never overwrites files", str(root / rel))
                for rel, why in clashes
            ]
        )


def write_new_files(root: Path, files: dict[str, str]) -> list[Path]:
    """Write files under root, refusing (writing nothing) when one exists; never through a symbolic link."""
    refuse_existing(root, files)
    written = []
    for rel, content in files.items():
        try:
            create_file(root, root / rel, content)
        except OSError as exc:  # planted after the check
            raise DocsgenError([error("init.exists", f"{rel} not written: {exc}", str(root / rel))]) from None
        written.append(root / rel)
    return written


def init_with_ci(root: Path, docs_dir: Path, name: str, kind: str) -> list[Path]:
    """`docsgen init --ci KIND`: the starter site (unless docs_dir has a docs.json) and the recipe's CI files,
    all or nothing: an existing CI file is refused before the starter is written."""
    files = ci_files(kind, docs_folder_from(root, docs_dir), name)
    refuse_existing(root, files)
    written = [] if (docs_dir / "docs.json").is_file() else write_starter(docs_dir, name)
    return written + write_new_files(root, files)
