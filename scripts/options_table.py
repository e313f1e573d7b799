"""Prints the Markdown table of every installed game's options (docs/analysis.md, "What a designer can sweep").

.venv/bin/python scripts/options_table.py
"""

from __future__ import annotations

import henge
from henge.analysis.command import options_markdown

if __name__ == "__main__":
    print(options_markdown(henge.list_games()))
