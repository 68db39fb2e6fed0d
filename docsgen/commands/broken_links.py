"""`docsgen broken-links`: build the site in memory, then check every link and anchor of the emitted HTML."""

from __future__ import annotations

import json
import posixpath
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import click

from docsgen.build import render_site
from docsgen.commands.external_links import Finding, check_urls
from docsgen.common.errors import DocsgenError
from docsgen.common.urls import is_external
from docsgen.engine.write import Claimed, Content, SiteFiles, Written
from docsgen.site.link_resolver import LinkResolver
from docsgen.site.read import Site, read_site
from docsgen.site.url_targets import link_targets

# Link-like text in MDX sources: [x](href), <a href="...">, href={"..."}, src="...", [ref]: href
_SOURCE_LINK = re.compile(
    r"\]\(\s*<?([^)\s>]+)|\b(?:href|src)\s*=\s*\{?\s*[\"']([^\"']+)[\"']|^\s*\[[^\]]+\]:\s*<?(\S+?)>?\s*$",
    re.M,
)
_LINK_ATTRS = {("a", "href"), ("img", "src"), ("video", "src"), ("source", "src"), ("audio", "src")}
_SKIP_SCHEMES = ("mailto:", "tel:", "javascript:", "data:", "blob:")


@dataclass
class HtmlFacts:
    """What one emitted HTML file holds: its element ids and the links it makes."""

    ids: set[str] = field(default_factory=set)
    links: list[str] = field(default_factory=list)


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.facts = HtmlFacts()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is None:
                continue
            if name == "id" or (tag == "a" and name == "name"):
                self.facts.ids.add(value)
            elif (tag, name) in _LINK_ATTRS and value.strip():
                self.facts.links.append(value.strip())


def html_facts(html: str) -> HtmlFacts:
    """Return the ids and the links of an HTML document."""
    collector = _Collector()
    collector.feed(html)
    collector.close()
    return collector.facts


@dataclass
class Report:
    """The result of a check: findings plus what was looked at."""

    findings: list[Finding]
    pages: int
    links: int
    # url -> [(file, line, column)] of each place that links to it
    external: dict[str, list[tuple[str, int, int]]] = field(default_factory=dict)


def build_in_memory(docs_dir: Path) -> tuple[Site, SiteFiles]:
    """Read and render the site without writing anything (its default output folder is left out)."""
    site = read_site(docs_dir, docs_dir / "_site")
    return site, render_site(site)


def check_site(docs_dir: Path, *, anchors: bool = False) -> Report:
    """Check every internal link (and, with anchors, every #fragment) of the site built from docs_dir."""
    site, files = build_in_memory(docs_dir)
    locator = _Locator(site)
    findings: set[Finding] = set()
    for d in site.diagnostics:
        if d.code == "nav.missing-page":
            m = re.search(r"page '(.+?)' does not exist", d.message)
            value = m.group(1) if m else d.message
            message = f"broken link '{value}' (no page or file)"
            findings.add(Finding(d.path or "docs.json", d.line, d.column, message))
    html = {rel: html_facts(_text(content)) for rel, content in files.files.items() if rel.endswith(".html")}
    checked = 0
    external: dict[str, list[tuple[str, int, int]]] = {}
    for rel in sorted(html):
        owner = files.owners.get(rel, rel)
        for href in dict.fromkeys(html[rel].links):
            if href.lower().startswith(_SKIP_SCHEMES):
                continue
            if is_external(href):
                if href.startswith(("http://", "https://", "//")):
                    url = "https:" + href if href.startswith("//") else href
                    path, line, column, _ = locator.locate(owner, rel, href)
                    where = (path, line, column)
                    external.setdefault(url, [])
                    if where not in external[url]:
                        external[url].append(where)
                continue
            checked += 1
            problem = _problem(rel, href, files, html, anchors)
            if problem:
                path, line, column, written = locator.locate(owner, rel, href)
                if problem == "missing":
                    findings.add(Finding(path, line, column, f"broken link '{written}' (no page or file)"))
                else:
                    message = f"missing anchor '#{problem[1]}' on page {problem[0]}"
                    findings.add(Finding(path, line, column, message, "link.missing-anchor"))
    pages = sum(1 for rel in html if rel in files.owners and files.owners[rel] in locator.page_by_owner)
    return Report(sorted(findings), pages, checked, external)


def _text(content: Content) -> str:
    if isinstance(content, Claimed):  # not filled: a page that failed to render
        raise TypeError("a claimed page was never rendered")
    if isinstance(content, Written):  # search bundle files, in the output folder already: no HTML
        return ""
    return content.read().decode("utf-8", errors="replace")


def _problem(
    rel: str, href: str, files: SiteFiles, html: dict[str, HtmlFacts], anchors: bool
) -> str | tuple[str, str] | None:
    """Return None when the link works, "missing" when its target does not exist, or (page, anchor)."""
    parts = urlsplit(urljoin("http://site/" + rel, href))
    target = unquote(parts.path).lstrip("/")
    if not target or target.endswith("/"):
        target += "index.html"
    if target not in files.files:
        if target + "/index.html" in files.files:
            target += "/index.html"
        else:
            return "missing"
    fragment = unquote(parts.fragment)
    if not anchors or not fragment or not target.endswith(".html") or fragment.startswith(":~:"):
        return None
    facts = html.get(target)
    if facts is None or fragment in facts.ids or _is_redirect(files, target):
        return None
    page = target[: -len("index.html")] if target.endswith("index.html") else target
    return "/" + page, fragment


