"""Hostile input is normal input: a corpus of generated bad inputs (docs.json, frontmatter, MDX, specs, files)
and a property-based fuzz of the MDX renderer.

Every input runs through the real CLI (`build`, then `validate`, and `openapi-check` for specs) in a child process
with a deadline and a memory ceiling, and must end with: exit 0 or 1 (no signal, no traceback, no internal error),
a located `file:line:col` message for every error, nothing written outside the output folder and nothing read from
outside the docs folder (a marker file beside the docs folder never reaches the output).
"""

from __future__ import annotations

import json
import os
import re
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from docsgen.common.errors import DocsgenError
from tests.mdx_helpers import render

MARKER = "OUTSIDE-MARKER-7f3a"  # written beside the docs folder: must never be published
DEADLINE = 90  # seconds for one command, far above any honest input's cost
MEMORY = 3 * 1024**3  # bytes of address space for one command
BASE = {
    "theme": "mint",
    "name": "Hostile",
    "colors": {"primary": "#112233"},
    "navigation": {"pages": ["index"]},
}
LOCATED = re.compile(r"^(?P<path>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): error: ", re.M)


def config(**extra) -> str:
    return json.dumps({**BASE, **extra})


def page(front: str, body: str = "Hello.\n") -> str:
    return f"---\n{front}\n---\n{body}"


def nested_yaml_spec(depth: int) -> str:
    head = "openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    Deep: "
    return head + "[" * depth + "]" * depth + "\n"


def ref_chain_spec(length: int) -> str:
    schemas = {f"S{i}": {"$ref": f"#/components/schemas/S{i + 1}"} for i in range(length)}
    schemas[f"S{length}"] = {"type": "string"}
    op = {
        "get": {
            "responses": {
                "200": {
                    "description": "ok",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/S0"}}},
                }
            }
        }
    }
    return json.dumps(
        {
            "openapi": "3.1.0",
            "info": {"title": "T", "version": "1"},
            "paths": {"/x": op},
            "components": {"schemas": schemas},
        }
    )


def spec_with(operation: dict) -> str:
    return json.dumps(
        {
            "openapi": "3.1.0",
            "info": {"title": "T", "version": "1"},
            "paths": {"/x": {"get": {"responses": {"200": {"description": "ok"}}, **operation}}},
        }
    )


def api_site(spec: str, name: str = "openapi.json") -> dict[str, str]:
    return {
        "docs.json": config(navigation={"pages": ["index"], "openapi": name}),
        "index.mdx": "# Home\n",
        name: spec,
    }


def fan_out(levels: int) -> dict[str, str]:
    files = {
        f"snippets/s{i}.mdx": f"import S from '/snippets/s{i + 1}.mdx';\n\n<S />\n<S />\n"
        for i in range(levels)
    }
    files[f"snippets/s{levels}.mdx"] = "leaf\n"
    return files


LAUGHS = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8)
)

