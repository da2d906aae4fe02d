"""Integers in JSON that safereq did not write (issue 25, item 11): a fragment or a review-file line with a
5,000-digit integer was an "internal error" (Python's 4,300-digit limit); one of 400 digits was accepted and
printed whole. Both are now refused with a message that says what was found."""

from __future__ import annotations

import json

import pytest

from safereq.fragment import format as fragment_format
from safereq.impact.review_state import ReviewStateError, parse
from safereq.workspace.json_input import MAX_DIGITS, NumberTooLong, loads


def test_ordinary_numbers_are_read_and_long_ones_refused():
    assert loads('{"span": [1, 2, 3, 4], "big": -123456789012345678, "x": 1.5e300}') == {
        "span": [1, 2, 3, 4], "big": -123456789012345678, "x": 1.5e300}
    for digits in (MAX_DIGITS + 1, 400, 5000):
        with pytest.raises(NumberTooLong, match=f"an integer of {digits} digits"):
            loads(f'[{"7" * digits}]')


@pytest.mark.parametrize("digits", [400, 5000])
def test_a_fragment_with_a_huge_integer_is_a_fragment_error(tmp_path, digits):
    path = tmp_path / "f.json"
    path.write_text(json.dumps({"format": "safereq-fragment", "version": 1, "source": "s", "inputs": "x",
                                "documents": [], "findings": [{"span": "SPAN"}]}).replace('"SPAN"', "9" * digits),
                    encoding="utf-8")
    with pytest.raises(fragment_format.FragmentError, match=f"not a fragment safereq wrote: it holds an integer "
                                                            f"of {digits} digits"):
        fragment_format.read(path)


def test_a_review_line_with_a_huge_integer_is_a_review_file_error(tmp_path):
    text = '{"format": "safereq-review", "version": 1}\n{"link": "FSR-1>SG-1", "n": ' + "9" * 5000 + "}\n"
    with pytest.raises(ReviewStateError, match="line 2 is not a line safereq wrote: it holds an integer of 5000"):
        parse(text, tmp_path / "safereq-review.jsonl")
