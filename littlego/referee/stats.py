"""Match statistics: win rates with Wilson intervals, Elo differences, per-move costs.

`summary_rows(records, names)` turns GameRecords into one row per player and colour (Black,
White, both); `format_table(rows)` prints them. The Elo interval is the Elo of the Wilson
interval's ends (the logistic map is monotonic), so it is infinite on a side where the
observed rate is 0% or 100%.
"""

import math

from littlego.referee import judge
from littlego.referee.game import SIDES
from littlego.referee.protocol import END_RESIGN, END_TIME
from littlego.referee.rules import BLACK, WHITE

Z_95 = 1.959963984540054
ELO_SCALE = 400.0
COLOUR_LABELS = ((BLACK, "Black"), (WHITE, "White"), (None, "both"))
LOSS_REASONS = ((END_TIME, "time"), (judge.END_ILLEGAL, "illegal"),
                (judge.END_BAD_OUTPUT, "bad"), (END_RESIGN, "resign"))


def wilson_interval(wins, games, z=Z_95):
    """The Wilson score interval of a win rate; (0, 1) when there are no games."""
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    denominator = 1 + z * z / games
    centre = (rate + z * z / (2 * games)) / denominator
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / denominator
    # At 0 or all wins one end is exactly 0 or 1; rounding must not turn it into 1e-17.
    low = 0.0 if wins == 0 else centre - half
    high = 1.0 if wins == games else centre + half
    return low, high


def elo_difference(rate):
    """The Elo difference that makes `rate` the expected score; infinite at 0 and 1."""
    if rate <= 0:
        return -math.inf
    if rate >= 1:
        return math.inf
    return -ELO_SCALE * math.log10(1 / rate - 1)


def percentile(values, share):
    """The nearest-rank percentile: the smallest value with `share` of the values at or below it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def _mean(values):
    return sum(values) / len(values) if values else 0.0


def summary_rows(records, names):
    """One dict per (player, colour) for the players `names`, colour None meaning both."""
    rows = []
    for name in names:
        for colour, label in COLOUR_LABELS:
            sides = [SIDES[c] for c in (BLACK, WHITE) if colour in (None, c)]
            games = [(record, side) for record in records for side in sides
                     if record[side] == name]
            lost = [record["reason"] for record, side in games
                    if record["winner_name"] != name]
            wins = len(games) - len(lost)
            low, high = wilson_interval(wins, len(games))
            cpu = [t for record, side in games for t in record["cpu"][side]]
            wall = [t for record, side in games for t in record["wall"][side]]
            row = {"player": name, "colour": label, "games": len(games), "wins": wins,
                   "win_rate": wins / len(games) if games else 0.0,
                   "wilson_low": low, "wilson_high": high,
                   "elo": elo_difference(wins / len(games)) if games else 0.0,
                   "elo_low": elo_difference(low), "elo_high": elo_difference(high),
                   "cpu_mean": _mean(cpu), "cpu_max": max(cpu, default=0.0),
                   "wall_mean": _mean(wall), "wall_max": max(wall, default=0.0)}
            for reason, column in LOSS_REASONS:
                row["lost_" + column] = lost.count(reason)
            rows.append(row)
    return rows


def _elo_text(value):
    if math.isfinite(value):
        return "{:+d}".format(int(round(value)))
    return "+inf" if value > 0 else "-inf"


TABLE_HEADER = ("player", "colour", "games", "wins", "win%", "95% CI", "Elo", "Elo 95% CI",
                "cpu/move mean,max", "wall/move mean,max", "lost: time", "illegal", "bad",
                "resign")


def format_table(rows):
    """A fixed-width text table of `summary_rows`, one line per row."""
    lines = [TABLE_HEADER]
    for row in rows:
        lines.append((
            row["player"], row["colour"], str(row["games"]), str(row["wins"]),
            "{:.1f}".format(100 * row["win_rate"]),
            "[{:.1f}, {:.1f}]".format(100 * row["wilson_low"], 100 * row["wilson_high"]),
            _elo_text(row["elo"]),
            "[{}, {}]".format(_elo_text(row["elo_low"]), _elo_text(row["elo_high"])),
            "{:.3f}, {:.3f}".format(row["cpu_mean"], row["cpu_max"]),
            "{:.3f}, {:.3f}".format(row["wall_mean"], row["wall_max"]),
            str(row["lost_time"]), str(row["lost_illegal"]), str(row["lost_bad"]),
            str(row["lost_resign"])))
    widths = [max(len(line[k]) for line in lines) for k in range(len(TABLE_HEADER))]
    return "\n".join("  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip()
                     for line in lines)