# name -> files of the docs folder (docs.json defaults to BASE; index.mdx to a plain page)
CASES: dict[str, dict[str, str | bytes]] = {
    "docs.json nested 600 deep": {"docs.json": '{"a":' * 600 + "1" + "}" * 600},
    "docs.json lone surrogate": {"docs.json": config()[:-1] + ', "description": "\\ud800"}'},
    "docs.json null": {"docs.json": "null"},
    "docs.json list": {"docs.json": "[]"},
    "docs.json not UTF-8": {"docs.json": b'{"name": "\xff\xfe"}'},
    "docs.json $ref to a missing pointer": {
        "docs.json": config(navigation={"$ref": "nav.json#/nope"}),
        "nav.json": '{"pages": ["index"]}',
    },
    "docs.json $ref outside the folder": {"docs.json": config(navigation={"$ref": "../outside.json"})},
    "redirect source climbing out": {
        "docs.json": config(redirects=[{"source": "/../../../escaped", "destination": "/"}])
    },
    "javascript: URLs": {
        "docs.json": config(
            navbar={"links": [{"label": "x", "href": "javascript:alert(1)"}]},
            footer={"socials": {"x": "javascript:alert(2)"}},
            logo={"light": "/logo.svg", "href": "javascript:alert(3)"},
        )
    },
    "frontmatter billion laughs": {"index.mdx": page(LAUGHS + "title: Boom")},
    "frontmatter recursive alias": {"index.mdx": page("title: &a [*a]")},
    "frontmatter impossible date": {"index.mdx": page("title: 2024-13-45")},
    "frontmatter title mapping": {"index.mdx": page("title: {a: 1}")},
    "frontmatter openapi number": {"index.mdx": page("title: T\nopenapi: 12")},
    "frontmatter unterminated": {"index.mdx": "---\ntitle: T\nno end\n"},
    "NUL bytes in a page": {"index.mdx": "# Title\n\nbefore\x00after\n"},
    "page not UTF-8": {"index.mdx": b"# Title\n\n\xff\xfe caf\xe9\n"},
    "div nested 400 deep": {"index.mdx": "<div>" * 400 + "x" + "</div>" * 400 + "\n"},
    "crossed tags": {"index.mdx": "<div><span>x</div></span>\n"},
    "stray closing tag": {"index.mdx": "Text\n\n</Tab>\n"},
    "tag starting with a digit": {"index.mdx": "<1abc>\n"},
    "duplicate attributes": {"index.mdx": '<Note title="a" title="b">x</Note>\n'},
    "lone brace": {"index.mdx": "Text }\n\n{\n"},
    "import outside the docs folder": {"index.mdx": "import S from '../outside.mdx';\n\n<S />\n"},
    "import of a missing snippet": {"index.mdx": "import S from '/snippets/none.mdx';\n\n{/* <S /> */}\n"},
    "snippet fan-out 2^20": {"index.mdx": "import S from '/snippets/s0.mdx';\n\n<S />\n", **fan_out(20)},
    "page of 30 MB": {"index.mdx": "# Big\n\n" + ("word " * 20 + "\n\n") * 300_000},
    "name of 20 MB": {"docs.json": config(name="n" * 20_000_000)},
    "spec YAML nested 50,000 deep": api_site(nested_yaml_spec(50_000), "openapi.yaml"),
    "spec JSON nested 10,000 deep": api_site(
        '{"openapi": "3.1.0", "info": {"title": "T", "version": "1"}, "paths": {}, "x": '
        + "[" * 10_000
        + "]" * 10_000
        + "}"
    ),
    "spec $ref chain 10,000 long": api_site(ref_chain_spec(10_000)),
    "spec $ref to the whole document": api_site(spec_with({"parameters": [{"$ref": "#"}]})),
    "spec href climbing out": api_site(spec_with({"x-mint": {"href": "/../../../../escaped/owned"}})),
    "spec content with script": api_site(
        spec_with({"x-mint": {"content": "<script>alert(1)</script><img src=x onerror=alert(2)>"}})
    ),
    "spec example 10,000 deep": api_site(
        spec_with(
            {
                "responses": {
                    "200": {
                        "description": "ok",
                        "content": {"application/json": {"example": "DEEP"}},
                    }
                }
            }
        ).replace('"DEEP"', "[" * 10_000 + "]" * 10_000)
    ),
}
LINKS = {  # name -> (link name inside the docs folder, target; None: a FIFO)
    "symlink to a file outside": ("leak.mdx", "../outside.mdx"),
    "symlink to /etc/passwd": ("passwd.txt", "/etc/passwd"),
    "symlink to /dev/zero": ("zero.mdx", "/dev/zero"),
    "symlink loop": ("loop.mdx", "loop.mdx"),
    "FIFO named like a page": ("fifo.mdx", None),
}


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DOCSGEN_CACHE": "0", "DOCSGEN_WORKERS": "1"}
    return subprocess.run(
        [sys.executable, "-m", "docsgen", *map(str, args)],
        capture_output=True,
        text=True,
        errors="replace",
        timeout=DEADLINE,
        preexec_fn=_limit,
        env=env,
    )


