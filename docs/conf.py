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

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx_click",
    "sunbot_observations",
]

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "_ext", "screenshots/README.md"]

myst_enable_extensions = ["colon_fence", "deflist", "fieldlist"]
myst_heading_anchors = 3

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "show-inheritance": False}
napoleon_google_docstring = True
napoleon_numpy_docstring = False
# "Attributes:" sections become fields of their class, so a dataclass field that autodoc
# also lists is described once.
napoleon_use_ivar = True

html_theme = "furo"
html_title = f"sunbot {release}"
