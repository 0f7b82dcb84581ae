"""The CSV-injection rule: text a spreadsheet would run as a formula gets a quote in front."""

from __future__ import annotations

import csv
import io

import pytest

from sunbot._text.csv_cells import cell, mapping, row


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ('=HYPERLINK("http://127.0.0.1/x","click")', '\'=HYPERLINK("http://127.0.0.1/x","click")'),
        ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
        ("-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"),
        ("@SUM(1+1)", "'@SUM(1+1)"),
        ("\t=1+1", "'\t=1+1"),
        ("\r=1+1", "'\r=1+1"),
        ("-1e3x", "'-1e3x"),
        ("--", "'--"),
    ],
)
def test_a_formula_gets_a_quote_in_front(value, written):
    assert cell(value) == written


@pytest.mark.parametrize(
    "value",
    ["-3", "+1.5", "-1,234", "-2e-3", "-12.5%", "-", "plain text", "a=b", "", "1-2"],
)
def test_plain_numbers_and_text_stay_as_they_are(value):
    assert cell(value) == value


@pytest.mark.parametrize("value", [-3, -2.5, True, None, 0])
def test_non_text_values_are_returned_unchanged(value):
    assert cell(value) is value


def test_rows_and_mappings_round_trip_through_csv():
    buf = io.StringIO()
    csv.writer(buf).writerow(row(["keelhold", -3, "=1+1", "-4.5"]))
    assert next(csv.reader(io.StringIO(buf.getvalue()))) == ["keelhold", "-3", "'=1+1", "-4.5"]
    assert mapping({"a": "@x", "b": 7}) == {"a": "'@x", "b": 7}
