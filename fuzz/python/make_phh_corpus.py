"""Write the seed corpus of the PHH fuzz target (``fuzz/python/corpus/phh/``).

A few small hands that between them use every part of the format: a hand won at once, a
showdown, a draw left unfinished, antes, a player's view with ``??`` cards and reshuffles,
a PokerKit-style hand with no triple_draw fields, a ``.phhs`` file of two hands, and a
raked heads-up hand with burn cards and the declare-then-deal draw.

    python fuzz/python/make_phh_corpus.py
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import tomli_w

from triple_draw import Hand, Rules, phh

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

OUT = Path(__file__).resolve().parent / "corpus" / "phh"
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))
from conftest import play_randomly  # noqa: E402 - the tests' helper, by path


def play(hand: Hand, rng: random.Random, steps: int | None = None, heavy: float = 0.3) -> Hand:
    """The tests' seeded random play (tests/conftest.py), folding with weight 1 in 7."""
    return play_randomly(hand, rng, draw_heavy=heavy, weight=6, steps=steps)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    files = {}
    h = Hand(Rules(), [100, 100, 100], button=2, seed=3)
    h.fold()
    h.fold()
    files["won-at-once.phh"] = phh.dumps(h)
    showdown = play(Hand(Rules(), [200, 200, 200, 200], button=1, seed=7), random.Random(7))
    files["showdown.phh"] = phh.dumps(showdown, event="Club night", hand=1)
    files["in-progress.phh"] = phh.dumps(
        play(Hand(Rules.online(), [60, 60, 60], seed=11), random.Random(11), steps=9)
    )
    files["antes.phh"] = phh.dumps(
        play(Hand(Rules(ante=1), [9, 40, 1000], seed=5), random.Random(5))
    )
    big = play(
        Hand(Rules(max_players=8, reshuffle="pokerstars"), [1000] * 8, button=3, seed=2),
        random.Random(2),
        heavy=0.7,
    )
    files["view-reshuffles.phh"] = phh.dumps(big, viewer=4)
    doc = tomllib.loads(phh.dumps(showdown))
    del doc["seats"], doc[phh.RULES_FIELD]
    files["pokerkit-style.phh"] = tomli_w.dumps(doc)
    files["two-hands.phhs"] = phh.dumps_all([h, showdown])
    # a raked heads-up hand with burn cards and the declare-then-deal draw
    raked = Rules(rake_percent=5, rake_cap=3, burn_cards=True, draw_procedure="declare-then-deal")
    files["raked-heads-up.phh"] = phh.dumps(
        play(Hand(raked, [300, 150], button=0, seed=13), random.Random(13), heavy=0.6)
    )
    for name, text in files.items():
        (OUT / name).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
