"""Agent files: llms.txt, llms-full.txt and the Markdown twin of every page, parsed from real builds."""

from __future__ import annotations

import re

import pytest

from docsgen.build import build
from tests.conftest import FIXTURES

SITE = FIXTURES / "site-features"
URL = "https://docs.widgetly.example"


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    target = tmp_path_factory.mktemp("agents") / "out"
    build(SITE, target, site_url=URL)
    return target


def test_llms_txt_groups_pages_by_navigation(out):
    text = (out / "llms.txt").read_text(encoding="utf-8")
    assert text.startswith("# Widgetly\n\n> Widgetly builds and ships widgets.\n")
    sections = re.findall(r"^## (.+)$", text, re.M)
    assert sections == [
        "v2 > Start",
        "v2 > Reference",
        "v1 > Start",
        "Other pages",
        "Instructions",
        "Optional",
    ]
    links = re.findall(r"^- \[([^\]]+)\]\(([^)]+)\)(?:: (.*))?$", text, re.M)
    titles = [t for t, _, _ in links]
    assert titles == [
        "Welcome",
        "Quickstart",
        "Setup (v2)",
        "Secret notes",
        "Widgets",
        "Setup (v1)",
        "Archived but searchable",
        "Full text of every page",
    ]
    assert dict((t, u) for t, u, _ in links)["Quickstart"] == f"{URL}/quickstart.md"
    widgets = next(d for t, _, d in links if t == "Widgets")
    assert 290 <= len(widgets) <= 300 and widgets.endswith("…")
    assert len(text) <= 100_000 and (out / ".well-known" / "llms.txt").read_text(encoding="utf-8") == text


def test_llms_full_has_every_listed_page_with_its_source(out):
    text = (out / "llms-full.txt").read_text(encoding="utf-8")
    sources = re.findall(r"^Source: (.+)$", text, re.M)
    assert sources[:3] == [f"{URL}/", f"{URL}/quickstart/", f"{URL}/v2/setup/"]
    assert len(sources) == 7
    assert "Install the CLI and create a zebrafish widget" in text
    assert "hidden zebrafish page" not in text and "orphan zebrafish" not in text


def test_every_rendered_page_has_a_markdown_twin(out):
    # Redirect pages (docs.json redirects, folders without an index) are not pages and have no twin.
    htmls = {
        p.parent.relative_to(out).as_posix()
        for p in out.rglob("index.html")
        if 'http-equiv="refresh"' not in p.read_text()
    }
    htmls -= {d for d in htmls if d.startswith(("_", "pagefind"))}
    for folder in htmls:
        twin = out / ("index.md" if folder == "." else folder + ".md")
        assert twin.is_file(), folder
    assert (out / "orphan.md").read_text().startswith("# Orphan page\n")


def test_twin_turns_components_into_markdown(out):
    md = (out / "reference" / "widgets.md").read_text(encoding="utf-8")
    assert md.startswith("# Widgets\n\n> A very long description")
    assert "import " not in md.split("```")[0] and "export const" not in md
    assert "The default color is teal." in md and "comment" not in md
    assert "Shared snippet text for readers." in md
    assert "> **Note:** Widgets are **immutable** once shipped." in md
    assert "> **Careful:** Deleting a widget is final." in md
    assert f"- [**Quickstart**]({URL}/quickstart/): Make your first widget." in md
    assert "#### Python\n\nUse the Python client." in md
    assert "##### install.sh\n\n```bash\npip install widgetly\n```" in md
    assert re.search(r"1\. \*\*Create\*\*\n\n   Create the widget\.", md)
    assert "#### Can I rename a widget?\n\nYes, with `widgetly rename`." in md
    assert "Only people see" not in md and "Agents read this sentence." in md
    assert "- `widget_id` (path, string, required): The widget to fetch." in md
    assert "```jsx\n<Note>inside code stays as written</Note>\n```" in md
    assert md.rstrip().endswith("Prefer the v2 API.")
    assert "<" not in re.sub(r"```.*?```", "", md, flags=re.S)


