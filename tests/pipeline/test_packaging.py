"""The artefacts users get: the wheel and sdist built once, the wheel installed into a fresh venv that cannot see
the checkout, and sites built and previewed from that install (themes, schemas, vendored JS, dashboard files)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import urllib.request
import zipfile
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.conftest import CORPUS, FIXTURES, REAL_SITES, REPO

PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def _outside_env() -> dict[str, str]:
    """The environment of a user's shell: nothing that points Python at the checkout or at the test venv."""
    drop = {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME", "PYTHONSTARTUP", "DOCSGEN_DEBUG"}
    return {k: v for k, v in os.environ.items() if k not in drop}


@pytest.fixture(scope="session")
def dist(tmp_path_factory) -> dict[str, Path]:
    """`python -m build` once a session: the sdist, and the wheel built from that sdist (so both are complete)."""
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(REPO)],
        check=True,
        capture_output=True,
        cwd=out,
        timeout=300,
    )
    (wheel,) = out.glob("*.whl")
    (sdist,) = out.glob("*.tar.gz")
    return {"wheel": wheel, "sdist": sdist}


@pytest.fixture(scope="session")
def venv(dist, tmp_path_factory) -> Path:
    """A fresh venv (no system or test-venv packages) with the wheel installed; dependencies from pip's cache."""
    root = tmp_path_factory.mktemp("user")
    env = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(env)], check=True, cwd=root, timeout=120)
    subprocess.run(
        [env / "bin/python", "-m", "pip", "install", "-q", str(dist["wheel"])],
        check=True,
        cwd=root,
        env=_outside_env(),
        timeout=900,
    )
    return env


def run_installed(venv: Path, *args: str, cwd: Path, timeout: int = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(venv / "bin/docsgen"), *args],
        cwd=cwd,
        env=_outside_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def source_files(folder: Path) -> set[str]:
    return {
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    }


def test_the_distribution_is_not_the_unrelated_docsgen():
    """`docsgen` on the package index is another project: ours is installed by another name, and says so."""
    assert PROJECT["name"] == "docsgen-sites"
    assert PROJECT["scripts"] == {"docsgen": "docsgen.cli:entry"}
    from docsgen.common.resources import DISTRIBUTION, install_command

    assert PROJECT["name"] == DISTRIBUTION
    assert install_command("server") == "pip install 'docsgen-sites[server]'"


def test_every_install_command_in_the_docs_names_the_distribution():
    """README, docs/ and the package's own messages: `pip install docsgen...` always means docsgen-sites."""
    wrong = []
    command = re.compile(r"pip install (?:-\S+ )*['\"]?(docsgen[\w.\-\[\],]*)")
    texts = [REPO / "README.md", *(REPO / "docs").rglob("*.md*"), *(REPO / "docs").rglob("*.yaml")]
    texts += [*(REPO / "docsgen").rglob("*.py"), *(REPO / "schemas").rglob("*.yaml")]
    for path in texts:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for name in command.findall(line):
                if not name.startswith("docsgen-sites"):
                    wrong.append(f"{path.relative_to(REPO)}:{n}: {line.strip()}")
    assert wrong == []


@pytest.mark.slow
def test_the_wheel_holds_every_module_theme_schema_and_static_file(dist):
    with zipfile.ZipFile(dist["wheel"]) as wheel:
        names = set(wheel.namelist())
        meta_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
        metadata = wheel.read(meta_name).decode()
        entry_points = wheel.read(meta_name.replace("METADATA", "entry_points.txt")).decode()
    assert "Name: docsgen-sites" in metadata and f"Version: {PROJECT['version']}" in metadata
    assert "docsgen = docsgen.cli:entry" in entry_points
    package = {
        f"docsgen/{n}" for n in source_files(REPO / "docsgen") if not n.startswith("mdx/react/vendor_src/")
    }
    themes = {f"docsgen/themes/{n}" for n in source_files(REPO / "themes")}
    schemas = {f"docsgen/schemas/{n}" for n in source_files(REPO / "schemas")}
    assert package - names == set() and themes - names == set() and schemas - names == set()
    dashboard = {
        f"docsgen/server/dashboard/static/{n}" for n in source_files(REPO / "docsgen/server/dashboard/static")
    }
    assert len(dashboard) >= 2 and dashboard <= names
    assert "docsgen/themes/base/static/vendor/react-ssr.min.js" in names and "docsgen/py.typed" in names
    with tarfile.open(dist["sdist"]) as sdist:
        top = {m.name.split("/", 1)[1] for m in sdist.getmembers() if "/" in m.name}
    assert {"pyproject.toml", "README.md", "CHANGELOG.md", "themes/base/templates/page.html"} <= top
    assert not any(part in n for n in top for part in (".venv", "__pycache__", ".hypothesis"))


