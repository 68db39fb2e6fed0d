"""PositionIndex: line and column of JSON values, and no exception on text that is not JSON."""

import pytest

from docsgen.common.jsonpos import PositionIndex


def test_locates_values_and_keys():
    index = PositionIndex('{\n  "a": [1, {"b": "x"}]\n}')
    assert index.locate(("a", 1, "b")) == (2, 18)
    assert index.locate(("a",), key=True) == (2, 3)


@pytest.mark.parametrize(
    ("text", "found"),
    [('{"a": {"b": "x', (1, 13)), ('{"a": {"b": ', (1, 13)), ('"abc', (1, 1)), ('{"a" 1}', (1, 7))],
)
def test_malformed_text_keeps_the_positions_found_so_far(text, found):
    # an unterminated string, a missing value: the index stays partial and the nearest ancestor is located
    index = PositionIndex(text)
    assert index.locate(("a", "b")) == found
    assert index.duplicate_keys() == []
