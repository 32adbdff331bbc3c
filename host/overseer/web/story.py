"""The game's story, from its record: the record folded again (in the server's thread, from
the watcher's copy of the log), the party looked at after every event: the rounds, each hero's
health and gold at the end of every round, the AI pieces each hero destroyed, the damage each
took. ``chart`` draws the health and gold lines as SVG on the server (no chart library, no CDN).

A game's table tells its story (``Table.story``: Catacombs'); a game without one has none,
its page shows its state (web/party.py).
"""

from __future__ import annotations

from html import escape

from overseer import games
from overseer.app.flow import table
from overseer.app.story import Story
from overseer.web.watch import Record

LEGEND_LINE = 18  # the legend's lines, in the chart's units
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")


def story(record: Record) -> Story | None:
    """The story of a game's record, as its table tells it (None: the game has none)."""
    return table(record.game).story(games.get(record.game), record)


def chart(series: dict[str, list[int]], names: dict[str, str], title: str,
          width: int = 480, height: int = 200) -> str:
    """One line per hero over the rounds, as an SVG element (its own axes, and its legend
    under the plot, a hero a line across the whole width: no name is cut on a phone)."""
    left, right, top, bottom = 36, 16, 22, 34
    rounds = max((len(v) for v in series.values()), default=0)
    high = max((max(v) for v in series.values() if v), default=1) or 1
    plot_w, plot_h = width - left - right, height - top - bottom
    full = height + LEGEND_LINE * len(series) + 6  # the legend's lines under the plot

    def x(i: int) -> float:
        return left + (plot_w * i / max(rounds - 1, 1))

    def y(v: int) -> float:
        return top + plot_h - plot_h * v / high

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" '
             f'viewBox="0 0 {width} {full}" width="{width}" height="{full}">',
             f'<title>{escape(title)}</title>',
             f'<text x="{left}" y="14" class="chart-title">{escape(title)}</text>',
             f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" '
             'stroke="#888"/>',
             f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_h}" stroke="#888"/>',
             f'<text x="{left - 6}" y="{y(high) + 4:.1f}" text-anchor="end">{high}</text>',
             f'<text x="{left - 6}" y="{top + plot_h + 4}" text-anchor="end">0</text>']
    for i in range(rounds):
        parts.append(f'<text x="{x(i):.1f}" y="{top + plot_h + 15}" text-anchor="middle">'
                     f'{i + 1}</text>')
    for n, (hero, values) in enumerate(series.items()):
        colour = COLOURS[n % len(COLOURS)]
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
        parts.append(f'<polyline class="line" data-hero="{escape(hero)}" fill="none" '
                     f'stroke="{colour}" stroke-width="2" points="{points}"/>')
        for i, v in enumerate(values):
            parts.append(f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="3" fill="{colour}">'
                         f'<title>{escape(names.get(hero, hero))}, round {i + 1}: {v}</title>'
                         '</circle>')
        legend_y = height + 6 + LEGEND_LINE * n
        parts.append(f'<rect x="{left}" y="{legend_y + 3}" width="11" height="11" '
                     f'fill="{colour}"/>'
                     f'<text class="legend" x="{left + 16}" y="{legend_y + 13}">'
                     f'{escape(names.get(hero, hero))}</text>')
    parts.append(f'<text x="{left + plot_w / 2:.1f}" y="{top + plot_h + 30}" '
                 'text-anchor="middle">'
                 'round</text></svg>')
    return "".join(parts)
