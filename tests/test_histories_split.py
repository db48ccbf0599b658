"""Cutting a file into hands: the whole-text cut (a search for the header lines) and the
line-by-line cut that streams a file hold the same hands, line numbers and sites."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from triple_draw.histories._text import _split_text, split_hands, split_lines

FRAGMENTS = [
    "PokerStars Hand #228031563518:  Triple Draw 2-7 Lowball Limit ($0.10/$0.20 USD) - x",
    "PokerStars Game #12: Razz",
    "PokerStars Tournament: not a header",
    "Full Tilt Poker Game #33: Table T - $1/$2 - Limit 2-7 Triple Draw - y",
    "FullTiltPoker Game #34: z",
    "FullTilt Poker Game #35: z",
    "Full house talk",
    "Winamax Poker - CashGame - HandId: #1-2-3 - 2-7 Triple Draw fixed limit",
    " PokerStars Hand #9: not a header (it does not start the line)",
    "Seat 1: jo smith ($4.10 in chips)",
    "jo: folds",
    "",
    "   ",
    "\t",
    "*** SUMMARY ***",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=40), st.booleans())
def test_the_whole_text_cut_is_the_line_cut(lines, final_newline):
    text = "\n".join(lines) + ("\n" if final_newline else "")
    assert list(_split_text(text)) == list(split_lines(text.split("\n")))


def test_split_hands_numbers_lines_after_a_bom_and_crlf():
    text = "\ufeffchat\r\nPokerStars Hand #1: a\r\nb\r\n\r\nWinamax Poker - c\rd\r\n"
    assert list(split_hands(text)) == [
        ("pokerstars", 2, ["PokerStars Hand #1: a", "b"]),
        ("winamax", 5, ["Winamax Poker - c", "d"]),
    ]
