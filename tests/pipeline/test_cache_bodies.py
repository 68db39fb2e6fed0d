"""The page cache's body files (docsgen.engine.bodies): text as written, read back exactly, refused whole when
they do not add up."""

from __future__ import annotations

import pytest

from docsgen.engine.bodies import HEAVY, BodyPack, encode_bodies, encode_body


def parts(**given: object) -> dict[str, object]:
    base: dict[str, object] = {name: None for name in HEAVY}
    base.update(html="", toc=[])
    base.update(given)
    return base


ONE = parts(
    html='<p class="x">Quotes " and \\ backslashes, newlines\n, tabs\t, é, 日本語, 🚀</p>',
    toc=[[2, "intro", "Intro 日本"]],
    markdown='# Title\n\n```json\n{"a": 1}\n```\n',
    search_html="",
    api_data={"method": "GET", "params": [{"name": "id", "required": True, "max": 1.5}], "none": None},
)
TWO = parts(html="<p>two</p>", aside_html="<aside>\n</aside>", text_html="t")


def test_bodies_read_back_as_written():
    pack = BodyPack(encode_bodies({"k1": encode_body(ONE), "k2": encode_body(TWO)}))  # type: ignore[dict-item]
    assert pack.get("k1") == ONE and pack.get("k2") == TWO and pack.get("k3") is None
    empty = BodyPack(encode_bodies({}))
    assert empty.get("k1") is None


def test_a_lone_surrogate_is_not_stored():
    assert encode_body(parts(html="bad \ud800 text")) is None
    assert encode_body(parts(toc=[[2, "x", "\udfff"]])) is None


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[:-1],  # cut short
        lambda data: data + b"x",  # longer than its header says
        lambda data: data.split(b"\n", 1)[1],  # no header
        lambda data: b"{}\n" + data.split(b"\n", 1)[1],
        lambda data: b'[["k1", [1, 2]]]\n',  # too few lengths
        lambda data: b'[["k1", [-2, 0, 0, 0, 0, 0, 0, 0]]]\n',
        lambda data: b'[["k1", [true, 0, 0, 0, 0, 0, 0, 0]]]\n',
        lambda data: b"[[1, [0, 0, 0, 0, 0, 0, 0, 0]]]\n",
        lambda data: b"not json\n",
    ],
)
def test_a_damaged_file_is_refused_whole(damage):
    data = encode_bodies({"k1": encode_body(ONE)})  # type: ignore[dict-item]
    with pytest.raises(ValueError):
        BodyPack(damage(data))


def test_undecodable_parts_raise_when_read():
    body = encode_body(TWO)
    assert body is not None
    lengths, data = body
    broken = b"\xff" + data[1:]  # the HTML's first byte is no longer UTF-8
    pack = BodyPack(encode_bodies({"k": (lengths, broken)}))
    with pytest.raises(ValueError):
        pack.get("k")