def test_twin_substitutes_variables_and_absolutises_links(out):
    assert "Welcome to Widgetly. Start with the [quickstart](https://docs.widgetly.example/quickstart/)." in (
        out / "index.md"
    ).read_text(encoding="utf-8")
    assert "Run the installer on port 8080." in (out / "quickstart.md").read_text(encoding="utf-8")


def test_api_pages_twins_carry_endpoint_parameters_and_schemas(tmp_path):
    build(FIXTURES / "api-site", tmp_path / "out")
    md = (tmp_path / "out" / "api-reference" / "pets" / "list-pets.md").read_text(encoding="utf-8")
    assert md.startswith("# ")
    assert "**GET** `https://api.petstore.example/v1/pets`" in md
    assert "## Query Parameters" in md and "- `limit` (`integer`)" in md
    assert "## Response" in md and "- `name` (`string`, required)" in md
    assert "\\<script>" in md and "<script>" not in md.replace("\\<", "")  # spec text escaped, never raw HTML
    assert "  - `pets`" in md  # nested schema fields stay nested
    assert "```bash\ncurl --request GET" in md
    webhook = (tmp_path / "out" / "api-reference" / "pet-adopted.md").read_text(encoding="utf-8")
    assert webhook.startswith("# ") and ("```" in webhook or "- `" in webhook)


def test_llms_txt_stays_under_100000_characters(make_site):
    from docsgen.outputs.agents import LLMS_LIMIT, agent_pages, llms_txt
    from docsgen.site.read import read_site

    files = {
        "docs.json": (
            '{"theme": "mint", "name": "Big", "colors": {"primary": "#112233"}, "navigation": {"groups": '
            '[{"group": "All", "pages": ['
            + ",".join(f'"section-{n:04d}/a-fairly-long-page-name"' for n in range(1500))
            + "]}]}}"
        )
    }
    for n in range(1500):
        files[f"section-{n:04d}/a-fairly-long-page-name.mdx"] = (
            f"---\ndescription: {'word ' * 100}\n---\nBody\n"
        )
    site = read_site(make_site(files))
    text = llms_txt(site, agent_pages(site), "https://big.example")
    assert len(text) <= LLMS_LIMIT
    entries = [line for line in text.splitlines() if line.startswith("- [")]
    assert 900 < len(entries) < 1500  # descriptions dropped first, then the list cut
    assert not [e for e in entries if "word" in e]


@pytest.mark.parametrize("workers", [1, 2])
def test_a_twin_path_claimed_by_two_pages_holds_the_first_ones_twin(make_site, tmp_path, workers):
    """`index.mdx` (URL /) and `index/index.mdx` (URL /index/) both map to the twin `index.md`: the first page
    owns it, in a serial build and when render workers write the twins."""
    filler = [f"p/page-{n}" for n in range(100)]
    files = {
        "docs.json": (
            '{"theme": "mint", "name": "Twins", "colors": {"primary": "#112233"},'
            ' "navigation": {"pages": ["index", "index/index", ' + ", ".join(f'"{k}"' for k in filler) + "]}}"
        ),
        "index.mdx": "---\ntitle: Home\n---\nThe home page.\n",
        "index/index.mdx": "---\ntitle: Nested\n---\nA page whose URL is /index/.\n" + "Long text. " * 400,
        **{f"{k}.mdx": f"---\ntitle: Filler {k}\n---\nText.\n" for k in filler},
    }
    site = make_site(files)
    out = tmp_path / "out"
    build(site, out, cache=False, workers=workers)
    twin = (out / "index.md").read_text(encoding="utf-8")
    assert twin.startswith("# Home") and "Nested" not in twin and "Long text" not in twin
    assert (out / "index" / "index.html").is_file() and (out / "p" / "page-99.md").is_file()
