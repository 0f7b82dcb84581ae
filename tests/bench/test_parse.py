"""--seeds, --seeds-file and --cap parsing."""

from __future__ import annotations

import pytest

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
        # negative seeds (sunbot play takes them), also as range ends
        ("-3,5", (-3, 5)),
        ("-5--3", (-5, -4, -3)),
        ("-1-1", (-1, 0, 1)),
        # the signed 64-bit limits the store keeps
        ("-9223372036854775808", (-(2**63),)),
        ("9223372036854775806-9223372036854775807", (2**63 - 2, 2**63 - 1)),
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
        ("--3", "'--3' is not a seed"),
        ("1--", "'1--' is not a seed"),
        ("1--3", "range '1--3' runs backwards"),
        ("\u0661", "is not a seed"),  # a non-ASCII digit
        ("99999999999999999999999", "seed 99999999999999999999999 does not fit a signed 64-bit"),
        ("1-9223372036854775808", r"9223372036854775808 \(in '1-9223372036854775808'\) does not"),
        ("-9223372036854775809", "does not fit a signed 64-bit integer"),
        ("9" * 5000, r"\(5000 digits\) does not fit"),  # past int()'s 4300-digit limit
        ("1.5", "'1.5' is not a seed"),
        ("", "no seeds"),
        ("1-2000000", "more than 1,000,000 seeds"),
    ],
)
def test_bad_seeds(text, message):
    with pytest.raises(ValueError, match=message):
        parse_seeds(text)


def test_seeds_file(tmp_path):
    f = tmp_path / "seeds.txt"
    f.write_text("# a comment\n1-3\n10, 12 # trailing\n\n3\n")
    assert read_seeds_file(f).values == (1, 2, 3, 10, 12)
    f.write_text("1\n2\nnine\n")
    with pytest.raises(ValueError) as info:
        read_seeds_file(f)
    assert str(info.value) == f"{f}:3: item 1 is not a seed N or a range A-B (A <= B)"
    f.write_text("# nothing\n")
    with pytest.raises(ValueError, match="lists no seeds"):
        read_seeds_file(f)
    with pytest.raises(ValueError, match="cannot read"):
        read_seeds_file(tmp_path / "missing.txt")


def test_seeds_file_with_negative_and_out_of_range_seeds(tmp_path):
    f = tmp_path / "seeds.txt"
    f.write_text("-3\n-2-0, 7 # mixed\n")
    assert read_seeds_file(f).values == (-3, -2, -1, 0, 7)
    f.write_text("1\n99999999999999999999999\n")
    with pytest.raises(ValueError, match=r"seeds.txt:2: a seed does not fit"):
        read_seeds_file(f)


def test_a_seeds_file_error_never_echoes_the_file(tmp_path):
    """Only the file name, the line, the item's position and a short reason: the file could be
    anything (a private document, megabytes on one line)."""
    f = tmp_path / "seeds.txt"
    secret = "password=hunter2"
    for text, where, why in [
        (f"1, 2\n3 {secret}\n", ":2: item 2", "is not a seed N or a range A-B"),
        ("1\n" + "x" * 100_000 + "\n", ":2: item 1", "is not a seed N or a range A-B"),
        ("7-3\n", ":1: range item 1", "runs backwards"),
        ("1\n" + "9" * 5000 + "\n", ":2: a seed", "does not fit a signed 64-bit integer"),
    ]:
        f.write_text(text)
        with pytest.raises(ValueError) as info:
            read_seeds_file(f)
        message = str(info.value)
        assert message.startswith(f"{f}{where}") and why in message
        assert secret not in message and "xxx" not in message and "999" not in message
        assert len(message) < len(str(f)) + 120


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfe1\n", r"is not a UTF-8 text file \(byte 0: invalid start byte\)"),
        (b"1\n2\n\xe9t\xe9\n", "is not a UTF-8 text file"),  # Latin-1
        (b"1\x00\x00\x002", "is a binary file"),  # valid UTF-8, but NULs
    ],
)
def test_binary_or_non_utf8_seeds_file_is_a_bad_parameter(tmp_path, content, message):
    f = tmp_path / "seeds.bin"
    f.write_bytes(content)
    with pytest.raises(ValueError, match=message):
        read_seeds_file(f)


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
        ("20", "expected voyages=N, days=N or steps=N"),
        ("turns=5", "expected voyages=N, days=N or steps=N"),
        ("days=x", "'x' is not an integer"),
        ("days=0", "at least 1"),
    ],
)
def test_bad_caps(text, message):
    with pytest.raises(ValueError, match=message):
        parse_cap(text)
