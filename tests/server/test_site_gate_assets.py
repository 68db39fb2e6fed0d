"""The docs folder's own files behind the site gate: a file is readable by whoever may read a page that shows or
links it (public page: everyone; only a members' page: signed-in readers; only a group's page: that group), a
stylesheet passes its readers on to the files it names, and a file no page references needs sign-in. Tested by
walking every file of the output as three readers: none, a member, a member of the `admin` group."""

from __future__ import annotations

import json

import httpx
import pytest

from docsgen.build import build
from docsgen.server.app import create_app
from docsgen.server.db import open_database
from docsgen.server.reader_sessions import COOKIE, session_key, session_token
from docsgen.server.site_auth import hash_password, save_auth
from docsgen.server.testing import LiveServer, seed_project
from tests.conftest import write_tree

DOCS = {
    "name": "Acme",
    "theme": "mint",
    "colors": {"primary": "#4F46E5"},
    "navigation": {
        "groups": [
            {"group": "Welcome", "public": True, "pages": ["index"]},
            {"group": "Guides", "pages": ["guide"]},
            {"group": "Admin", "pages": ["admin"]},
        ]
    },
}
FILES = {
    "docs.json": json.dumps(DOCS),
    "index.mdx": "---\ntitle: Welcome\n---\n\n![Logo](/images/public.png)\n\n[Kit](/files/shared.zip)\n",
    "guide.mdx": "---\ntitle: Guide\n---\n\n![Plan](images/secret.png)\n\n[Kit](files/shared.zip)\n",
    "admin.mdx": '---\ntitle: Admin\ngroups: ["admin"]\n---\n\n![Switch](./images/admin.png)\n\n[Runbook](/files/admin.pdf)\n',
    "style.css": "@font-face{font-family:Brand;src:url(fonts/brand.woff2)}\n",
    "images/public.png": "png",
    "images/secret.png": "png",
    "images/admin.png": "png",
    "files/shared.zip": "zip",
    "files/admin.pdf": "pdf",
    "files/orphan.txt": "nobody links this",
    "fonts/brand.woff2": "font",
}
# what each reader gets for each docs folder file: (no session, member, admin)
EXPECTED = {
    "images/public.png": (200, 200, 200),
    "files/shared.zip": (200, 200, 200),  # a public page links it (a members' page too)
    "style.css": (200, 200, 200),  # every page loads it
    "fonts/brand.woff2": (200, 200, 200),  # named by a public stylesheet
    "images/secret.png": (401, 200, 200),
    "files/orphan.txt": (401, 200, 200),  # referenced by no page: signed-in readers only
    "images/admin.png": (401, 404, 200),
    "files/admin.pdf": (401, 404, 200),
}


@pytest.fixture(scope="module")
def gate(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("assets")
    docs = write_tree(tmp / "docs", FILES)
    build(docs, tmp / "out")
    engine = open_database(f"sqlite:///{tmp / 'gate.sqlite3'}")
    seed_project(engine, "acme", docs_dir=docs, out_dir=tmp / "out")
    with engine.begin() as conn:
        save_auth(conn, "acme", {"method": "password", "passwordHash": hash_password("pw")})
    key = session_key(engine)
    with LiveServer(create_app(engine=engine, site_project="acme")) as live:
        yield tmp / "out", live.url, key
    engine.dispose()


def test_each_file_of_the_docs_folder_goes_to_the_readers_of_the_pages_showing_it(gate):
    out, url, key = gate
    manifest = json.loads((out / "_access.json").read_text(encoding="utf-8"))
    assert set(EXPECTED) <= set(manifest["assets"])
    readers = [
        {},
        {COOKIE: session_token(key, {})},
        {COOKIE: session_token(key, {"groups": ["admin"]})},
    ]
    for who, cookies in enumerate(readers):
        with httpx.Client(base_url=url, cookies=cookies) as client:
            for file in sorted(p for p in out.rglob("*") if p.is_file()):
                rel = file.relative_to(out).as_posix()
                answer = client.get("/" + rel)
                if rel in EXPECTED:
                    assert answer.status_code == EXPECTED[rel][who], (who, rel)
                    if answer.status_code == 200:
                        assert answer.content == file.read_bytes()
                elif rel.startswith("_static/"):
                    assert answer.status_code == 200, rel
