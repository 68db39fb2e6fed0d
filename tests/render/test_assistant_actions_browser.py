"""The assistant's other entries (js/assistant-actions.js), in chromium: the phone top bar's button
(#assistant-entry-mobile), "Ask AI" on code blocks (#ask-assistant-code-block-button) and the tooltip over selected
text (#text-selection-tooltip): each opens the chat with its context, by mouse and by keyboard; none on a site whose
assistant is off."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from docsgen.build import build
from tests.conftest import write_tree
from tests.readers_sites import serve

GUIDE = (
    "---\ntitle: Guide\n---\n\nRetries happen three times before the upload fails.\n\n"
    '```python title="a.py"\nprint("hello")\n```\n\n```bash\nmake all\n```\n'
)


def site(root, assistant: bool):
    config: dict = {
        "name": "Acts",
        "theme": "mint",
        "colors": {"primary": "#1D4ED8"},
        "navigation": {"pages": ["guide"]},
    }
    if assistant:
        config["feedback"] = {"endpoint": "https://fb.example/v1/feedback/acme"}
    return write_tree(root, {"docs.json": json.dumps(config), "guide.mdx": GUIDE})


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    root = tmp_path_factory.mktemp("assistant-actions")
    build(site(root / "on", True), root / "out-on")
    build(site(root / "off", False), root / "out-off")
    server, url = serve(root)
    yield url
    server.shutdown()


def _errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def test_code_block_button_opens_the_chat_with_the_code(page: Page, served):
    errors = _errors(page)
    page.goto(served + "out-on/guide/")
    page.wait_for_load_state("networkidle")
    buttons = page.locator(".dg-code .ask-assistant-code-block-button")
    assert buttons.count() == 2 and page.locator("#ask-assistant-code-block-button").count() == 1
    assert buttons.first.get_attribute("aria-label") == "Ask AI"
    page.locator(".dg-code").first.hover()
    buttons.first.click()
    field = page.locator(".dg-assistant-dialog textarea")
    expect(field).to_be_focused()
    assert field.input_value() == '```python\nprint("hello")\n```\n\n'
    page.keyboard.press("Escape")
    buttons.nth(1).focus()  # by keyboard: the second block's button
    page.keyboard.press("Enter")
    assert field.input_value() == "```bash\nmake all\n```\n\n"
    assert not errors


def test_selected_text_gets_a_tooltip_that_asks_about_it(page: Page, served):
    errors = _errors(page)
    page.goto(served + "out-on/guide/")
    page.wait_for_load_state("networkidle")
    tip = page.locator("#text-selection-tooltip")
    expect(tip).to_be_hidden()
    paragraph = page.locator(".dg-prose p", has_text="Retries happen").first
    paragraph.click(click_count=3)  # a triple click selects the paragraph
    expect(tip).to_be_visible()
    button = tip.locator("#text-selection-tooltip-button")
    assert button.inner_text().strip() == "Ask AI"
    box, text_box = tip.bounding_box(), paragraph.bounding_box()
    assert box and text_box and box["y"] + box["height"] <= text_box["y"] + 2  # above the selection
    button.click()
    field = page.locator(".dg-assistant-dialog textarea")
    expect(field).to_be_focused()
    assert field.input_value() == "> Retries happen three times before the upload fails.\n\n"
    expect(tip).to_be_hidden()
    assert not errors


def test_tab_from_the_selection_reaches_the_tooltip_button(page: Page, served):
    page.goto(served + "out-on/guide/")
    page.wait_for_load_state("networkidle")
    page.locator(".dg-prose p", has_text="Retries happen").first.click(click_count=3)
    button = page.locator("#text-selection-tooltip-button")
    expect(button).to_be_visible()
    page.keyboard.press("Tab")
    expect(button).to_be_focused()  # before the code block's buttons that follow the paragraph
    page.keyboard.press("Enter")
    field = page.locator(".dg-assistant-dialog textarea")
    expect(field).to_be_focused()
    assert field.input_value().startswith("> Retries happen three times")


def test_selection_by_keyboard_reaches_the_tooltip_and_ctrl_i(page: Page, served):
    page.goto(served + "out-on/guide/")
    page.wait_for_load_state("networkidle")
    page.evaluate(
        """() => { const p = [...document.querySelectorAll('.dg-prose p')].find(e => e.textContent.startsWith('Retries'));
        const r = document.createRange(); r.setStart(p.firstChild, 0); r.setEnd(p.firstChild, 7);
        getSelection().removeAllRanges(); getSelection().addRange(r); }"""
    )
    expect(page.locator("#text-selection-tooltip")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#text-selection-tooltip")).to_be_hidden()
    page.keyboard.press("Control+i")
    field = page.locator(".dg-assistant-dialog textarea")
    expect(field).to_be_focused()
    assert field.input_value() == "> Retries\n\n"


def test_phone_top_bar_has_the_assistant_entry(page: Page, served):
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(served + "out-on/guide/")
    page.wait_for_load_state("networkidle")
    entry = page.locator("#navbar #assistant-entry-mobile")
    expect(entry).to_be_visible()
    assert entry.get_attribute("aria-label") == "Ask AI"
    entry.focus()
    page.keyboard.press("Enter")
    expect(page.locator(".dg-assistant-dialog textarea#chat-assistant-textarea")).to_be_focused()
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(served + "out-on/guide/")
    page.wait_for_load_state("networkidle")
    expect(
        page.locator("#assistant-entry-mobile")
    ).to_be_hidden()  # the desktop has "Ask AI" in the search dialog


def test_no_assistant_no_assistant_buttons(page: Page, served):
    page.goto(served + "out-off/guide/")
    page.wait_for_load_state("networkidle")
    page.locator(".dg-prose p", has_text="Retries happen").first.click(click_count=3)
    page.wait_for_timeout(300)
    for hook in ("assistant-entry-mobile", "ask-assistant-code-block-button", "text-selection-tooltip"):
        assert page.locator(f"#{hook}").count() == 0, hook
    assert page.locator(".dg-code-ask, .dg-selection-tip, .dg-assistant-mobile").count() == 0
