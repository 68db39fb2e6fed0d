"""`docsgen a11y`: accessibility checks of a docs folder, before building.

Checks the docs.json colours against the light and dark backgrounds (WCAG AA: 4.5:1 for text, and white text
on accent buttons), and images and videos without a text alternative in MDX/Markdown pages, each located.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import click

from docsgen.common import contrast
from docsgen.common.errors import Diagnostic, DocsgenError, warning
from docsgen.config import load_config
from docsgen.config.analytics import where_in_config
from docsgen.config.model import SiteConfig

MAX_FILE_BYTES = 2_000_000  # larger pages are skipped with a note: the scan stays bounded
_SKIPPED_DIRS = {"node_modules", "_site", ".git"}
_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")
_INLINE_CODE = re.compile(r"`[^`\n]*`")
_MD_IMAGE = re.compile(r"!\[([^\]\n]*)\]\(([^)\s\n]+)")
_TAG = re.compile(r"<(img|Image|video)\b((?:[^<>\"'{}]|\"[^\"]*\"|'[^']*'|\{[^{}]*\})*?)/?>", re.S)
_ATTR = re.compile(
    r"""\b(alt|aria-label|title|aria-labelledby)\s*=\s*("([^"]*)"|'([^']*)'|\{([^{}]*)\})""", re.S
)
_HIDDEN = re.compile(
    r"""\baria-hidden\s*=\s*(["']true["']|\{true\})|\brole\s*=\s*["'](presentation|none)["']"""
)


def color_findings(config: SiteConfig) -> list[Diagnostic]:
    """Return warnings for docs.json colours that read poorly as text or under white button text."""
    out: list[Diagnostic] = []
    colors = config.colors
    background = found if isinstance(found := config.raw.get("background"), dict) else {}
    own = found if isinstance(found := background.get("color"), dict) else {}
    primary = colors.get("primary")
    checks = [
        ("primary", primary, "light", own.get("light") or "#ffffff"),
        ("light", colors.get("light") or primary, "dark", own.get("dark") or contrast.DARK_BACKGROUNDS[0]),
    ]
    for key, value, mode, bg in checks:
        rgb, bg_rgb = contrast.parse_color(value), contrast.parse_color(bg)
        if rgb is None or bg_rgb is None:
            continue
        source = key if key in colors else "primary"
        file, line, col = where_in_config(config, ("colors", source))
        text_ratio = contrast.ratio(rgb, bg_rgb)
        if text_ratio < contrast.TEXT_CONTRAST:
            out.append(
                warning(
                    "a11y.contrast",
                    f"colors.{source} {value} has a contrast of {text_ratio:.2f}:1 against the {mode} background "
                    f"{bg}, expected at least {contrast.TEXT_CONTRAST}:1 for text (WCAG AA); docsgen shows links "
                    f"in a {'lighter' if mode == 'dark' else 'darker'} shade of it in {mode} mode",
                    file,
                    line,
                    col,
                    json_path=f"colors.{source}",
                    hint=f"pick a colour that reads on {bg}"
                    + ("" if key == "light" else ", or set colors.light for dark mode"),
                )
            )
        button_ratio = contrast.ratio(rgb, (255.0, 255.0, 255.0))
        # Dark mode: an accent light enough to read on near-black cannot carry white text; not reported.
        if button_ratio < contrast.TEXT_CONTRAST and key == "primary":
            out.append(
                warning(
                    "a11y.contrast-button",
                    f"white text on colors.{source} {value} ({mode} mode banner and buttons) has a contrast of "
                    f"{button_ratio:.2f}:1, expected at least {contrast.TEXT_CONTRAST}:1; docsgen darkens the "
                    "button background",
                    file,
                    line,
                    col,
                    json_path=f"colors.{source}",
                )
            )
    return out