def make_site(root: Path, files: dict[str, str | bytes]) -> Path:
    (root / "outside.mdx").write_text(f"# {MARKER}\n", encoding="utf-8")
    (root / "outside.json").write_text(json.dumps({"pages": [MARKER]}), encoding="utf-8")
    docs = root / "docs"
    files = {"docs.json": config(), "index.mdx": "# Home\n\nHello.\n", **files}
    for rel, content in files.items():
        target = docs / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8", errors="surrogatepass")
    return docs


def check(result: subprocess.CompletedProcess[str], what: str) -> None:
    output = result.stdout + result.stderr
    assert result.returncode in (0, 1), f"{what}: exit {result.returncode} (a signal?)\n{output[-2000:]}"
    assert "Traceback" not in output and "internal error" not in output, f"{what}:\n{output[-3000:]}"
    if result.returncode == 1:
        assert LOCATED.search(output), f"{what}: rejected without a located error:\n{output[-2000:]}"


def outside_listing(root: Path) -> set[str]:
    return {
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if not p.relative_to(root).as_posix().startswith(("docs", "out"))
    }


@pytest.mark.parametrize("name", [*CASES, *LINKS])
def test_a_hostile_input_is_a_located_message_and_nothing_else(tmp_path, name):
    docs = make_site(tmp_path, CASES.get(name, {}))
    if name in LINKS:
        link, target = LINKS[name]
        if target is None:
            os.mkfifo(docs / link)
        else:
            (docs / link).symlink_to(target)
    before = outside_listing(tmp_path)
    out = tmp_path / "out"

    build = run("build", docs, "-o", out)
    check(build, f"build ({name})")
    check(run("validate", docs), f"validate ({name})")
    for spec in ("openapi.json", "openapi.yaml"):
        if (docs / spec).is_file():
            check(run("openapi-check", docs / spec), f"openapi-check ({name})")

    assert outside_listing(tmp_path) == before, f"{name}: files appeared outside the output folder"
    if out.is_dir():
        for path in out.rglob("*"):
            if path.is_file():
                text = path.read_bytes()
                assert MARKER.encode() not in text, (
                    f"{name}: {path} publishes a file from outside the docs folder"
                )
                assert b"root:x:0:0" not in text
                if path.suffix == ".html":
                    assert b"<script>alert(1)" not in text and b"onerror=alert" not in text, f"{name}: {path}"
                    assert b'href="javascript:' not in text.lower(), f"{name}: {path}"


# Pieces of MDX, good and broken, from which the fuzzer builds pages.
PIECES = [
    "# Heading\n",
    "Text ",
    "**bold** ",
    "`code` ",
    "[link](/x) ",
    "{1 + 1}",
    "{",
    "}",
    "{/* c */}",
    "\n\n",
    "<Note>",
    "</Note>",
    "<Tabs>",
    '<Tab title="A">',
    "</Tab>",
    "</Tabs>",
    "<CodeGroup>",
    "</CodeGroup>",
    "```js\nx\n",
    "```\n",
    "<div>",
    "</div>",
    "<span>",
    "</span>",
    '<Card title="t" href="/a"/>',
    "<1abc>",
    '<Steps><Step title="s">',
    "</Step></Steps>",
    '<Accordion title="a">',
    "</Accordion>",
    "<Update label={<>x</>}>",
    "</Update>",
    "$$\nx^2\n$$\n",
    '<img src="/a.png"/>',
    "import X from './x.mdx';\n",
    "export const Y = () => <b/>;\n",
    "<Y />",
    "| a | b |\n| - | - |\n| 1 | 2 |\n",
    "    indented\n",
    "> quote\n",
    "- item\n",
    "\\",
    "<",
    ">",
    "&amp;",
    "\x00",
]


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(st.lists(st.sampled_from(PIECES), max_size=40))
def test_the_mdx_renderer_never_raises_on_any_mix_of_pieces(pieces):
    body = "".join(pieces)
    try:
        result = render(body)
    except DocsgenError as exc:  # a located error is a fine answer; a crash is not
        assert all(d.line > 0 for d in exc.diagnostics), [d.format() for d in exc.diagnostics]
        return
    assert isinstance(result.html, str)
    assert "<script" not in result.html.lower() or "<script" in body.lower()
