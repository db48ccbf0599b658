"""The ``review --html`` report: one self-contained HTML file (the plots are inline SVG
drawn by matplotlib, the ``review`` extra; no script, no link, nothing fetched) with the
review's net over the hands, the cost of the draws by draw, the draw frequencies by
position next to the reference bots', and the tables of the terminal report."""

from __future__ import annotations

import html
import io
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from triple_draw.errors import MissingExtraError

if TYPE_CHECKING:
    from triple_draw.review import Review

__all__ = ["render_html", "require_plotting", "write_html"]


def require_plotting() -> None:
    """Raise :class:`MissingExtraError` unless matplotlib can be imported."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise MissingExtraError(
            "the HTML report draws its plots with matplotlib: pip install 'triple_draw[review]'"
        ) from None


def _svg(fig: Any) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg") :]


def _plots(r: Review) -> dict[str, str]:
    require_plotting()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "triple_draw"  # the same SVG ids on every run
    doc = r.to_dict()
    out: dict[str, str] = {}

    fig, ax = plt.subplots(figsize=(8, 3.2))
    series = doc["net_over_hands"]
    ax.plot(range(1, len(series) + 1), series, color="#1f6feb", linewidth=1.2)
    ax.axhline(0, color="#888", linewidth=0.8)
    ax.set_xlabel("hand")
    ax.set_ylabel("net, big bets")
    ax.set_title(f"{r.hero}: net over {len(series)} hands")
    out["net"] = _svg(fig)

    fig, ax = plt.subplots(figsize=(8, 3.2))
    rows = doc["cost_by_draw"]
    labels = [f"draw {x['draw']}\n({x['decisions']} draws)" for x in rows]
    ax.bar(labels, [x["total_cost"] for x in rows], color="#d1242f")
    ax.set_ylabel("total cost (target finishes lost)")
    ax.set_title(f"Cost of the draw decisions by draw (target: {r.target}-low)")
    out["cost"] = _svg(fig)

    freqs = doc["frequencies"]
    draws = sorted({x["draw"] for x in freqs})
    fig, axes = plt.subplots(1, max(len(draws), 1), figsize=(4 * max(len(draws), 1), 3.6))
    axes_list = list(axes) if len(draws) > 1 else [axes]
    colours = ["#2da44e", "#1f6feb", "#8250df", "#bf8700", "#d1242f", "#57606a"]
    for ax, d in zip(axes_list, draws, strict=False):
        rows = [x for x in freqs if x["draw"] == d]
        names = [x["position"] for x in rows]
        bottom = [0.0] * len(rows)
        for k in range(6):
            vals = [x["hero"][k] for x in rows]
            ax.bar(
                names, vals, bottom=bottom, color=colours[k], label="pat" if k == 0 else f"draw {k}"
            )
            bottom = [b + v for b, v in zip(bottom, vals, strict=True)]
        for i, x in enumerate(rows):
            ref = x["reference"]
            if ref:  # the reference bots' share of pat and one-card draws: a tick
                ax.plot([i - 0.4, i + 0.4], [ref[0]] * 2, color="black", linewidth=1.5)
                ax.plot(
                    [i - 0.4, i + 0.4],
                    [ref[0] + ref[1]] * 2,
                    color="black",
                    linewidth=1,
                    linestyle="--",
                )
        ax.set_ylim(0, 1)
        ax.set_title(f"draw {d}")
    axes_list[0].set_ylabel("share of his draws")
    handles, names = axes_list[0].get_legend_handles_labels()
    fig.legend(handles, names, fontsize=8, loc="lower center", ncol=6, bbox_to_anchor=(0.5, -0.06))
    fig.suptitle(
        "Draw frequencies by position (black: the reference bots' pat share, "
        "dashed: pat or one card)",
        fontsize=9,
    )
    out["frequencies"] = _svg(fig)
    return out


def render_html(r: Review) -> str:
    """The report as one HTML text."""
    plots = _plots(r)
    e = html.escape
    lines = "\n".join(r.lines())
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>Review of {e(r.hero)}</title>
<style>
body {{ font-family: system-ui, sans-serif; max-width: 1100px; margin: 2em auto; color: #222; }}
pre {{ background: #f6f8fa; padding: 1em; overflow-x: auto; font-size: 12px; }}
figure {{ margin: 1.5em 0; }} figure svg {{ max-width: 100%; height: auto; }}
</style></head><body>
<h1>Review of {e(r.hero)}</h1>
<p id="measure">Draws judged by: {e(r.measure())}.</p>
<figure id="plot-net"><figcaption>Net over the hands</figcaption>{plots["net"]}</figure>
<figure id="plot-cost"><figcaption>Cost of the draw decisions by draw</figcaption>
{plots["cost"]}</figure>
<figure id="plot-frequencies"><figcaption>Draw frequencies by position</figcaption>
{plots["frequencies"]}</figure>
<h2>The report</h2>
<pre id="report">{e(lines)}</pre>
</body></html>
"""


def write_html(r: Review, path: str | os.PathLike[str]) -> None:
    """Write :func:`render_html` to ``path`` (through a temporary file beside it)."""
    p = Path(path)
    text = render_html(r)
    tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, p)