def _position(text: str, offset: int) -> tuple[int, int]:
    """Return the 1-based (line, column) of an offset."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _blank_code(text: str) -> str:
    """Replace fenced code blocks and inline code by spaces (same offsets): examples are not content."""
    lines = text.split("\n")
    fence = ""
    for i, line in enumerate(lines):
        match = _FENCE.match(line)
        if fence:
            if match and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence):
                fence = ""
            lines[i] = " " * len(line)
        elif match:
            fence = match.group(1)
            lines[i] = " " * len(line)
        else:
            lines[i] = _INLINE_CODE.sub(lambda m: " " * len(m[0]), line)
    return "\n".join(lines)


def _has_text_alternative(attrs: str) -> bool:
    """Tell whether a tag's attributes give it a non-empty text alternative, or mark it decorative."""
    if _HIDDEN.search(attrs):
        return True
    for match in _ATTR.finditer(attrs):
        value = next((g for g in match.groups()[2:] if g is not None), "")
        if value.strip().strip("\"'`").strip():
            return True
    return False


def media_findings(rel: str, text: str) -> list[Diagnostic]:
    """Return warnings for images and videos of one page without alt text (or another text alternative)."""
    out: list[Diagnostic] = []
    scan = _blank_code(text)
    for match in _MD_IMAGE.finditer(scan):
        if not match.group(1).strip():
            line, col = _position(text, match.start())
            out.append(
                warning(
                    "a11y.image-alt",
                    f"image '{match.group(2)[:120]}' has no alt text: found ![](...), expected ![description](...)",
                    rel,
                    line,
                    col,
                    hint="describe what the image shows, for screen readers and when it cannot load",
                )
            )
    for match in _TAG.finditer(scan):
        tag, attrs = match.group(1), match.group(2)
        if _has_text_alternative(attrs):
            continue
        line, col = _position(text, match.start())
        kind = "video" if tag == "video" else "image"
        expected = 'aria-label="..." or title="..."' if kind == "video" else 'alt="..."'
        out.append(
            warning(
                f"a11y.{kind}-alt",
                f"<{tag}> has no text alternative: expected {expected}",
                rel,
                line,
                col,
                hint='decorative images can say so with alt="" plus aria-hidden="true"',
            )
        )
    return out


def page_files(docs_dir: Path) -> list[Path]:
    """Return the MDX and Markdown files of the docs folder (inside it only; dependency folders skipped)."""
    root = docs_dir.resolve()
    files = []
    for path in sorted(root.rglob("*")):
        rel_parts = path.relative_to(root).parts
        if path.suffix.lower() not in (".mdx", ".md") or any(
            p in _SKIPPED_DIRS or p.startswith(".") for p in rel_parts
        ):
            continue
        try:
            if not path.is_file() or not path.resolve().is_relative_to(root):
                continue
        except OSError:
            continue
        files.append(path)
    return files


def check(docs_dir: Path) -> tuple[list[Diagnostic], int]:
    """Return (findings, number of pages checked) for a docs folder; DocsgenError when docs.json is unusable."""
    config, diagnostics = load_config(docs_dir)
    if config is None:
        raise DocsgenError(diagnostics)
    findings = color_findings(config)
    files = page_files(docs_dir)
    root = docs_dir.resolve()
    for path in files:
        rel = path.relative_to(root).as_posix()
        try:
            if path.stat().st_size > MAX_FILE_BYTES:
                findings.append(
                    warning("a11y.skipped", f"page is over {MAX_FILE_BYTES} bytes: not checked", rel)
                )
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            findings.append(warning("a11y.unreadable", f"cannot read the page: {exc.strerror or exc}", rel))
            continue
        findings.extend(media_findings(rel, text))
    return findings, len(files)


@click.command("a11y")
@click.argument("docs_dir", default=".", type=click.Path(file_okay=False, path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def a11y(docs_dir: Path, fmt: str) -> None:
    """Check colour contrast of docs.json colours and text alternatives of images and videos; exit 1 on findings."""
    if not docs_dir.is_dir():
        raise DocsgenError(f"docs folder '{docs_dir}' does not exist")
    findings, pages = check(docs_dir)
    if fmt == "json":
        click.echo(json.dumps({"findings": [f.to_json() for f in findings], "pages": pages}, indent=2))
    else:
        for finding in findings:
            click.echo(finding.format())
    click.echo(f"{len(findings)} accessibility finding(s) in docs.json and {pages} page(s)", err=True)
    if findings:
        raise SystemExit(1)
