"""Components rendered from fixture files, plus behaviour the HTML alone does not show."""

from __future__ import annotations

import pytest

from docsgen.mdx.changelog import changelog_entries
from tests.htmldom import parse
from tests.mdx_helpers import fixture_params, normalize, render

FIXTURE_FILES = (
    "callouts.txt",
    "cards.txt",
    "tabs.txt",
    "disclosure.txt",
    "content.txt",
    "fields.txt",
    "code.txt",
    "mdx.txt",
)


@pytest.mark.parametrize("case", [p for name in FIXTURE_FILES for p in fixture_params(name)])
def test_component_fixtures(case):
    name, line, title, source, expected = case
    result = render(source)
    assert normalize(result.html) == normalize(expected), f"mdx_fixtures/{name}:{line + 1} {title}"


def test_unknown_component_warns_with_location():
    result = render("Intro\n\n<Mystery>\n  x\n</Mystery>\n", line_offset=3)
    [diag] = result.diagnostics
    assert (diag.code, diag.line, diag.column, diag.severity.value) == (
        "mdx.unknown-component",
        6,
        1,
        "warning",
    )
    assert "<Mystery>" in diag.message and diag.path == "page.mdx"


def test_tabs_are_accessible_and_request_assets():
    result = render('<Tabs>\n  <Tab title="A">one</Tab>\n  <Tab title="B">two</Tab>\n</Tabs>\n')
    assert {"tabs"} <= result.assets
    dom = parse(result.html)
    tabs = dom.find_all("button", role="tab")
    panels = dom.find_all("div", role="tabpanel")
    assert [t.attrs["aria-selected"] for t in tabs] == ["true", "false"]
    for tab, panel in zip(tabs, panels, strict=True):
        assert (
            tab.attrs["aria-controls"] == panel.attrs["id"]
            and panel.attrs["aria-labelledby"] == tab.attrs["id"]
        )
    assert [p.text for p in panels] == ["one", "two"] and "hidden" in panels[1].attrs


def test_tab_and_codegroup_titles_share_sync_data():
    result = render(
        '<Tabs>\n<Tab title="Python">p</Tab>\n</Tabs>\n\n<CodeGroup>\n```py Python\nx\n```\n</CodeGroup>\n'
    )
    assert result.html.count('data-title="Python"') >= 3  # tab button, tab panel, code panel
    assert result.html.count('data-sync="true"') == 2


def test_panel_and_api_examples_leave_the_body():
    source = (
        "Body\n\n<Panel>\n  Side **info**\n</Panel>\n\n<RequestExample>\n```bash cURL\ncurl x\n```\n</RequestExample>\n\n"
        "<ResponseExample>\n```json 200\n{}\n```\n</ResponseExample>\n"
    )
    result = render(source)
    assert "Side" not in result.html and "<strong>info</strong>" in result.panel_html
    assert "dg-request-example" in result.aside_html and "dg-response-example" in result.aside_html
    assert "curl" in result.aside_html and "curl" not in result.html


def test_visibility_agents_only_in_text():
    result = render(
        '<Visibility for="agents">\nFor robots.\n</Visibility>\n\n<Visibility for="humans">\nFor people.\n</Visibility>\n'
    )
    assert "For robots" not in result.html and "For robots" in result.text
    assert "For people" in result.html and "For people" not in result.text


def test_updates_become_changelog_entries_and_toc():
    source = (
        '<Update label="2024-05-01" description="v2" tags={["Feature", "Fix"]} rss={{ title: "Big release" }}>\n'
        "  New things.\n</Update>\n\n"
        '<Update label="2024-04-01" tags={["Fix"]}>\n  Old things.\n</Update>\n'
    )
    result = render(source)
    entries = changelog_entries(result)
    assert [(e.id, e.label, e.tags, e.rss_title) for e in entries] == [
        ("2024-05-01", "2024-05-01", ("Feature", "Fix"), "Big release"),
        ("2024-04-01", "2024-04-01", ("Fix",), "2024-04-01"),
    ]
    assert "New things." in entries[0].html and entries[0].text == "New things."
    assert [t.id for t in result.toc] == ["2024-05-01", "2024-04-01"]
    assert "changelog" in result.assets and result.html.index("dg-update-filters") < result.html.index(
        'class="dg-update"'
    )


