"""Clipping outside text (sunbot._text.safe.clip): the count of what was left out."""

from __future__ import annotations

from sunbot._text.safe import clip


def test_clip_counts_the_characters_left_out() -> None:
    assert clip("abcdef", 4) == "abcd… (2 more characters)"
    assert clip("abc", 4) == "abc"


def test_clipping_clipped_text_still_counts_from_the_whole() -> None:
    """A 100,015-character reason cut to 300, then to 270 further on, says 99,745 more."""
    text = "x" * 100_015
    once = clip(text, 300)
    assert once.endswith("… (99715 more characters)")
    twice = clip(once, 270)
    assert twice == "x" * 270 + "… (99745 more characters)"
    # a kept part already within the new limit keeps its count as it is
    assert clip(once, 310) == once
