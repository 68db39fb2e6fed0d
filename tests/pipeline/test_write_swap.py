"""Swapping a new output folder into place: the old one is removed, a large one by a detached process."""

from __future__ import annotations

import time

from docsgen.engine.output_update import LARGE_FOLDER, swap_into_place


def fill(folder, files: int) -> None:
    folder.mkdir()
    for n in range(files):
        (folder / f"f{n}.html").write_text(str(n))


def leftovers(tmp_path) -> list[str]:
    return [p.name for p in tmp_path.iterdir() if p.name.startswith(".out.old-")]


def test_a_small_old_folder_is_removed_before_the_swap_returns(tmp_path):
    out, new = tmp_path / "out", tmp_path / "new"
    fill(out, 5)
    fill(new, 3)
    swap_into_place(new, out)
    assert sorted(p.name for p in out.iterdir()) == ["f0.html", "f1.html", "f2.html"]
    assert leftovers(tmp_path) == []


def test_a_large_old_folder_is_removed_without_waiting(tmp_path, monkeypatch):
    import docsgen.engine.output_update

    started = []
    real = docsgen.engine.output_update.subprocess.Popen
    monkeypatch.setattr(
        docsgen.engine.output_update.subprocess, "Popen", lambda *a, **k: started.append(a) or real(*a, **k)
    )
    out, new = tmp_path / "out", tmp_path / "new"
    fill(out, LARGE_FOLDER + 10)
    fill(new, 1)
    swap_into_place(new, out)
    assert [p.name for p in out.iterdir()] == ["f0.html"]  # the new site is in place at once
    assert len(started) == 1 and ".out.old-" in started[0][0][-1]  # removal handed to a detached process
    for _ in range(300):  # the detached process removes the old one (give a busy machine up to a minute)
        if not leftovers(tmp_path):
            break
        time.sleep(0.2)
    assert leftovers(tmp_path) == []
