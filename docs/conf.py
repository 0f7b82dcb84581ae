"""Sphinx configuration for sunbot's documentation site (MyST Markdown, furo theme).

Build: ``pip install '.[docs]' && sphinx-build -W --keep-going -b html docs docs/_build/html``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import sunbot

_HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(_HERE / "_ext"))

project = "sunbot"
author = "the sunbot developers"
copyright = "the sunbot developers"
release = sunbot.__version__
version = release

# The reference pages (observation tables, CLI, API) are Markdown generated from the code
# and committed (docs/_ext/sunbot_pages.py), so they read the same as files; the
# extension warns at build time when one is stale.
extensions = [
    "myst_parser",
    "sunbot_pages",
]

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "_ext", "screenshots/README.md"]

myst_enable_extensions = ["colon_fence", "deflist", "fieldlist"]
myst_heading_anchors = 3

# No typographic quotes or dashes: `--server` outside a code span must stay two hyphens,
# as a shell needs it when pasted.
smartquotes = False

html_theme = "furo"
html_title = f"sunbot {release}"
