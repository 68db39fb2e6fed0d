"""Write bench/RESULTS.md, keeping the other cases' results when bench/run.py runs only some cases.

write() puts each case's sections after a marker line `<!-- case: NAME; PROVENANCE -->` (when and where the
case ran) and a `case` column in the targets table. A run of some cases replaces those cases' sections and
target rows and keeps every other case's from the file it overwrites, each with its own provenance, listed in a
"Runs" table so a reader knows which figures were measured together.
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

MARKER = re.compile(r"^<!-- case: (\w+); (.*?) -->$", re.M)
TARGETS = "\n## Targets"
CASES = "\n## Cases\n"


def marker(case: str, provenance: str) -> str:
    """Return the line that opens a case's sections."""
    return f"<!-- case: {case}; {provenance.replace('-->', '')} -->"


@dataclass
class Results:
    """A RESULTS.md cut into the parts a merge moves: the head, target rows and section blocks by case."""

    head: str = ""  # the title, the paragraphs and the machine table, up to the targets
    targets_title: str = "## Targets"
    rows: dict[str, list[str]] = field(default_factory=dict)  # case -> rows of the targets table
    blocks: dict[str, tuple[str, str]] = field(default_factory=dict)  # case -> (provenance, sections)


def parse(text: str) -> Results:
    """Cut a RESULTS.md written by run.py (files without markers give no rows and no blocks)."""
    out = Results()
    head, _, rest = text.partition(TARGETS)
    if "\n## Runs\n" in head:  # made by render(): made again from the blocks
        before, _, after = head.partition("\n## Runs\n")
        head = before + ("\n## " + after.split("\n## ", 1)[1] if "\n## " in after else "")
    out.head = head.rstrip("\n")
    targets, _, cases = rest.partition(CASES)
    title, _, table = targets.partition("\n")
    out.targets_title = "## Targets" + title
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and re.fullmatch(r"\w+", cells[0]) and cells[0] != "case":
            out.rows.setdefault(cells[0], []).append(line.strip())
    found = list(MARKER.finditer(cases))
    for m, end in zip(found, [*(f.start() for f in found[1:]), len(cases)], strict=True):
        out.blocks[m.group(1)] = (m.group(2), cases[m.end() : end].strip("\n"))
    return out


def render(results: Results, order: tuple[str, ...]) -> str:
    """Write the parts back, cases in `order` (unknown cases last), with a Runs table when runs differ."""
    cases = [c for c in order if c in results.blocks or c in results.rows]
    cases += [c for c in [*results.blocks, *results.rows] if c not in cases]
    cases = list(dict.fromkeys(cases))
    runs = list(dict.fromkeys(results.blocks[c][0] for c in cases if c in results.blocks))
    lines = [results.head, ""]
    if len(runs) > 1:
        lines += [
            "## Runs",
            "",
            "Cases measured in different runs of this script (compare figures within a run):",
            "",
        ]
        lines += ["| cases | run |", "| --- | --- |"]
        for run in runs:
            names = ", ".join(c for c in cases if c in results.blocks and results.blocks[c][0] == run)
            lines.append(f"| {names} | {run} |")
        lines.append("")
    lines += [
        results.targets_title,
        "",
        "| case | target | measured | bar | verdict |",
        "| --- | --- | --- | --- | --- |",
    ]
    lines += [row for c in cases for row in results.rows.get(c, [])]
    lines += ["", "## Cases", ""]
    for c in cases:
        if c in results.blocks:
            provenance, body = results.blocks[c]
            lines += [marker(c, provenance), body, ""]
    return "\n".join(lines)


def merge(new: str, old: str, ran: set[str], order: tuple[str, ...]) -> str:
    """Return `new` (the cases in `ran`) with the other cases' rows and sections taken from `old`."""
    fresh, kept = parse(new), parse(old)
    for case, rows in kept.rows.items():
        if case not in ran:
            fresh.rows[case] = rows
    for case, block in kept.blocks.items():
        if case not in ran:
            fresh.blocks[case] = block
    return render(fresh, order)


def _load_note(machine: dict) -> list[str]:
    """Warn when the machine was busy: wall times then include waiting for a CPU."""
    try:
        load = float(machine.get("Load average at start (1/5/15 min)", "0").split("/")[0])
        cpus = int(machine.get("CPUs (nproc)", "1"))
    except ValueError:
        return []
    if load <= cpus:
        return []
    return [
        f"**The machine was shared during this run (load average {load:.1f} on {cpus} CPUs): wall times include "
        "waiting for a CPU and are inflated; CPU times are the better basis for comparison.**",
        "",
    ]


def write(
    report,
    path: Path,
    args: argparse.Namespace,
    machine: dict,
    versions: dict,
    ran: list[str],
    all_cases: tuple[str, ...],
    repo: Path,
) -> None:
    """Write RESULTS.md (and --json's samples); the cases not in `ran` are kept from the file it replaces."""
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=repo)
    sha = commit.stdout.strip() or "?"
    load = machine.get("Load average at start (1/5/15 min)", "?")
    provenance = f"{now}, commit {sha}, {machine.get('CPU model', '?')}, load average at start {load}"
    sections = []
    for case in dict.fromkeys(case for case, _ in report.sections):
        sections.append(marker(case, provenance))
        sections += [text for c, text in report.sections if c == case]
    lines = [
        "# Benchmark results",
        "",
        f"Written by `.venv/bin/python bench/run.py {' '.join(sys.argv[1:])}`".rstrip() + f" on {now}, "
        f"docsgen at commit {sha}. Medians of {args.runs} runs unless the table says "
        "otherwise; wall = elapsed time of the whole process (start-up included), CPU = user + system time of the "
        "process and its children, peak memory = largest resident set of one process of the tree.",
        "",
        *_load_note(machine),
        "## Machine",
        "",
        "| | |",
        "| --- | --- |",
        *(f"| {k} | {v} |" for k, v in machine.items()),
        *(f"| {k} | {v} |" for k, v in versions.items()),
        "",
        "## Targets (issue 9)",
        "",
        "| case | target | measured | bar | verdict |",
        "| --- | --- | --- | --- | --- |",
        *(f"| {' | '.join(row)} |" for row in report.targets),
        "",
        "## Cases",
        "",
        *sections,
    ]
    text, data = "\n".join(lines), report.data
    if set(ran) != set(all_cases) and path.exists():  # keep the other cases of the previous results
        text = merge(text, path.read_text(encoding="utf-8"), set(ran), all_cases)
        old = path.with_suffix(".json")
        data = {**(json.loads(old.read_text(encoding="utf-8")) if old.exists() else {}), **data}
    path.write_text(text, encoding="utf-8")
    if args.json:
        path.with_suffix(".json").write_text(json.dumps(data, indent=1), encoding="utf-8")