def _is_redirect(files: SiteFiles, target: str) -> bool:
    """Tell whether an output is a redirect page (its anchors live on the destination)."""
    return files.owners.get(target, "").startswith(("redirect ", "home redirect"))


class _Locator:
    """Find the source file and line that wrote a link seen in the emitted HTML."""

    def __init__(self, site: Site):
        self.site = site
        self.resolver = LinkResolver(site.docs_dir, site.pages, set(site.sources.static), link_targets(site))
        self.page_by_owner = {(p.source or p.key): p for p in site.pages.values()}
        self._sources: dict[str, list[tuple[int, int, str]]] = {}

    def candidates(self, rel: str) -> list[tuple[int, int, str]]:
        """Return [(line, column, href as written)] of a source file."""
        if rel not in self._sources:
            try:
                text = (self.site.docs_dir / rel).read_text(encoding="utf-8", errors="replace")
            except OSError:
                text = ""
            found = []
            for m in _SOURCE_LINK.finditer(text):
                href = next(g for g in m.groups() if g)
                start = m.start(m.lastindex or 0)
                found.append((text.count("\n", 0, start) + 1, start - text.rfind("\n", 0, start), href))
            self._sources[rel] = found
        return self._sources[rel]

    def locate(self, owner: str, output: str, href: str) -> tuple[str, int, int, str]:
        """Return (file, line, column, href as written) for a link of an output file; line 0 when unknown."""
        page = self.page_by_owner.get(owner)
        if page is not None and page.source:
            resolve = self.resolver.for_page(page, [])
            files = [page.source, *sorted(self.site.sources.snippets)]
            for rel in files:
                for line, column, written in self.candidates(rel):
                    if (
                        written == href
                        or _same(resolve(written), href)
                        or _same_target(written, href, output)
                    ):
                        return rel, line, column, written
            path, line, column, written = self._config_location(output, href)
            return (path, line, column, written) if line else (page.source, 0, 0, href)
        if page is not None:
            return f"{page.key} (generated page)", 0, 0, href
        return self._config_location(output, href)

    def _config_location(self, output: str, href: str) -> tuple[str, int, int, str]:
        """Find a navigation, navbar, footer or redirect link in the docs.json files."""
        for rel in self.site.config.files or ("docs.json",):
            try:
                lines = (self.site.docs_dir / rel).read_text(encoding="utf-8").splitlines()
            except OSError:
                continue
            for number, line in enumerate(lines, 1):
                for m in re.finditer(r'"([^"\s]+)"', line):
                    written = m.group(1)
                    if written.startswith(("/", ".")) and _same_target(written, href, output):
                        return rel, number, m.start() + 1, written  # the column of the opening quote
        return (self.site.config.files or ("docs.json",))[0], 0, 0, href


def _same(resolved: str, href: str) -> bool:
    return resolved == href


def _normal(path: str) -> str:
    """Reduce a link to a comparable site path: no fragment, query, ./ ../, leading/trailing / or suffix."""
    path = path.split("#")[0].split("?")[0]
    path = re.sub(r"(index)?\.html$|\.mdx?$", "", path)
    return unquote(path).strip("/")


def _same_target(written: str, href: str, output: str) -> bool:
    """Tell whether an href as written (site-absolute or relative) and an emitted href reach the same place."""
    if is_external(written):
        return False
    emitted = posixpath.normpath(posixpath.join(posixpath.dirname(output), href.split("#")[0]))
    if written.startswith("/"):
        same_path = _normal(written) == _normal(emitted.lstrip("./"))
    else:
        same_path = _normal(posixpath.basename(written.split("#")[0])) == _normal(posixpath.basename(emitted))
    return same_path and written.partition("#")[2] == href.partition("#")[2]


@click.command("broken-links")
@click.argument("docs_dir", default=".", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--check-anchors", is_flag=True, help="Also check #fragments against the ids of the target page."
)
@click.option("--check-external", is_flag=True, help="Also request external http(s) links (HEAD, then GET).")
@click.option("--timeout", default=10.0, show_default=True, help="Seconds per external request.")
@click.option("--max-time", default=120.0, show_default=True, help="Seconds for all external checks.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def broken_links(
    docs_dir: Path, check_anchors: bool, check_external: bool, timeout: float, max_time: float, fmt: str
) -> None:
    """Check internal links, anchors and (optionally) external links; exit 1 when any is broken."""

    if not docs_dir.is_dir():
        raise DocsgenError(f"docs folder '{docs_dir}' does not exist")
    report = check_site(docs_dir, anchors=check_anchors)
    findings = list(report.findings)
    notes: list[str] = []
    if check_external and report.external:
        results = check_urls(report.external, timeout=timeout, max_time=max_time)
        findings += results.findings
        notes += results.notes
    findings.sort()
    if fmt == "json":
        data = [
            {"path": f.path, "line": f.line, "column": f.column, "code": f.code, "message": f.message}
            for f in findings
        ]
        click.echo(json.dumps({"broken": data, "pages": report.pages, "links": report.links}, indent=2))
    else:
        for finding in findings:
            click.echo(finding.format())
    for note in notes:
        click.echo(note, err=True)
    summary = f"checked {report.links} internal link(s) in {report.pages} page(s)"
    if check_external:
        summary += f" and {len(report.external)} external URL(s)"
    click.echo(f"{len(findings)} broken link(s); {summary}", err=True)
    if findings:
        raise SystemExit(1)
