"""The one place where the server meets the engine's :class:`Table` and :class:`Hand`.

The engine's :class:`Table` keeps the seating between hands with the card room's rules:
stacks, who is dealt in, the dead button and blinds, new players waiting for the big
blind or posting, sit-outs and the blinds they miss, the heads-up adjustment; its
:meth:`Table.to_dict` is the table's stored state. The server keeps beside it only who
sits where (name, token digest, bot) and what players asked for during a hand, which it
hands to the table once the hand is over. Only public APIs
are used: ``Table`` and its seat methods, ``Table.new_hand``, ``Table.to_dict`` /
``from_dict``, ``Hand.view``, ``Hand.apply`` and ``phh.dumps``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from triple_draw import Card, phh
from triple_draw.errors import IllegalActionError
from triple_draw.game import Action, Hand, Rules, Table
from triple_draw.game.actions import ACTION_KINDS

__all__ = [
    "action_from_message",
    "deal",
    "dealt_next",
    "hand_from_doc",
    "hand_to_doc",
    "history_text",
    "new_table",
    "own_discards",
    "table_from_doc",
    "table_to_doc",
    "timeout_action",
]


def new_table(rules: Rules, new_players: str = "wait", missed_blinds: str = "post") -> Table:
    """An empty table with the dead button; the deck of each hand is shuffled from OS
    entropy."""
    return Table(
        rules,
        [None] * rules.max_players,
        button_rule="dead",
        new_players=new_players,
        missed_blinds=missed_blinds,
    )


def deal(table: Table) -> Hand | None:
    """Start the next hand with the rules between hands applied (``None`` when fewer
    than two players can be dealt in). The hand's seat map is ``table.seat_map``."""
    try:
        table.next_hand()
    except IllegalActionError:
        return None
    return table.new_hand()


def dealt_next(table: Table) -> list[int]:
    """The table seats the next hand would deal in (empty if no hand can start)."""
    try:
        return list(table.next_hand()["dealt"])
    except IllegalActionError:
        return []


def table_to_doc(table: Table) -> dict[str, Any]:
    """The whole table, its hand's deck included: for the store only, never a client."""
    return table.to_dict()


def table_from_doc(doc: dict[str, Any]) -> Table:
    return Table.from_dict(doc)


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
