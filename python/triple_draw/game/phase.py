"""The phases of a hand (ints in the hot path, names at the edges)."""

BET, DRAW, OVER = 0, 1, 2
PHASES = ("bet", "draw", "over")
