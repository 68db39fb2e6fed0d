"""Charts drawn by the server as inline SVG: no chart library, nothing fetched by the browser."""

from __future__ import annotations

import math
from html import escape

from markupsafe import Markup

SOURCE_COLORS = {
    "contextual": "#0d7f66",
    "thumbs_only": "#b45309",
    "code_snippet": "#6d28d9",
    "agent": "#1d4ed8",
}
SOURCE_LABELS = {
    "contextual": "Comment",
    "thumbs_only": "Thumbs only",
    "code_snippet": "Code comment",
    "agent": "AI agent",
}
HELPFUL, NOT_HELPFUL = "#15803d", "#b91c1c"


def _nice_max(value: int) -> int:
    """Round an axis maximum up to 1, 2 or 5 times a power of ten."""
    if value <= 4:
        return max(value, 1)
    power = 10 ** math.floor(math.log10(value))
    for step in (1, 2, 5, 10):
        if value <= step * power:
            return step * power
    return 10 * power


def per_day_chart(days: list[dict]) -> Markup:
    """Stacked bars of feedback per UTC day, one colour per source, with an axis, legend and per-bar titles."""
    width, height, left, bottom, top = 640, 220, 36, 28, 12
    plot_w, plot_h = width - left - 8, height - bottom - top
    totals = [sum(d[s] for s in SOURCE_COLORS) for d in days]
    y_max = _nice_max(max(totals, default=0))
    slot = plot_w / max(len(days), 1)
    bar = max(1.0, slot * 0.75)
    total_all = sum(totals)
    parts = [
        f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" aria-labelledby="chart-day-t chart-day-d"'
        ' xmlns="http://www.w3.org/2000/svg">',
        '<title id="chart-day-t">Feedback per day by source</title>',
        f'<desc id="chart-day-d">{total_all} entries from {escape(days[0]["day"]) if days else ""} to '
        f"{escape(days[-1]['day']) if days else ''}; the table below lists the numbers.</desc>",
    ]
    steps = y_max if y_max <= 5 else 5  # _nice_max gives 1-4 or a multiple of 5: whole-number ticks
    for i in range(steps + 1):  # horizontal grid lines with their values
        value = y_max * i // steps
        y = top + plot_h - plot_h * i / steps
        label = str(value)
        parts.append(f'<line x1="{left}" x2="{width - 8}" y1="{y:.1f}" y2="{y:.1f}" class="grid"/>')
        parts.append(f'<text x="{left - 4}" y="{y + 4:.1f}" text-anchor="end" class="axis">{label}</text>')
    label_every = max(1, math.ceil(len(days) / 8))
    for index, day in enumerate(days):
        x = left + index * slot + (slot - bar) / 2
        y = top + plot_h
        tip = ", ".join(f"{day[s]} {SOURCE_LABELS[s].lower()}" for s in SOURCE_COLORS if day[s])
        parts.append(f'<g class="day"><title>{escape(day["day"])}: {escape(tip or "no feedback")}</title>')
        for source, color in SOURCE_COLORS.items():
            if not day[source]:
                continue
            h = plot_h * day[source] / y_max
            y -= h
            parts.append(
                f'<rect x="{x:.1f}" y="{y:.1f}" width="{bar:.1f}" height="{h:.1f}" fill="{color}"'
                f' data-source="{source}" data-count="{day[source]}"/>'
            )
        parts.append("</g>")
        if index % label_every == 0:
            parts.append(
                f'<text x="{x + bar / 2:.1f}" y="{height - 10}" text-anchor="middle" class="axis">'
                f"{escape(day['day'][5:])}</text>"
            )
    parts.append("</svg>")
    return Markup("".join(parts))


def helpful_chart(helpful: int, not_helpful: int) -> Markup:
    """One bar split into helpful and not helpful, with counts and percentages written on it."""
    width, height = 640, 56
    total = helpful + not_helpful
    parts = [
        f'<svg class="chart ratio" viewBox="0 0 {width} {height}" role="img"'
        ' aria-labelledby="chart-ratio-t" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="chart-ratio-t">Helpful {helpful}, not helpful {not_helpful}</title>',
    ]
    if total == 0:
        parts.append(f'<rect x="0" y="8" width="{width}" height="28" class="empty"/>')
        parts.append(f'<text x="{width / 2}" y="27" text-anchor="middle" class="axis">no ratings yet</text>')
    else:
        good_w = width * helpful / total
        share = round(100 * helpful / total)
        parts.append(
            f'<rect x="0" y="8" width="{good_w:.1f}" height="28" fill="{HELPFUL}" data-count="{helpful}"/>'
        )
        parts.append(
            f'<rect x="{good_w:.1f}" y="8" width="{width - good_w:.1f}" height="28" fill="{NOT_HELPFUL}"'
            f' data-count="{not_helpful}"/>'
        )
        parts.append(f'<text x="4" y="52" class="axis">{helpful} helpful ({share}%)</text>')
        parts.append(
            f'<text x="{width - 4}" y="52" text-anchor="end" class="axis">'
            f"{not_helpful} not helpful ({100 - share}%)</text>"
        )
    parts.append("</svg>")
    return Markup("".join(parts))
