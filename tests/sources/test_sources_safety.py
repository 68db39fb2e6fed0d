"""The docs folder is read safely: only regular files inside it, no secrets, every output inside the output folder.

Each case runs the real CLI in a subprocess with a deadline, so a hang (a FIFO, /dev/zero) fails the test instead
of the suite, and a traceback or a signal shows in the exit code and output.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from docsgen.engine.write import OutputFolder, SiteFiles, UnsafeOutputPath, safe_output_path

BASE = {"theme": "mint", "name": "X", "colors": {"primary": "#112233"}}


def docsgen(*args: str | Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run the docsgen CLI as a user would; fail the test (not hang) past the deadline."""
    return subprocess.run(
        [sys.executable, "-m", "docsgen", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "DOCSGEN_CACHE": "0"},
    )


def make(root: Path, pages: list[str], files: dict[str, str]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "docs.json").write_text(json.dumps({**BASE, "navigation": {"pages": pages}}), encoding="utf-8")
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def all_output_text(out: Path) -> str:
    return "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in out.rglob("*") if p.is_file())


def assert_clean(result: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in result.stderr + result.stdout, result.stderr
    assert result.returncode in (0, 1), (result.returncode, result.stderr)


def test_links_outside_the_docs_folder_and_special_files_are_never_read(tmp_path):
    secret = tmp_path / "outside" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text("TOP-SECRET-OUTSIDE root:x:0:0\n", encoding="utf-8")
    site = make(tmp_path / "docs", ["index"], {"index.mdx": "# Home\n\nHello.\n"})
    (site / "leak.mdx").symlink_to(secret)
    (site / "leak.txt").symlink_to(secret)
    (site / "passwd.mdx").symlink_to("/etc/passwd")
    (site / "random.mdx").symlink_to("/dev/urandom")
    (site / "zero.bin").symlink_to("/dev/zero")
    (site / "outside-folder").symlink_to(secret.parent, target_is_directory=True)
    os.mkfifo(site / "fifo.mdx")
    out = tmp_path / "out"

    result = docsgen("build", site, "-o", out, timeout=60)

    assert_clean(result)
    assert result.returncode == 0, result.stderr
    text = all_output_text(out)
    assert "TOP-SECRET-OUTSIDE" not in text and "root:x:0:0" not in text
    assert sum(p.stat().st_size for p in out.rglob("*") if p.is_file()) < 20_000_000
    for name, code in [
        ("leak.mdx", "sources.outside"),
        ("leak.txt", "sources.outside"),
        ("passwd.mdx", "sources.outside"),
        ("random.mdx", "sources.outside"),
        ("zero.bin", "sources.outside"),
        ("outside-folder", "sources.outside"),
        ("fifo.mdx", "sources.not-regular"),
    ]:
        assert any(name in line and f"[{code}]" in line for line in result.stderr.splitlines()), (name, code)
    # --strict turns them into errors, still without a traceback, and validate does not hang either
    strict = docsgen("build", site, "-o", tmp_path / "strict", "--strict", timeout=60)
    assert_clean(strict)
    assert strict.returncode == 1 and "sources.outside" in strict.stderr
    assert_clean(docsgen("validate", site, timeout=60))


def test_broken_links_and_loops_are_warnings_and_inside_links_are_followed(tmp_path):
    site = make(
        tmp_path / "docs",
        ["index", "alias", "shared/page"],
        {"index.mdx": "# Home\n", "real.mdx": "# Real\n\nLinked words.\n"},
    )
    (site / "dangling.mdx").symlink_to(site / "does-not-exist.mdx")
    (site / "a.mdx").symlink_to(site / "b.mdx")
    (site / "b.mdx").symlink_to(site / "a.mdx")
    (site / "alias.mdx").symlink_to(site / "real.mdx")
    (site / "folder").mkdir()
    (site / "folder" / "page.mdx").write_text("# Folder page\n", encoding="utf-8")
    (site / "shared").symlink_to(site / "folder", target_is_directory=True)
    (site / "folder" / "loop").symlink_to(site, target_is_directory=True)
    out = tmp_path / "out"

    result = docsgen("build", site, "-o", out)

    assert_clean(result)
    assert result.returncode == 0, result.stderr
    assert "dangling.mdx" in result.stderr and "[sources.unreadable]" in result.stderr
    assert "a.mdx" in result.stderr and "b.mdx" in result.stderr
    assert "folder/loop" in result.stderr and "[sources.link-loop]" in result.stderr
    assert "Linked words." in (out / "alias" / "index.html").read_text(encoding="utf-8")
    assert "Folder page" in (out / "shared" / "page" / "index.html").read_text(encoding="utf-8")


def test_secret_looking_files_are_not_published_unless_listed(tmp_path):
    files = {
        "index.mdx": "# Home\n",
        "id_rsa": "-----BEGIN OPENSSH PRIVATE KEY-----\n",
        "certs/server.pem": "-----BEGIN PRIVATE KEY-----\n",
        "feedback.sqlite3": "SQLite format 3",
        "dump.sql": "INSERT INTO users VALUES ('admin', 'hash');",
        "old.bak": "backup",
        "production.env": "API_KEY=abc",
        "schema.sql": "CREATE TABLE documented (id int);",
    }
    site = make(tmp_path / "docs", ["index"], files)
    (site / ".docsgenignore").write_text("# publish the documented schema\n!schema.sql\n", encoding="utf-8")
    out = tmp_path / "out"

    result = docsgen("build", site, "-o", out)

    assert result.returncode == 0, result.stderr
    published = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    for rel in ("id_rsa", "certs/server.pem", "feedback.sqlite3", "dump.sql", "old.bak", "production.env"):
        assert rel not in published
        assert f"{rel}: warning:" in result.stderr and "[sources.secret]" in result.stderr
    assert "schema.sql" in published and "schema.sql: warning" not in result.stderr


def test_folders_named_build_or_dist_are_content(tmp_path):
    site = make(
        tmp_path / "docs",
        ["index", "guides/build/chatbot", "dist/notes"],
        {
            "index.mdx": "# Home\n\n[Chatbot](/guides/build/chatbot)\n",
            "guides/build/chatbot.mdx": "# Chatbot\n\nBuild one.\n",
            "dist/notes.mdx": "# Notes\n",
        },
    )
    out = site / "build"  # the output folder itself (and only it) is left out
    first = docsgen("build", site, "-o", out)
    second = docsgen("build", site, "-o", out)
    assert first.returncode == 0 and second.returncode == 0, second.stderr
    assert "Build one." in (out / "guides/build/chatbot/index.html").read_text(encoding="utf-8")
    assert (out / "dist/notes/index.html").is_file()
    assert not (out / "build").exists()  # the previous output was not read back as pages
    assert "link.broken" not in second.stderr


def test_a_static_404_page_next_to_404_mdx_builds_with_a_warning(tmp_path):
    site = make(
        tmp_path / "docs",
        ["index"],
        {"index.mdx": "# Home\n", "404.mdx": "# Lost\n", "404.html": "<html><body>OUR OWN 404</body></html>"},
    )
    out = tmp_path / "out"
    result = docsgen("build", site, "-o", out)
    assert result.returncode == 0, result.stderr
    assert "OUR OWN 404" in (out / "404.html").read_text(encoding="utf-8")
    assert "[write.path-taken]" in result.stderr and "404" in result.stderr
    assert docsgen("build", site, "-o", tmp_path / "strict", "--strict").returncode == 1


def test_a_redirect_over_a_markdown_twin_keeps_the_twin_with_a_warning(tmp_path):
    site = make(
        tmp_path / "docs",
        ["index", "development"],
        {"index.mdx": "# Home\n", "development.md": "# Dev\n\nSteps.\n"},
    )
    config = json.loads((site / "docs.json").read_text(encoding="utf-8"))
    config["redirects"] = [{"source": "/development.md", "destination": "/development"}]
    (site / "docs.json").write_text(json.dumps(config), encoding="utf-8")
    out = tmp_path / "out"
    result = docsgen("build", site, "-o", out)
    assert_clean(result)
    assert result.returncode == 0, result.stderr
    assert "Steps." in (out / "development.md").read_text(encoding="utf-8")
    assert "[write.path-taken]" in result.stderr


@pytest.mark.parametrize(
    "path", ["../x", "a/../../x", "/etc/x", "a//b", "./a", "a/./b", "a\\..\\b", "a\x00b", "", "a/.."]
)
def test_output_paths_outside_the_output_folder_are_refused(tmp_path, path):
    with pytest.raises(UnsafeOutputPath):
        safe_output_path(path)
    files = SiteFiles()
    assert files.add(path, "x", "test") is False
    assert [d.code for d in files.diagnostics] == ["write.outside-output"]
    with OutputFolder(tmp_path / "out") as folder, pytest.raises(UnsafeOutputPath):
        folder.write_text(path, "x")
    assert not (tmp_path / "x").exists()


def test_a_file_where_a_folder_is_needed_is_a_clash(tmp_path):
    files = SiteFiles()
    assert files.add("a.md", "twin", "page a")
    assert not files.add("a.md/index.html", "redirect", "redirect /a.md", on_clash="keep")
    assert not files.add("a.md/x/y.html", "deeper", "other")
    assert files.add("b/c.html", "x", "one")
    assert not files.add("b", "file named like a folder", "two", on_clash="keep")
    codes = [d.code for d in files.diagnostics]
    assert codes == ["write.path-taken", "write.duplicate-output", "write.path-taken"]
    assert "a.md/index.html needs a folder a.md" in files.diagnostics[0].message
    with OutputFolder(tmp_path / "out") as folder:
        folder.write(files)
        folder.commit()
    assert (tmp_path / "out/a.md").read_text() == "twin"


def test_a_redirect_source_climbing_out_writes_nothing_outside(tmp_path):
    site = make(tmp_path / "docs", ["index"], {"index.mdx": "# Home\n"})
    config = json.loads((site / "docs.json").read_text(encoding="utf-8"))
    config["redirects"] = [{"source": "/../../escaped/owned", "destination": "/index"}]
    (site / "docs.json").write_text(json.dumps(config), encoding="utf-8")
    result = docsgen("build", site, "-o", tmp_path / "deep" / "out")
    assert_clean(result)
    assert not (tmp_path / "escaped").exists() and not (tmp_path / "deep" / "escaped").exists()
    assert result.returncode == 1 and "owned" in result.stderr
