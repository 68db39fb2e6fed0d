"""docsgen.common.safeload: JSON and YAML nesting is measured on the text before any parser sees it."""

from __future__ import annotations

import pytest
import yaml

from docsgen.common.safeload import NestingError, check_nesting, load_json, load_yaml


def test_ordinary_documents_load():
    assert load_json('{"a": [1, {"b": "[[[ not nesting ]"}]}') == {"a": [1, {"b": "[[[ not nesting ]"}]}
    assert load_yaml("a:\n  - b: '[[[['\n  - {c: [1, 2]}\n") == {"a": [{"b": "[[[["}, {"c": [1, 2]}]}


@pytest.mark.parametrize(
    ("syntax", "text", "line", "column"),
    [
        ("json", '{"a":' * 300 + "1" + "}" * 300, 1, 5 * 256 + 1),
        ("json", '["]]]]",\n' + "[" * 300 + "]" * 301, 2, 256),
        ("yaml", "x: " + "[" * 50_000 + "]" * 50_000, 1, 4 + 255),
        ("yaml", "x:\n" + "".join(" " * i + "- \n" for i in range(1, 400)), 257, 257),
        ("yaml", "- " * 50_000 + "x\n", 1, 2 * 256 + 1),
    ],
)
def test_too_deep_is_located(syntax, text, line, column):
    with pytest.raises(NestingError) as exc:
        check_nesting(text, 256, syntax=syntax)
    assert (exc.value.line, exc.value.column, exc.value.limit) == (line, column, 256)
    assert "nested more than 256 levels deep" in str(exc.value)


def test_brackets_in_yaml_strings_are_no_false_alarm():
    text = "a: '" + "[" * 1000 + "'\nb: \"" + "{" * 1000 + '"\nc: |\n  ' + "[" * 1000 + "\n"
    check_nesting(text, 256, syntax="yaml")  # counted as possible nesting, then measured exactly: fine
    assert load_yaml(text)["a"] == "[" * 1000


def test_syntax_errors_are_left_to_the_parser():
    check_nesting("a: [1, 2", 256, syntax="yaml")
    with pytest.raises(yaml.YAMLError):
        load_yaml("a: [1, 2")
