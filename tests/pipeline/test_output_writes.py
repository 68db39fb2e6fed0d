"""Writing the output folder: each file made in memory is one open, one write and one close."""

from __future__ import annotations

import builtins
import os
import stat

from docsgen.engine import write
from docsgen.engine.write import OutputFolder, PageWriter, SiteFiles


def test_a_file_is_written_with_one_open_and_one_write(tmp_path, monkeypatch):
    files = SiteFiles()
    files.add("a/index.html", write.Claimed("a"), "a")
    files.add("a.md", write.Claimed("a"), "a")
    files.add("sitemap.xml", b"<urlset/>", "sitemap")
    calls: list[str] = []
    real_open, real_os_open, real_write = builtins.open, os.open, os.write

    def no_open(path, *args, **kwargs):
        assert not str(path).startswith(str(tmp_path)), f"{path} opened through open()"
        return real_open(path, *args, **kwargs)

    def os_open(path, *args, **kwargs):
        calls.append("open")
        return real_os_open(path, *args, **kwargs)

    def os_write(fd, data):
        calls.append("write")
        return real_write(fd, data)

    monkeypatch.setattr(builtins, "open", no_open)
    monkeypatch.setattr(os, "open", os_open)
    monkeypatch.setattr(os, "write", os_write)
    text = "<p>é" + "x" * 200_000 + "</p>"
    with OutputFolder(tmp_path / "out") as folder:
        writer = PageWriter(folder, files)
        assert writer("a/index.html", text, "a") and writer("a.md", "# A\n", "a")
        folder.write(files)
        monkeypatch.undo()
        folder.commit()
    assert calls == ["open", "write"] * 3
    out = tmp_path / "out"
    assert (out / "a/index.html").read_text(encoding="utf-8") == text
    assert (out / "a.md").read_bytes() == b"# A\n" and (out / "sitemap.xml").read_bytes() == b"<urlset/>"
    umask = os.umask(0)
    os.umask(umask)
    for name in ("a/index.html", "a.md", "sitemap.xml"):  # as open() makes files: 0o666 less the umask
        assert stat.S_IMODE((out / name).stat().st_mode) == 0o666 & ~umask
