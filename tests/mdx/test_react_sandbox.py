"""Components run in a sandbox process: a backtracking regular expression (which QuickJS's interrupt never stops)
is ended at its processor-time limit with a located warning, and each page starts from a clean realm."""

from __future__ import annotations

import json
import re

from docsgen.mdx import render_mdx
from tests.bounded import run_cli
from tests.htmldom import parse
from tests.mdx_helpers import make_ctx

CONFIG = {
    "theme": "mint",
    "name": "R",
    "colors": {"primary": "#112233"},
    "navigation": {"pages": ["index", "regex", "after"]},
}
FINE = "export const Fine = ({n}) => <p className=\"fine\">{[1, 2, 3].map((i) => i * n).join(',')}</p>;\n\n"
# <Fine> comes first: on a loaded machine the stopped call can take the page's whole time budget (10 s, wall clock)
REGEX = (
    "export const Match = () => {\n"
    "  const hit = /^(a+)+$/.test('a'.repeat(40) + '!');\n"
    "  return <p>{String(hit)}</p>;\n"
    "};\n\n# Regex\n\n" + FINE + "<Fine n={2} />\n\n<Match>\n  fallback text\n</Match>\n"
)


def test_a_backtracking_regex_is_stopped_with_a_located_warning_and_the_site_builds(make_site, tmp_path):
    docs = make_site(
        {
            "docs.json": json.dumps(CONFIG),
            "index.mdx": "# Home\n\n" + FINE + "<Fine n={1} />\n",
            "regex.mdx": REGEX,
            "after.mdx": "# After\n\n" + FINE + "<Fine n={3} />\n",
        }
    )
    env = {"DOCSGEN_REACT_TIME_LIMIT": "0.5"}  # the regex alone would run for hours
    out = tmp_path / "out"
    done = run_cli("build", docs, "-o", out, deadline=120, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    [line] = [x for x in done.stderr.splitlines() if "[react.killed]" in x]
    assert re.match(
        r".*regex\.mdx:12:1: warning: <Match> did not finish within 1\.5 s of processor time", line
    ), line
    page = parse((out / "regex" / "index.html").read_text())
    assert "fallback text" in page.text
    assert page.find("p", cls="fine").text == "2,4,6"
    # the pages after it render in a fresh realm
    assert parse((out / "after" / "index.html").read_text()).find("p", cls="fine").text == "3,6,9"

    strict = run_cli("build", docs, "-o", tmp_path / "strict", "--strict", deadline=120, env=env)
    assert strict.returncode == 1
    assert re.search(r"regex\.mdx:12:1: error: <Match> did not finish .*\[react\.killed\]", strict.stderr)


POISON = (
    "export const Poison = () => {\n"
    "  Array.prototype.map = function () { return ['poisoned']; };\n"
    "  Object.prototype.toString = () => 'poisoned';\n"
    "  String.prototype.toUpperCase = () => 'poisoned';\n"
    "  globalThis.Helper = () => 'poisoned';\n"
    '  globalThis.__dgRender = () => \'{"html": "poisoned"}\';\n'
    "  throw new Error('after poisoning');\n"
    "};\n\n<Poison>kept</Poison>\n"
)
USER = (
    "export const User = () => <p className=\"user\">{[1, 2].map((i) => i * 10).join(' ')} "
    "{'ok'.toUpperCase()} {typeof Helper} {String({})}</p>;\n\n<User />\n"
)


def test_a_page_that_poisons_globals_does_not_change_the_next_page(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    poisoned = render_mdx(POISON, make_ctx(docs, source="poison.mdx"))
    [diag] = poisoned.diagnostics
    assert (diag.code, diag.path, diag.line) == ("react.component-error", "poison.mdx", 10)
    assert "after poisoning" in diag.message
    assert "kept" in poisoned.html
    for _ in range(2):  # the next pages, in the same process (the same engine)
        result = render_mdx(USER, make_ctx(docs, source="user.mdx"))
        assert not result.diagnostics, result.diagnostics
        # Helper is no global: a free name is a placeholder for a built-in component, hence a function
        assert parse(result.html).find("p", cls="user").text == "10 20 OK function [object Object]"


def test_a_build_renders_the_page_after_a_poisoning_one_correctly(make_site, tmp_path):
    config = {**CONFIG, "navigation": {"pages": ["poison", "user"]}}
    docs = make_site({"docs.json": json.dumps(config), "poison.mdx": POISON, "user.mdx": USER})
    done = run_cli("build", docs, "-o", tmp_path / "out", deadline=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "poison.mdx:10:1: warning: <Poison> threw Error: after poisoning" in done.stderr
    page = parse((tmp_path / "out" / "user" / "index.html").read_text())
    assert page.find("p", cls="user").text == "10 20 OK function [object Object]"


def test_code_the_engine_rejects_at_definition_is_located_in_its_file(tmp_path):
    """Module definitions travel with the page's next render: a failure is still located in its own file."""
    docs = tmp_path / "docs"
    (docs / "snippets").mkdir(parents=True)
    (docs / "snippets" / "dup.jsx").write_text(
        "export const Dup = () => {\n  let a = 1;\n  let a = 2;\n  return <p>{a}</p>;\n};\n"
    )
    body = "import { Dup } from '/snippets/dup.jsx';\n\n<Dup>kid</Dup>\n"
    result = render_mdx(body, make_ctx(docs, source="page.mdx"))
    [diag] = result.diagnostics
    assert (diag.code, diag.path, diag.line) == ("react.compile", "snippets/dup.jsx", 3)
    assert "redefinition" in diag.message and "kid" in result.html
    after = render_mdx(FINE + "<Fine n={4} />\n", make_ctx(docs, source="next.mdx"))
    assert not after.diagnostics and parse(after.html).find("p", cls="fine").text == "4,8,12"
