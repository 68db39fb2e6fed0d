"""docsgen openapi scaffold: one MDX page per operation with `openapi:` frontmatter, plus the navigation to paste."""

from __future__ import annotations

import json
from pathlib import Path

import click

from docsgen.common.errors import DocsgenError, error
from docsgen.common.newfile import blocked, create_file
from docsgen.openapi.spec import Spec
from docsgen.openapi.store import SpecStore, is_url
from docsgen.openapi.urls import slugify


def scaffold_pages(
    spec: Spec, spec_ref: str, out_dir: Path, docs_dir: Path | None = None
) -> tuple[list[Path], dict]:
    """Write the pages (refusing to overwrite) and return them with the navigation group to paste.

    Navigation entries are page paths relative to docs_dir (the folder holding docs.json; default out_dir).
    """
    docs_dir = (docs_dir or out_dir).resolve()
    planned: dict[Path, str] = {}
    groups: dict[str, list[str]] = {}
    for op in spec.operations():
        if op.hidden or op.excluded:
            continue
        tag = op.tags[0] if op.tags else "Endpoints"
        name = _file_slug(op.summary or op.operation_id or f"{op.method} {op.path}")
        rel = Path(_file_slug(tag)) / f"{name}.mdx"
        n = 2
        while out_dir / rel in planned:
            rel, n = Path(_file_slug(tag)) / f"{name}-{n}.mdx", n + 1
        title = op.summary or f"{op.method} {op.path}"
        planned[out_dir / rel] = (
            f"---\ntitle: {json.dumps(title)}\nopenapi: {json.dumps(f'{spec_ref} {op.method} {op.path}')}\n---\n"
        )
        groups.setdefault(tag, []).append(_key((out_dir / rel).resolve(), docs_dir))
    clashes = [(p, why) for p in planned if (why := blocked(out_dir, p))]
    if clashes:
        raise DocsgenError(
            [error("scaffold.exists", f"{why}; scaffold never overwrites", str(p)) for p, why in clashes]
        )
    for path, text in planned.items():
        try:
            create_file(out_dir, path, text)
        except OSError as exc:  # planted after the check
            raise DocsgenError([error("scaffold.exists", f"not written: {exc}", str(path))]) from None
    nav = {
        "group": spec.data.get("info", {}).get("title") or "API reference",
        "pages": [{"group": t, "pages": p} for t, p in groups.items()],
    }
    return list(planned), nav


def _file_slug(text: str) -> str:
    """A slug short enough for a file name (at most 120 bytes of UTF-8: a 400-character summary is not)."""
    return slugify(text).encode("utf-8")[:120].decode("utf-8", "ignore").strip("-") or "endpoint"


@click.group("openapi")
def openapi() -> None:
    """Work with OpenAPI specs."""


@openapi.command("scaffold")
@click.argument("spec")
@click.option(
    "-o",
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=".",
    help="Folder for the pages [default: the working directory].",
)
@click.option(
    "--docs",
    "docs_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="The docs folder (holding docs.json) the paths are written relative to [default: the working directory].",
)
def scaffold(spec: str, out_dir: Path, docs_dir: Path | None) -> None:
    """Write one MDX page per operation of SPEC (a file or an http(s) URL) and print the navigation entries."""
    docs_dir = docs_dir or Path.cwd()
    if is_url(spec):
        loaded, diagnostics = SpecStore(Path.cwd()).load(spec)
        spec_ref = spec
    else:
        path = Path(spec).resolve()
        loaded, diagnostics = SpecStore(path.parent).load(path.name)
        spec_ref = _spec_ref(path, docs_dir)
    if loaded is None:
        raise DocsgenError(diagnostics or [error("scaffold.spec", f"cannot read {spec}")])
    written, nav = scaffold_pages(loaded, spec_ref, out_dir, docs_dir)
    for path in written:
        click.echo(f"created {path}", err=True)
    click.echo(json.dumps(nav, indent=2, ensure_ascii=False))


def _spec_ref(spec: Path, docs_dir: Path) -> str:
    """Name the spec as pages do: its path in the docs folder, else its file name (copy it to the docs root)."""
    try:
        return spec.relative_to(docs_dir.resolve()).as_posix()
    except ValueError:
        return spec.name


def _key(page: Path, docs_dir: Path) -> str:
    """Return a page's navigation entry: its path in the docs folder without the extension."""
    try:
        return page.relative_to(docs_dir).with_suffix("").as_posix()
    except ValueError:
        return page.with_suffix("").as_posix()