@pytest.mark.slow
def test_the_installed_package_is_the_venvs_and_reports_its_version(venv, tmp_path):
    found = subprocess.run(
        [
            str(venv / "bin/python"),
            "-c",
            "import docsgen, docsgen.common.resources as r; print(docsgen.__file__);"
            "print(r.themes_dir()); print(r.schema_path())",
        ],  # fmt: skip
        cwd=tmp_path,
        env=_outside_env(),
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert all(Path(p).resolve().is_relative_to(venv.resolve()) for p in found), found
    assert Path(found[1], "base", "templates", "page.html").is_file() and Path(found[2]).is_file()
    done = run_installed(venv, "--version", cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.strip() == f"docsgen {PROJECT['version']} (docsgen-sites)"


def test_the_page_cache_fingerprint_reads_every_module_of_the_package(tmp_path, monkeypatch):
    """Since cachedir.py moved into docsgen/engine/, its own folder held a few of the package's modules: an edit
    anywhere else (an API page renderer) reused stale cached pages. An edit in any module changes it."""
    import shutil

    from docsgen.engine import cachedir

    assert cachedir.package_dir() == (REPO / "docsgen").resolve()
    copy = tmp_path / "docsgen"
    shutil.copytree(REPO / "docsgen", copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(cachedir, "package_dir", lambda: copy)
    before = cachedir.code_fingerprint.__wrapped__()
    for module in ("openapi/asyncapi_render.py", "build.py", "engine/write.py"):
        path = copy / module
        original = path.read_bytes()
        path.write_bytes(original + b"\n# edited\n")
        assert cachedir.code_fingerprint.__wrapped__() != before, module
        path.write_bytes(original)
    assert cachedir.code_fingerprint.__wrapped__() == before


@pytest.mark.slow
def test_the_installed_page_cache_notices_a_changed_theme(venv, tmp_path):
    """The page cache's code fingerprint covers the installed themes (docsgen/themes in the wheel), as a checkout's."""
    code = "from docsgen.engine.cachedir import code_fingerprint; print(code_fingerprint())"

    def fingerprint() -> str:
        return subprocess.run(
            [str(venv / "bin/python"), "-c", code], cwd=tmp_path, env=_outside_env(), capture_output=True,
            text=True, check=True,
        ).stdout.strip()  # fmt: skip

    before = fingerprint()
    themes = next((venv / "lib").glob("python3*/site-packages/docsgen/themes"))
    icons = next(p for p in sorted(themes.rglob("*.json")) if p.is_file())
    stat = icons.stat()
    os.utime(icons, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    try:
        assert fingerprint() != before
    finally:
        os.utime(icons, ns=(stat.st_atime_ns, stat.st_mtime_ns))


class _Assets(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        url = values.get("src") if tag == "script" else values.get("href") if tag == "link" else None
        if url and "://" not in url and not url.startswith(("#", "data:", "mailto:")):
            self.found.append(url.split("?")[0].split("#")[0])


def local_assets(page: Path) -> list[str]:
    """The stylesheets and scripts a built page loads from its own site (the theme's and vendored files)."""
    parser = _Assets()
    parser.feed(page.read_text(encoding="utf-8"))
    return [u for u in parser.found if u.endswith((".css", ".js"))]


def assert_site_complete(out: Path, pages: int = 40) -> None:
    """Every stylesheet and script that the first pages load (redirect pages aside) is in the built site."""
    checked = 0
    for page in sorted(out.rglob("index.html"))[:pages]:
        assets = local_assets(page)
        if not assets:  # a redirect page (a site whose home is another page)
            continue
        assert any(a.endswith(".css") for a in assets) and any(a.endswith(".js") for a in assets), assets
        missing = [a for a in assets if not (page.parent / a).resolve().is_file()]
        assert missing == [], (page, missing)
        checked += 1
    assert checked >= min(pages, 3)
    assert (out / "_static" / "site.css").stat().st_size > 1000


@pytest.mark.slow
def test_the_installed_wheel_builds_the_example_site(venv, tmp_path):
    docs = shutil.copytree(FIXTURES / "example", tmp_path / "example")
    done = run_installed(venv, "build", str(docs), "-o", str(tmp_path / "site"), "--strict", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert_site_complete(tmp_path / "site")
    assert (
        tmp_path / "site" / "pagefind" / "pagefind.js"
    ).is_file()  # the search index, from the pagefind dep


@pytest.mark.slow
def test_the_installed_wheel_builds_the_mintlify_docs_corpus(venv, tmp_path):
    docs = shutil.copytree(CORPUS, tmp_path / "mintlify-docs")
    done = run_installed(venv, "build", str(docs), "-o", str(tmp_path / "site"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert int(re.search(r"Built (\d+) pages", done.stdout).group(1)) > 200, done.stdout
    assert_site_complete(tmp_path / "site")


@pytest.mark.slow
@pytest.mark.shared
def test_the_installed_wheel_builds_a_real_site(venv, tmp_path):
    docs = shutil.copytree(REAL_SITES / "coinbase__x402", tmp_path / "x402")
    done = run_installed(venv, "build", str(docs), "-o", str(tmp_path / "site"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert_site_complete(tmp_path / "site")


@pytest.mark.slow
def test_dev_from_the_installed_wheel_serves_css_and_js(venv, tmp_path):
    """README step 1's install, then `docsgen dev`: every stylesheet and script of a page is served (was 404s
    when step 2 reinstalled docsgen editable into the same venv under a running server)."""
    docs = shutil.copytree(FIXTURES / "example", tmp_path / "example")
    proc = subprocess.Popen(
        [str(venv / "bin/docsgen"), "dev", str(docs), "--port", "0"],
        cwd=tmp_path,
        env={**_outside_env(), "PYTHONUNBUFFERED": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        lines = []
        for line in proc.stdout:  # type: ignore[union-attr]
            lines.append(line)
            if line.startswith("Serving "):
                break
        assert lines and lines[-1].startswith("Serving "), "".join(lines)
        base = lines[-1].split(" at ")[1].split()[0].rstrip("/")
        with urllib.request.urlopen(base + "/quickstart/", timeout=60) as response:
            html = response.read().decode()
        parser = _Assets()
        parser.feed(html)
        urls = [u for u in parser.found if u.endswith((".css", ".js"))]
        assert any(u.endswith(".css") for u in urls) and any(u.endswith(".js") for u in urls), urls
        for url in urls:
            absolute = urllib.request.urljoin(base + "/quickstart/", url)
            with urllib.request.urlopen(absolute, timeout=60) as response:
                assert response.status == 200 and response.read(), absolute
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_the_version_comes_from_the_metadata_else_from_the_checkout(monkeypatch):
    from importlib import metadata

    from docsgen.common import resources

    resources.version.cache_clear()
    assert resources.version() == metadata.version("docsgen-sites") == PROJECT["version"]

    def not_installed(name: str) -> str:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", not_installed)  # imported by version() when it is asked
    resources.version.cache_clear()
    try:
        assert resources.version() == f"{PROJECT['version']}+checkout"
    finally:
        resources.version.cache_clear()
