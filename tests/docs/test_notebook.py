"""``sunbot.bench(...)`` in a real notebook: a Jupyter kernel runs the cells, the pool's
workers start (spawned: the kernel runs threads), the result shows as HTML tables and
converts to pandas (marked ``notebook``: ``pip install '.[notebook]'``; ``.ci/run`` runs it)."""

from __future__ import annotations

from pathlib import Path

import pytest

CELLS = [
    "import sunbot\n"
    "from sunbot.bench.backends import start_method\n"
    "print(start_method())\n"
    "result = sunbot.bench('naptuft', ['balancer', 'rotation'], seeds=range(1, 9), cap=1,"
    " workers=2)\n"
    "result",
    "frame = result.to_pandas()\nprint(list(frame['strategy']), len(result.to_pandas('rows')))",
    "sunbot.tournament('naptuft', ['balancer', 'rotation'], seeds=range(1, 7), cap=1, workers=2)",
]


@pytest.mark.notebook
def test_bench_and_tournament_in_a_notebook(tmp_path: Path) -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    nbclient.NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    first, second, third = (cell.outputs for cell in nb.cells)
    assert first[0]["text"] == "spawn\n"  # the kernel runs threads: no fork under them
    shown = first[-1]["data"]["text/html"]
    assert shown.count("<table>") == 2 and "balancer scores " in shown
    assert second[0]["text"] == "['balancer', 'rotation'] 16\n"
    assert "balancer leads" in third[-1]["data"]["text/html"]
