"""Item 3: the replay page labels the step's action as the one that led to the position."""

from sunbot.html import page


def test_the_action_label_says_it_led_here() -> None:
    source = page.__loader__.get_source(page.__name__)  # type: ignore[union-attr]
    assert source is not None
    assert '<span class="k">the action that led here</span><span id="action">' in source
