"""Custom React components run at build time: page exports, snippet files, props, children, hooks, nesting."""

from __future__ import annotations

import pytest

from docsgen.mdx import render_mdx
from tests.conftest import write_tree
from tests.htmldom import parse
from tests.mdx_helpers import make_ctx

SNIPPETS = {
    "snippets/hero.jsx": (
        'import { Badge } from "./badge.jsx";\n'
        "export const HeroCard = ({ title, description, href, tags = [] }) => (\n"
        '  <a className="hero" href={href}>\n'
        "    <h3>{title}</h3>\n"
        "    <p>{`${description}!`}</p>\n"
        '    {tags.length > 0 && <span className="tags">{tags.map((t) => <Badge key={t} label={t} />)}</span>}\n'
        "  </a>\n"
        ");\n"
    ),
    "snippets/badge.jsx": (
        'export const Badge = ({ label }) => <b className="badge">{label.toUpperCase()}</b>;\n'
        "export default Badge;\n"
    ),
    "snippets/typed.tsx": (
        "type Props = { rows: Array<{ name: string; ok: boolean }> };\n"
        "export default function Matrix({ rows }: Props) {\n"
        '  return <table className="matrix"><tbody>{rows.map((r) => (\n'
        '    <tr key={r.name}><td>{r.name}</td><td>{r.ok ? "yes" : "no"}</td></tr>))}</tbody></table>;\n'
        "}\n"
    ),
    "guides/local.js": 'export const Local = () => <em className="local">local</em>;\n',
    "snippets/intro.mdx": "Intro **snippet** text.\n",
}


def render(docs, body: str, source: str = "page.mdx"):
    return render_mdx(body, make_ctx(docs, source=source))


@pytest.fixture
def docs(tmp_path):
    return write_tree(tmp_path / "docs", SNIPPETS)


def test_page_export_with_props_map_conditionals_template_literals_and_nesting(docs):
    body = (
        'export const Pill = ({ text }) => <i className="pill">{text}</i>;\n\n'
        "export const List = ({ items, title, empty = false }) => (\n"
        '  <div className="list">\n'
        "    <h4>{`${title} (${items.length})`}</h4>\n"
        "    {empty ? <p>none</p> : items.map((item, i) => <Pill key={i} text={item} />)}\n"
        "  </div>\n"
        ");\n\n"
        '<List title="Fruits" items={["apple", "pear"]} />\n'
    )
    result = render(docs, body)
    assert result.diagnostics == []
    root = parse(result.html)
    [box] = root.find_all("div", cls="list")
    assert box.find("h4").text == "Fruits (2)"
    assert [p.text for p in box.find_all("i", cls="pill")] == ["apple", "pear"]


def test_snippet_files_absolute_relative_between_files_default_and_typescript(docs):
    body = (
        'import { HeroCard } from "/snippets/hero.jsx";\n'
        'import Badge from "../snippets/badge.jsx";\n'
        'import Matrix from "/snippets/typed.tsx";\n'
        'import { Local } from "./local.js";\n\n'
        '<HeroCard title="CLI installation" description="Install it" href="/cli" tags={["a", "b"]} />\n\n'
        '<Badge label="solo" />\n\n'
        '<Matrix rows={[{"name": "SSO", "ok": true}, {"name": "SCIM", "ok": false}]} />\n\n'
        "<Local />\n"
    )
    result = render(docs, body, source="guides/page.mdx")
    assert result.diagnostics == []
    root = parse(result.html)
    hero = root.find("a", cls="hero")
    assert hero.find("h3").text == "CLI installation" and hero.find("p").text == "Install it!"
    assert hero.attrs["href"] == "/cli/"  # resolved like a page link
    assert [b.text for b in hero.find_all("b", cls="badge")] == ["A", "B"]
    assert [b.text for b in root.find_all("b", cls="badge")][-1] == "SOLO"
    assert [td.text for td in root.find("table", cls="matrix").find_all("td")] == ["SSO", "yes", "SCIM", "no"]
    assert root.find("em", cls="local").text == "local"


def test_children_are_rendered_mdx_and_hooks_give_initial_values(docs):
    body = (
        'import { useState, useMemo } from "react";\n\n'
        "export const Box = ({ children, start }) => {\n"
        "  const [count] = useState(start);\n"
        "  const doubled = useMemo(() => count * 2, [count]);\n"
        '  return <section className="box"><span className="n">{count}/{doubled}</span>{children}</section>;\n'
        "};\n\n"
        "<Box start={21}>\n"
        "Some **bold** text and a [link](/guide).\n"
        "</Box>\n"
    )
    result = render(docs, body)
    assert result.diagnostics == []
    box = parse(result.html).find("section", cls="box")
    assert box.find("span", cls="n").text == "21/42"
    assert box.find("strong").text == "bold"
    assert box.find("a").attrs["href"] == "/guide/"
    assert "react" not in result.assets and "dg-island" not in result.html  # nothing to hydrate


