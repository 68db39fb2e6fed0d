"""LaTeX -> MathML: structure of common formulas, display vs inline, escaping, and errors that never crash."""

from __future__ import annotations

import time
import xml.etree.ElementTree as ET

import pytest

from docsgen.mdx.math import MathError, math_error, mathml, render_math

M = "{http://www.w3.org/1998/Math/MathML}"


def parse(html: str) -> ET.Element:
    """Parse the wrapper and return its <math> element (checking the wrapper on the way)."""
    wrapper = ET.fromstring(html)
    assert wrapper.tag in ("span", "div")
    (math,) = list(wrapper)
    assert math.tag == f"{M}math"
    return math


def tags(element: ET.Element) -> list[str]:
    return [e.tag.removeprefix(M) for e in element.iter()]


def texts(element: ET.Element, tag: str) -> list[str]:
    return [e.text or "" for e in element.iter(f"{M}{tag}")]


def test_inline_and_display_wrappers():
    inline = ET.fromstring(render_math("x^2", display=False))
    assert inline.tag == "span" and inline.get("class") == "math math-inline"
    assert inline[0].get("display") == "inline"
    block = ET.fromstring(render_math("x^2", display=True))
    assert block.tag == "div" and block.get("class") == "math math-display"
    assert block[0].get("display") == "block"


def test_source_is_kept_as_annotation():
    math = parse(render_math(r"\frac{a}{b}"))
    (semantics,) = list(math)
    assert semantics.tag == f"{M}semantics"
    annotation = semantics[-1]
    assert annotation.tag == f"{M}annotation" and annotation.get("encoding") == "application/x-tex"
    assert annotation.text == r"\frac{a}{b}"


def test_fraction():
    math = parse(render_math(r"\frac{1}{n+1}"))
    (frac,) = math.iter(f"{M}mfrac")
    numerator, denominator = list(frac)
    assert texts(numerator, "mn") == ["1"]
    assert texts(denominator, "mi") == ["n"] and texts(denominator, "mo") == ["+"]


def test_sum_with_limits():
    math = parse(render_math(r"\sum_{i=1}^{n} i^2", display=True))
    (subsup,) = math.iter(f"{M}munderover") if "munderover" in tags(math) else math.iter(f"{M}msubsup")
    operator, lower, upper = list(subsup)
    assert operator.text == "\u2211"
    assert texts(lower, "mi") == ["i"] and texts(lower, "mn") == ["1"]
    assert texts(upper, "mi") == ["n"]
    assert "msup" in tags(math)


def test_matrix():
    math = parse(render_math(r"\begin{pmatrix} a & b \\ c & d \end{pmatrix}", display=True))
    (table,) = math.iter(f"{M}mtable")
    rows = [[texts(cell, "mi") for cell in row] for row in table]
    assert rows == [[["a"], ["b"]], [["c"], ["d"]]]
    assert [e.text for e in math.iter(f"{M}mo")][:1] == ["("]


def test_aligned_becomes_a_table():
    math = parse(render_math(r"\begin{aligned} a &= b + c \\ d &= e \end{aligned}", display=True))
    (table,) = math.iter(f"{M}mtable")
    assert len(list(table)) == 2
    assert "&" not in "".join(texts(math, "mi") + texts(math, "mo"))


def test_greek_and_symbols():
    math = parse(render_math(r"\alpha + \beta \le \Gamma \cdot \pi \to \infty"))
    assert texts(math, "mi")[:2] == ["\u03b1", "\u03b2"]
    symbols = "".join(texts(math, "mi") + texts(math, "mo"))
    for char in ("\u2264", "\u0393", "\u00b7", "\u03c0", "\u2192", "\u221e"):
        assert char in symbols


def test_katex_only_capital_greek_letters():
    assert math_error(r"\Beta + \Alpha") is None
    assert "B" in "".join(parse(render_math(r"\Beta")).itertext())


def test_text_and_special_characters_are_escaped():
    html = render_math(r"a < b \text{<script>alert(1)</script>} \& c")
    assert "<script>" not in html
    math = parse(html)
    assert texts(math, "mtext") == ["<script>alert(1)</script>"]
    assert "<" in texts(math, "mo") and "&" in texts(math, "mi")


def test_links_are_dropped():
    html = render_math(r"\href{javascript:alert(1)}{x}")
    assert "href" not in html.replace(r"\href", "")
    assert texts(parse(html), "mi") == ["x"]


@pytest.mark.parametrize(
    ("tex", "fragment"),
    [
        (r"\frac{a}{", "brace"),
        (r"x^", "superscript"),
        (r"\left( x", "\\right"),
        (r"\begin{pmatrix} 1 & 2", "\\end"),
        (r"\notacommand{x}", "unknown command \\notacommand"),
        (r"a_b_c", "double subscript"),
        (r"\begin{tikzpicture}x\end{tikzpicture}", "unsupported environment"),
        (r"a & b", "'&'"),
        (r"x}", "brace"),
        (r"\frac", "ends too early"),
        (r"\left(\right", "cannot parse"),
    ],
)
def test_malformed_input_gives_escaped_source_and_a_message(tex, fragment):
    message = math_error(tex)
    assert message and fragment in message
    for display in (False, True):
        html = render_math(tex, display)
        wrapper = ET.fromstring(html)
        (code,) = list(wrapper)
        assert code.tag == "code" and code.get("class") == "math-error"
        assert code.text == tex
    with pytest.raises(MathError) as raised:
        mathml(tex)
    assert raised.value.message == message and str(raised.value) == message


def test_error_source_is_html_escaped():
    html = render_math(r"<b>x</b> \oops")
    assert "<b>" not in html and "&lt;b&gt;" in html


def test_empty_formula_renders_empty_math():
    assert math_error("   ") is None
    assert list(parse(render_math("", display=True))) == []


def test_mathml_returns_the_bare_element():
    markup = mathml(r"\sqrt{2}", display=True)
    root = ET.fromstring(markup)
    assert root.tag == f"{M}math" and "msqrt" in tags(root)


def test_conversion_is_fast_enough():
    formulas = [
        rf"\sum_{{i={n}}}^{{N}} \frac{{x_i^2}}{{\sigma^2}} + \int_0^\infty e^{{-x}}\,dx" for n in range(200)
    ]
    start = time.perf_counter()
    for tex in formulas:
        render_math(tex, True)
    first = time.perf_counter() - start
    assert first < 2.0, f"{len(formulas) / first:.0f} conversions/s"
    start = time.perf_counter()
    for _ in range(20):
        for tex in formulas:
            render_math(tex, True)
    assert time.perf_counter() - start < first  # repeated formulas come from the cache


def test_mathml_lays_out_in_the_browser(page):
    """Chromium's MathML: a display fraction is taller than inline text, with no script on the page."""
    inline = render_math("E = mc^2")
    display = render_math(r"x = \frac{-b \pm \sqrt{b^2-4ac}}{2a}", display=True)
    page.set_content(
        f"<!doctype html><html><body style='font-size:16px'><p id='inline'>Energy {inline} here.</p>{display}"
    )
    assert page.evaluate("document.scripts.length") == 0
    frac_box = page.locator("div.math-display mfrac").bounding_box()
    inline_box = page.locator("#inline math").bounding_box()
    assert frac_box["height"] > 1.5 * inline_box["height"] > 0
    assert page.locator("#inline annotation").is_hidden()
