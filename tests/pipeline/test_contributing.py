"""CONTRIBUTING.md stays true: the modules it names exist, the page walk-through names at most eight of them, and
the habits it describes (pre-commit hooks, a per-test time limit) are set up."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]
GUIDE = (REPO / "CONTRIBUTING.md").read_text(encoding="utf-8")


def test_every_path_the_guide_names_exists():
    named = set(re.findall(r"`((?:docsgen|tests|themes|schemas|fixtures|docs)/[\w./-]+)`", GUIDE))
    assert len(named) > 20
    assert sorted(p for p in named if not (REPO / p).exists()) == []


def test_one_page_is_followed_through_at_most_eight_modules():
    section = GUIDE.split("## Follow one page from its file to its HTML", 1)[1].split("\n## ", 1)[0]
    steps = re.findall(r"^\d+\. `(docsgen/[\w/]+\.py)`", section, re.M)
    assert 1 < len(steps) <= 8
    assert steps[0] == "docsgen/build.py" and steps[-1] == "docsgen/engine/write.py"
    assert all((REPO / step).is_file() for step in steps)


def test_pre_commit_runs_ruff_and_mypy_from_the_venv():
    config = yaml.safe_load((REPO / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    entries = [hook["entry"] for repo in config["repos"] for hook in repo["hooks"]]
    assert any(e.startswith(".venv/bin/ruff check") for e in entries)
    assert any(e.startswith(".venv/bin/ruff format --check") for e in entries)
    assert ".venv/bin/mypy" in entries


def test_every_test_has_a_time_limit(request):
    assert request.config.pluginmanager.hasplugin("timeout")
    assert float(request.config.getini("timeout")) == 600
