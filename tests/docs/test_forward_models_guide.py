"""The guide's worked example is the example file, as it is."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_worked_example_is_the_example_file_but_its_docstring() -> None:
    source = (ROOT / "examples/forward_models/maze_runner.py").read_text()
    body = source.split('"""', 2)[2].lstrip("\n")
    guide = (ROOT / "docs/guide-forward-models.md").read_text()
    assert f"```python\n{body}```" in guide