def test_mintlify_components_inside_custom_ones_render_as_docsgen_components(docs):
    body = (
        "import Intro from '/snippets/intro.mdx';\n\n"
        "export const Feature = ({ title }) => (\n"
        "  <CardGroup cols={2}>\n"
        '    <Card title={title} icon="rocket" href="/start">Inside <b>bold</b></Card>\n'
        "    <Note>Careful</Note>\n"
        "    <Intro />\n"
        "  </CardGroup>\n"
        ");\n\n"
        '<Feature title="Quick start" />\n'
    )
    result = render(docs, body)
    assert result.diagnostics == []
    root = parse(result.html)
    card = root.find(cls="dg-card")
    assert card is not None and "Quick start" in card.text and card.find("b").text == "bold"
    assert root.find(cls="dg-callout") is not None and "Careful" in root.find(cls="dg-callout").text
    assert "Intro snippet text." in root.text
    assert "DGREACT" not in result.html and "dg-mdx" not in result.html


def test_free_react_hooks_and_jsx_valued_props(docs):
    body = (
        "export const Labelled = ({ icon, label }) => {\n"
        "  const [shown] = React.useState(label.trim());\n"
        '  return <p className="labelled">{icon}<span>{shown}</span></p>;\n'
        "};\n\n"
        '<Labelled label=" hi " icon={<svg width="3"></svg>} />\n'
    )
    result = render(docs, body)
    assert result.diagnostics == []
    p = parse(result.html).find("p", cls="labelled")
    assert p.find("svg") is not None and p.find("span").text == "hi"


def test_interactive_component_becomes_an_island_with_its_code(docs):
    body = (
        'import { HeroCard } from "/snippets/hero.jsx";\n\n'
        "export const Counter = ({ start = 0 }) => {\n"
        "  const [n, setN] = useState(start);\n"
        "  return <button onClick={() => setN(n + 1)}>Count {n}</button>;\n"
        "};\n\n"
        "<Counter start={3} />\n\n"
        '<HeroCard title="Static" description="d" href="/x" />\n'
    )
    result = render(docs, body)
    assert result.diagnostics == []
    root = parse(result.html)
    [island] = root.find_all("dg-island")
    assert island.attrs["data-export"] == "Counter" and island.find("button").text == "Count 3"
    assert "react" in result.assets
    modules = {s.attrs["data-dg-module"] for s in root.find_all("script", type="text/plain")}
    assert modules == {"page:page.mdx", "snippets/hero.jsx", "snippets/badge.jsx"}
    assert root.find("a", cls="hero").parent.tag != "dg-island"  # static components stay plain HTML


def test_a_changed_component_file_rebuilds_the_pages_using_it(tmp_path):
    from docsgen.build import build

    docs = write_tree(
        tmp_path / "docs",
        {
            **SNIPPETS,
            "docs.json": '{"name": "T", "theme": "mint", "colors": {"primary": "#0D9373"},'
            ' "navigation": {"pages": ["index"]}}',
            "index.mdx": '---\ntitle: T\n---\nimport { HeroCard } from "/snippets/hero.jsx";\n\n'
            '<HeroCard title="One" description="d" href="/" tags={["x"]} />\n',
        },
    )
    out = tmp_path / "out"
    build(docs, out, cache=True)
    assert '<b class="badge">X</b>' in (out / "index.html").read_text()
    (docs / "snippets" / "badge.jsx").write_text(
        'export const Badge = ({ label }) => <i className="badge">{label}</i>;\n'
    )
    build(docs, out, cache=True)
    assert '<i class="badge">x</i>' in (out / "index.html").read_text()


def test_components_defined_and_used_inside_an_mdx_snippet(docs):
    (docs / "snippets" / "boxed.mdx").write_text(
        'export const Boxed = ({ label }) => <div className="boxed">{label} in a snippet</div>;\n\n'
        "<Boxed label={title} />\n"
    )
    result = render(docs, "import Boxed from '/snippets/boxed.mdx';\n\n<Boxed title=\"Shown\" />\n")
    assert result.diagnostics == []
    assert parse(result.html).find("div", cls="boxed").text == "Shown in a snippet"
    assert "snippets/boxed.mdx" in result.dependencies


def test_export_function_components_and_fragments(docs):
    body = (
        "export function Pair({ a, b }) {\n"
        "  return <><dt>{a}</dt><dd>{b}</dd></>;\n"
        "}\n\n"
        '<dl>\n<Pair a="key" b="value" />\n</dl>\n'
    )
    result = render(docs, body)
    assert result.diagnostics == []
    root = parse(result.html)
    assert root.find("dt").text == "key" and root.find("dd").text == "value"


def test_island_code_cannot_close_its_script_element(docs):
    body = (
        "export const Sneaky = () => {\n"
        "  const [t, setT] = useState('</script><script>alert(1)</script><!--');\n"
        "  return <button onClick={() => setT('')}>{t}</button>;\n"
        "};\n\n"
        "<Sneaky />\n"
    )
    result = render(docs, body)
    root = parse(result.html)
    assert [s.attrs.get("type") for s in root.find_all("script")] == ["text/plain"]
    assert "alert(1)" in root.find("button").text
