"""`docsgen init --ci KIND`: each CI file parses, installs docsgen-sites, and its build command, run here, builds
the site with --strict into the folder the file publishes. Never overwrites, never writes through a link."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from docsgen.cli import main
from docsgen.common.resources import version

KINDS = {
    "github-pages": ".github/workflows/docs.yml",
    "gitlab-pages": ".gitlab-ci.yml",
    "netlify": "netlify.toml",
    "cloudflare": ".github/workflows/docs-cloudflare.yml",
}


def init(repo: Path, *args: str):
    old = Path.cwd()
    os.chdir(repo)
    try:
        return CliRunner().invoke(main, ["init", *args])
    finally:
        os.chdir(old)


def commands_and_publish(kind: str, path: Path) -> tuple[list[str], str]:
    """Return the shell commands a CI service would run, and the folder it publishes."""
    text = path.read_text(encoding="utf-8")
    if kind == "netlify":
        build = tomllib.loads(text)["build"]
        return [build["command"]], build["publish"]
    data = yaml.safe_load(text)
    if kind == "gitlab-pages":
        job = data["pages"]
        assert job["variables"]["GIT_DEPTH"] == "0" and job["rules"]
        return job["script"], job["artifacts"]["paths"][0]
    steps = data["jobs"]["deploy"]["steps"]
    assert data[True]["push"]["branches"] == ["main"]  # YAML 1.1 reads the key `on` as true
    assert steps[0]["uses"].startswith("actions/checkout@") and steps[0]["with"]["fetch-depth"] == 0
    runs = [step["run"] for step in steps if "run" in step]
    if kind == "github-pages":
        upload = next(s for s in steps if s.get("uses", "").startswith("actions/upload-pages-artifact@"))
        assert any(s.get("uses", "").startswith("actions/deploy-pages@") for s in steps)
        assert data["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}
        return runs, upload["with"]["path"]
    deploy = next(s for s in steps if s.get("uses", "").startswith("cloudflare/wrangler-action@"))
    assert deploy["with"]["apiToken"] == "${{ secrets.CLOUDFLARE_API_TOKEN }}"
    command = deploy["with"]["command"].split()
    assert command[:2] == ["pages", "deploy"] and command[3] == "--project-name=my-docs"
    return runs, command[2]


@pytest.mark.parametrize("kind", KINDS)
def test_the_ci_file_installs_docsgen_sites_builds_strict_and_publishes_the_build(tmp_path, kind):
    repo = tmp_path / "repo"
    repo.mkdir()
    result = init(repo, "-o", "docs", "--ci", kind)
    assert result.exit_code == 0, result.output
    ci_file = repo / KINDS[kind]
    assert f"created {Path(KINDS[kind])}" in result.output and (repo / "docs" / "docs.json").is_file()
    commands, publish = commands_and_publish(kind, ci_file)
    shell = " && ".join(commands)
    installs = re.findall(r"pip install '([^']+)'", shell)
    major_minor = ".".join(version().split(".")[:2])
    assert installs == [f"docsgen-sites=={major_minor}.*"]
    builds = [part.strip() for part in shell.split("&&") if part.strip().startswith("docsgen build")]
    assert len(builds) == 1 and "--strict" in builds[0].split()
    # Run the build as the CI service would, from the repository root, with this docsgen on PATH.
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    done = subprocess.run(["bash", "-c", builds[0]], cwd=repo, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (repo / publish / "index.html").is_file() and (repo / publish / "404.html").is_file()
    assert (repo / publish / "_static" / "site.css").is_file()


def test_an_existing_site_gets_only_the_ci_file(tmp_path):
    repo = tmp_path / "repo"
    (repo / "site").mkdir(parents=True)
    (repo / "site" / "docs.json").write_text("{}", encoding="utf-8")
    result = init(repo, "-o", "site", "--ci", "netlify")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (repo / "site").iterdir()) == ["docs.json"]
    assert "docsgen build site --strict -o site/_site" in (repo / "netlify.toml").read_text(encoding="utf-8")


def test_an_existing_ci_file_is_never_overwritten_and_nothing_is_written(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / ".gitlab-ci.yml").write_text("mine\n", encoding="utf-8")
    result = init(repo, "-o", "docs", "--ci", "gitlab-pages")
    assert result.exit_code == 1 and ".gitlab-ci.yml already exists" in result.output
    assert (repo / ".gitlab-ci.yml").read_text(encoding="utf-8") == "mine\n"
    assert not (repo / "docs").exists()  # all or nothing: the starter was not written either


def test_never_writes_through_a_symbolic_link(tmp_path):
    repo, elsewhere = tmp_path / "repo", tmp_path / "elsewhere"
    repo.mkdir()
    elsewhere.mkdir()
    (repo / ".github").symlink_to(elsewhere, target_is_directory=True)
    result = init(repo, "-o", "docs", "--ci", "github-pages")
    assert (
        result.exit_code == 1
        and ".github is a symbolic link; docsgen never writes through a link" in result.output
    )
    assert list(elsewhere.iterdir()) == []
    (repo / "netlify.toml").symlink_to(elsewhere / "netlify.toml")  # a dangling link: refused, not followed
    result = init(repo, "-o", "docs2", "--ci", "netlify")
    assert result.exit_code == 1 and "netlify.toml is a symbolic link" in result.output
    assert list(elsewhere.iterdir()) == []


def test_a_docs_folder_outside_the_repository_is_refused(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    result = init(repo, "-o", str(tmp_path / "other"), "--ci", "netlify")
    assert result.exit_code == 1 and "outside the working directory" in result.output
    assert not (tmp_path / "other").exists() and not (repo / "netlify.toml").exists()
