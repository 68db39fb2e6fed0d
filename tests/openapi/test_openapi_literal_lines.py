"""Lines of generated samples coloured from a template (docsgen.openapi.render.literal_lines) == Pygments."""

from __future__ import annotations

import json
import string

import pytest

from docsgen.openapi.render.highlight import _chunks, lex_block
from docsgen.openapi.render.literal_lines import LiteralLines
from tests.openapi.test_openapi_highlight import generated_samples
from tests.openapi_real import github_spec, oas_examples

# One line per language as the generators write it (the URL line) and a request body line, with TEXT in place.
SHAPES = {
    "python": ['url = "TEXT"', '    "TEXT": "TEXT",', 'response = requests.request("GET", "TEXT")'],
    "javascript": ['fetch("TEXT", options)', '    "TEXT": "TEXT"', 'const url = "TEXT";'],
    "go": ['\turl := "TEXT"', '\treq.Header.Add("TEXT", "TEXT")', "\tpayload := strings.NewReader(`TEXT`)"],
    "java": ['    .uri(URI.create("TEXT"))', '    .header("TEXT", "TEXT")'],
    "ruby": ["url = URI('TEXT')", "request['TEXT'] = 'TEXT'", "request.body = 'TEXT'"],
    "php-code": ["  CURLOPT_URL => 'TEXT',", "    'TEXT: TEXT',", "  CURLOPT_POSTFIELDS => 'TEXT',"],
}
TEXTS = [
    "https://api.example.com/orgs/{org}/repos?page=1&per_page=30",
    "https://api.example.com/a/{enterprise-team}/b/{x.y}/{0}/{}/{{z}}",
    "https://api.example.com/search?q=a%20b&labels=<string>&x=%(name)s",
    "#{interpolated} ${dollar} {$php} $var @ivar",
    "",
    " ",
    *(f"a{c}b" for c in string.printable if c not in "\n\r\x0b\x0c"),
    *(f"{c}{c}" for c in string.punctuation),
    "naïve ünïcode",
    '{\n  "name": "web",\n  "events": [\n    "push"\n  ]\n}',  # a JSON body over several lines
    "first\n\nthird after an empty line\n",
    "\nstarts on the next line",
    "back`tick and 'single' and \"double\" quotes",
]


def _compare(lines: LiteralLines, code: str, hl: str) -> bool:
    """Assert the template result equals Pygments' lines; return whether the template applied."""
    made = lines.lines(code, hl)
    if made is None:
        return False
    assert made == lex_block(code, hl), (hl, code)
    return True


def test_every_character_in_a_literal_matches_pygments():
    lines = LiteralLines(lex_block)
    applied: dict[str, int] = {}
    for hl, shapes in SHAPES.items():
        for shape in shapes:
            for text in TEXTS:
                quote = "`" if "`TEXT`" in shape else "'" if hl in ("ruby", "php-code") else '"'
                if quote in text or "\\" in text:
                    continue  # a generator escapes these: not one plain literal any more
                applied[hl] = applied.get(hl, 0) + _compare(lines, shape.replace("TEXT", text), hl)
    # the fast path is taken for ordinary text in every language, not only declined
    assert all(count > 50 for count in applied.values()), applied


def test_code_that_changes_what_a_literal_is_goes_to_the_lexer():
    lines = LiteralLines(lex_block)
    risky = {
        "python": ['url = f"{org}"', 'url = r"a{b}"', '# "a{b}"', '"a""b"', "x = 'a' + \"b\"", 'x = "a\\"b"'],
        "javascript": ["x = `a${b}`", '// "a"', 'x = /"a"/'],
        "ruby": ['x = "#{a}"', "x = '#{a}'", "# 'a'", "x = %q('a')"],
        "php-code": ["$x = 'a' . $b;", "# 'a'", "// 'a'"],
        "go": ['x := `a` + "b"', '// "a"'],
        "java": ['x = """', '// "a"'],
    }
    for hl, codes in risky.items():
        for code in codes:
            _compare(lines, code, hl)  # either declined or exactly Pygments' line
    assert lines.lines('url = f"{org}"', "python") is None
    assert lines.lines("x = '#{a}'", "ruby") is None
    assert lines.lines('url = "a\nb"', "python") is None  # not a literal that spans lines in Python


def _check_spec(data: dict, lines: LiteralLines, limit: int) -> tuple[int, int]:
    applied = total = 0
    for hl, codes in generated_samples(data, limit=limit).items():
        chunks_hl = "php-code" if hl == "php" else hl
        for code in codes:
            for chunk in _chunks(code) or [code]:
                total += 1
                applied += _compare(lines, chunk, chunks_hl)
    return applied, total


@pytest.mark.slow
def test_real_specs_samples_match_pygments_line_for_line():
    """Every one-line chunk of GitHub's and ReadMe's example specs' generated samples."""
    lines = LiteralLines(lex_block)
    applied, total = _check_spec(json.loads(github_spec().read_text()), lines, limit=2000)
    assert applied > 5000, (applied, total)  # the URL line of every sample, most body lines
    for file in sorted(oas_examples().glob("3.*/json/*.json")):
        data = json.loads(file.read_text(encoding="utf-8"))
        if isinstance(data, dict) and "openapi" in data:
            _check_spec(data, lines, limit=200)
