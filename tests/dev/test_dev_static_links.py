"""`docsgen dev` checks a static file when it serves it: replaced by a link to an outside file (or by a FIFO) after
the build listed it, it is a 404 and the outside file's text is never sent."""

from __future__ import annotations

import json
import os

import httpx

from docsgen.dev.app import start

CONFIG = {"theme": "mint", "name": "D", "colors": {"primary": "#112233"}, "navigation": {"pages": ["index"]}}


def test_a_static_file_replaced_by_an_outside_link_is_not_served(make_site, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("OUTSIDE-SECRET-42")
    docs = make_site(
        {
            "docs.json": json.dumps(CONFIG),
            "index.mdx": "# Hi\n",
            "files/notes.txt": "inside text",
            "files/other.txt": "other text",
            "files/pipe.txt": "fifo later",
        }
    )
    app = start(docs, watch=False)  # no watcher: the dev server still holds the file list of the build
    try:
        assert httpx.get(app.url + "files/notes.txt").text == "inside text"
        (docs / "files" / "notes.txt").unlink()
        os.symlink(secret, docs / "files" / "notes.txt")
        response = httpx.get(app.url + "files/notes.txt")
        assert response.status_code == 404 and "OUTSIDE-SECRET" not in response.text
        # a link to another file inside the folder is still served (links are resolved, as the build does)
        (docs / "files" / "other.txt").unlink()
        os.symlink(docs / "index.mdx", docs / "files" / "other.txt")
        assert httpx.get(app.url + "files/other.txt").text == "# Hi\n"
        (docs / "files" / "pipe.txt").unlink()
        os.mkfifo(docs / "files" / "pipe.txt")
        assert httpx.get(app.url + "files/pipe.txt", timeout=10).status_code == 404
    finally:
        app.stop()
