"""The one place where the server meets the engine's :class:`Table` and :class:`Hand`.

The server keeps its own record of the seating between hands (stacks by table seat, the
button) and asks :class:`Table` for each hand: the players dealt in are the seats given a
stack, and the button moves to the next of them after the last hand's button. Only
public APIs are used: ``Table(...)``, ``Table.new_hand``, ``Table.seat_map``,
``Hand.to_dict``/``from_dict``, ``Hand.view``, ``Hand.apply`` and ``phh.dumps``.

When :class:`Table` keeps sit-outs, missed blinds and its own ``to_dict`` (dead button,
posting to come in), this module is what changes: the runner calls only these functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from triple_draw import Card, phh
from triple_draw.game import Action, Hand, Rules, Table
from triple_draw.game.actions import ACTION_KINDS

__all__ = [
    "action_from_message",
    "deal",
    "hand_from_doc",
    "hand_to_doc",
    "history_text",
    "own_discards",
    "timeout_action",
]


def deal(
    rules: Rules, stacks: Sequence[int | None], last_button: int | None
) -> tuple[Hand, tuple[int, ...]]:
    """Start a hand among the table seats given a stack (``None``: not dealt in) with the
    button on the first of them after ``last_button`` (the first hand: the first of
    them). Returns the hand and its seat map (table seat of each hand seat). The deck is
    shuffled from OS entropy."""
    m = len(stacks)
    start = 0 if last_button is None else (last_button + 1) % m
    table = Table(rules, list(stacks), button=start)
    hand = table.new_hand()
    return hand, table.seat_map


def hand_to_doc(hand: Hand) -> dict[str, Any]:
    """The whole hand, deck included: for the store only, never for a client."""
    return hand.to_dict()


def hand_from_doc(doc: dict[str, Any]) -> Hand:
    hand: Hand = Hand.from_dict(doc)
    return hand


def action_from_message(d: dict[str, Any]) -> Action:
    """An :class:`Action` from a validated protocol action (cards as text)."""
    kind = d["kind"]
    if kind not in ACTION_KINDS:  # pragma: no cover - the schema already refuses it
        raise ValueError(f"unknown action {kind!r}")
    return Action.from_dict(d)


def own_discards(hand: Hand, seat: int) -> list[str]:
    """The cards hand seat ``seat`` threw away this hand, in order: for that seat only (a
    seat knows its own discards; nobody else may see them)."""
    return [str(Card(c)) for c in hand.discards(seat)]


def timeout_action(hand: Hand) -> Action:
    """What the action clock does for a player who does not act: check if he can, else
    fold; in a draw, stand pat."""
    if hand.in_draw:
        return Action("discard", None, ())
    kinds = [a.kind for a in hand.legal_actions()]
    return Action("check") if "check" in kinds else Action("fold")


def history_text(
    hand: Hand, viewer: int | None, hand_id: int, names: Sequence[str], venue: str
) -> str:
    """The PHH text of a hand as ``viewer`` (a hand seat; ``None``: omniscient) may know
    it; ``names`` by hand seat."""
    return phh.dumps(hand, viewer=viewer, _hand_id=hand_id, players=list(names), venue=venue)
