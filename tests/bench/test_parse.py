"""--seeds, --seeds-file and --cap parsing."""

from __future__ import annotations

import pytest
import typer

from sunbot.bench.parse import Cap, parse_cap, parse_seeds, read_seeds_file


@pytest.mark.parametrize(
    ("text", "seeds"),
    [
        ("1-5", (1, 2, 3, 4, 5)),
        ("7", (7,)),
        ("1,2,5-7", (1, 2, 5, 6, 7)),
        (" 3 , 1-2 ", (3, 1, 2)),
        ("1-3,2-4", (1, 2, 3, 4)),  # repeats dropped, first order kept
        ("0-0", (0,)),
    ],
)
def test_seed_lists_and_ranges(text, seeds):
    assert parse_seeds(text).values == seeds


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("5-1", "runs backwards"),
        ("a", "'a' is not a seed"),
        ("1-", "'1-' is not a seed"),
        ("-3", "'-3' is not a seed"),
        ("1.5", "'1.5' is not a seed"),
        ("", "no seeds"),
        ("1-2000000", "more than 1,000,000 seeds"),
    ],
)
def test_bad_seeds(text, message):
    with pytest.raises(typer.BadParameter, match=message):
        parse_seeds(text)


def test_seeds_file(tmp_path):
    f = tmp_path / "seeds.txt"
    f.write_text("# a comment\n1-3\n10, 12 # trailing\n\n3\n")
    assert read_seeds_file(f).values == (1, 2, 3, 10, 12)
    f.write_text("1\n2\nnine\n")
    with pytest.raises(typer.BadParameter, match=r"seeds.txt:3: 'nine'"):
        read_seeds_file(f)
    f.write_text("# nothing\n")
    with pytest.raises(typer.BadParameter, match="lists no seeds"):
        read_seeds_file(f)
    with pytest.raises(typer.BadParameter, match="cannot read"):
        read_seeds_file(tmp_path / "missing.txt")


@pytest.mark.parametrize(
    ("text", "cap"),
    [
        ("voyages=20", Cap("voyage", 20, "voyages=20")),
        ("voyage=3", Cap("voyage", 3, "voyage=3")),
        ("days=30", Cap("day", 30, "days=30")),
        ("DAYS=1", Cap("day", 1, "days=1")),
    ],
)
def test_caps(text, cap):
    assert parse_cap(text) == cap


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("20", "expected voyages=N or days=N"),
        ("turns=5", "expected voyages=N or days=N"),
        ("days=x", "'x' is not an integer"),
        ("days=0", "at least 1"),
    ],
)
def test_bad_caps(text, message):
    with pytest.raises(typer.BadParameter, match=message):
        parse_cap(text)
