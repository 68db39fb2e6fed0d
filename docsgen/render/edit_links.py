""" "Edit this page" and "Report an issue" links (docs.json `feedback.suggestEdit` / `feedback.raiseIssue`, also
kept from mint.json): the repository comes from `feedback.repository` in docs.json, else the docs folder's git
remote `origin`; GitHub, GitLab (self-hosted too) and Bitbucket URL shapes.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlencode, urlsplit

GIT_TIMEOUT = 5.0
_SCP = re.compile(r"^(?:[\w.+-]+@)?([\w.-]+):(?!//)(.+)$")  # git@github.com:owner/repo.git


@dataclass(frozen=True)
class Repository:
    """Where the docs' sources live: host kind, web root (https://host/owner/repo), branch, docs folder in it."""

    kind: str  # "github" | "gitlab" | "bitbucket"
    web: str
    branch: str
    folder: str  # the docs folder's path inside the repository ("" at its root)

    def edit_url(self, source: str) -> str:
        path = quote(f"{self.folder}/{source}" if self.folder else source)
        branch = quote(self.branch, safe="")
        if self.kind == "gitlab":
            return f"{self.web}/-/edit/{branch}/{path}"
        if self.kind == "bitbucket":
            return f"{self.web}/src/{branch}/{path}?mode=edit"
        return f"{self.web}/edit/{branch}/{path}"

    def issue_url(self, title: str, body: str) -> str:
        if self.kind == "gitlab":
            return f"{self.web}/-/issues/new?" + urlencode(
                {"issue[title]": title, "issue[description]": body}
            )
        if self.kind == "bitbucket":
            return f"{self.web}/issues/new?" + urlencode({"title": title, "content": body})
        return f"{self.web}/issues/new?" + urlencode({"title": title, "body": body})


def parse_remote(url: str) -> tuple[str, str] | None:
    """Return (kind, https web root) of a git remote or repository URL, credentials dropped; None when the host
    is not recognisably GitHub, GitLab or Bitbucket."""
    url = url.strip()
    scp = _SCP.match(url) if "://" not in url else None
    if scp:
        host, path = scp.group(1), scp.group(2)
    else:
        parts = urlsplit(url)
        if parts.scheme not in ("https", "http", "ssh", "git") or not parts.hostname:
            return None
        host, path = parts.hostname, parts.path
    path = path.strip("/").removesuffix(".git").strip("/")
    if path.count("/") < 1 or any(p in ("", ".", "..") for p in path.split("/")):
        return None
    host = host.lower()
    if not re.fullmatch(r"[a-z0-9.-]+", host):
        return None
    kind = next((k for k in ("github", "gitlab", "bitbucket") if k in host), None)
    if kind is None:
        return None
    return kind, f"https://{host}/{quote(path)}"


def _git(folder: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(
            ["git", "-C", str(folder), *args],
            capture_output=True,
            text=True,
            timeout=GIT_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def find_repository(docs_dir: Path, feedback: dict) -> Repository | None:
    """Return the repository of the docs: docs.json `feedback.repository` (+ `branch`, `folder`), else git."""
    configured = feedback.get("repository")
    folder = feedback.get("folder") if isinstance(feedback.get("folder"), str) else None
    branch = feedback.get("branch") if isinstance(feedback.get("branch"), str) else None
    remote = configured if isinstance(configured, str) else None
    if remote is None or branch is None or folder is None:
        inside = _git(docs_dir, "rev-parse", "--is-inside-work-tree") == "true"
        if inside:
            remote = remote or _git(docs_dir, "remote", "get-url", "origin")
            if folder is None:
                folder = (_git(docs_dir, "rev-parse", "--show-prefix") or "").strip("/")
            if branch is None:
                branch = _git(docs_dir, "symbolic-ref", "--quiet", "--short", "HEAD")
                if branch is None:  # a detached checkout (CI): the remote's default branch
                    head = _git(docs_dir, "rev-parse", "--abbrev-ref", "origin/HEAD") or ""
                    branch = head.removeprefix("origin/") or None
    parsed = parse_remote(remote) if remote else None
    if parsed is None:
        return None
    return Repository(parsed[0], parsed[1], branch or "main", (folder or "").strip("/"))