def test_views_get_one_selector():
    result = render('<View title="Python">\npy\n</View>\n\n<View title="Node">\njs\n</View>\n')
    dom = parse(result.html)
    assert len(dom.find_all("select")) == 1
    views = dom.find_all("div", cls="dg-view")
    assert [v.attrs.get("data-view") for v in views] == ["Python", "Node"]
    assert ["hidden" in v.attrs for v in views] == [False, True]
    assert "view" in result.assets


def test_nested_param_fields_get_parent_path_anchors():
    source = (
        '<ParamField body="user" type="object">\n  <Expandable title="properties">\n'
        '    <ParamField body="name" type="string">n</ParamField>\n  </Expandable>\n</ParamField>\n'
        '<ResponseField name="user">\n  x\n</ResponseField>\n'
    )
    result = render(source)
    assert 'id="user"' in result.html and 'id="user-name"' in result.html and 'id="user-1"' in result.html


def test_accordion_anchor_unique_and_steps_titles_in_toc():
    source = (
        '<Accordion title="Same">a</Accordion>\n<Accordion title="Same">b</Accordion>\n\n'
        '<Steps titleSize="h2">\n<Step title="Go">x</Step>\n</Steps>\n'
    )
    result = render(source)
    assert 'id="same"' in result.html and 'id="same-1"' in result.html
    assert [(t.level, t.id) for t in result.toc] == [(2, "go")]


def test_card_icon_uses_icon_library_and_records_names():
    result = render(
        '<Card title="Rocket" icon="rocket">Go</Card>\n\n<Icon icon="github" />\n', icon_library="lucide"
    )
    assert result.icons == {"rocket", "github"}
    assert "<svg" in result.html


def test_icon_url_becomes_image():
    result = render('<Card title="X" icon="/logo.svg">Go</Card>\n')
    assert '<img class="dg-icon dg-icon-img" src="/logo.svg"' in result.html
    assert result.icons == set()


def test_jsx_icon_prop_renders_svg():
    source = '<Card\n  title="GTM"\n  icon={\n    <svg viewBox="0 0 10 10" className="h-6">\n      <path fillRule="evenodd" d="M0 0h10\n v10" />\n    </svg>\n  }\n/>\n'
    result = render(source)
    assert '<svg viewBox="0 0 10 10" class="h-6">' in result.html and 'fill-rule="evenodd"' in result.html
    assert result.diagnostics == []


def test_a_failing_component_becomes_a_located_error(monkeypatch):
    from docsgen.mdx import components

    render("<Note>warm up the registry</Note>\n")

    def broken(el):
        raise ValueError("boom")

    monkeypatch.setitem(components.COMPONENTS, "Note", broken)
    result = render("Text\n\n<Note>x</Note>\n\nAfter.\n")
    [diag] = result.diagnostics
    assert (diag.code, diag.line, diag.severity.value) == (
        "mdx.internal",
        3,
        "error",
    ) and "boom" in diag.message
    assert "After." in result.html


def test_unknown_icon_warns_where_it_is_used():
    result = render('Intro\n\n<Card title="X" icon="no-such-icon-anywhere">x</Card>\n')
    [diag] = result.diagnostics
    assert (diag.code, diag.line, diag.column) == ("mdx.unknown-icon", 3, 1)


def test_plain_text_labels_tab_panels():
    result = render('<Tabs>\n  <Tab title="npm">npm i</Tab>\n  <Tab title="Yarn">yarn add</Tab>\n</Tabs>\n')
    assert result.text.split("\n") == ["npm:", "npm i", "", "Yarn:", "yarn add"]
