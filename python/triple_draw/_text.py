"""Plain-text tables for the terminal (the simulation summary, the CLI, the play screen)."""

from __future__ import annotations

from collections.abc import Collection, Sequence


def format_table(
    rows: Sequence[Sequence[str]], right: Collection[int] = (), *, rule: bool = True
) -> list[str]:
    """Lines of a table: columns padded to their widest cell, those in ``right`` aligned
    right, two spaces between columns, and (with ``rule``) a dashed line under the first
    row."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for k, r in enumerate(rows):
        cells = [
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(r, widths, strict=True))
        ]
        lines.append("  ".join(cells).rstrip())
        if k == 0 and rule:
            lines.append("  ".join("-" * w for w in widths).rstrip())
    return lines
