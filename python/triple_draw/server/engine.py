"""The one place where the server meets the engine's :class:`Table` and :class:`Hand`.

The engine's :class:`Table` keeps the seating between hands with the card room's rules:
stacks, who is dealt in, the dead button and blinds, new players waiting for the big
blind or posting, sit-outs and the blinds they miss, the heads-up adjustment; its
:meth:`Table.to_dict` is the table's stored state. The server keeps beside it only who
sits where (name, token digest, bot) and what players asked for during a hand, which it
hands to the table once the hand is over. Only public APIs
are used: ``Table`` and its seat methods, ``Table.new_hand``, ``Table.to_dict`` /
``from_dict``, ``Hand.view``, ``Hand.apply``, ``phh.dumps`` and ``histories.dumps``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta, timezone
from typing import Any

from triple_draw import Card, histories, phh
from triple_draw.errors import IllegalActionError
from triple_draw.game import Action, Hand, Rules, Table
from triple_draw.game.actions import ACTION_KINDS
from triple_draw.game.rules import real_game_only

__all__ = [
    "action_from_message",
    "deal",
    "dealt_next",
    "hand_from_doc",
    "hand_to_doc",
    "history_sections",
    "history_text",
    "new_table",
    "own_discards",
    "pokerstars_date",
    "pokerstars_names",
    "pokerstars_text",
    "table_from_doc",
    "table_to_doc",
    "timeout_action",
]


def new_table(rules: Rules, new_players: str = "wait", missed_blinds: str = "post") -> Table:
    """An empty table with the dead button; the deck of each hand is shuffled from OS
    entropy (the real game only: a reduced game's rules are refused)."""
    real_game_only(rules, "the table server")
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


def history_sections(
    hands: Sequence[tuple[Hand, int | None, int, Sequence[str]]], venue: str, start: int = 1
) -> str:
    """Hands as the tables ``[start]``, ``[start + 1]``... of a ``.phhs`` text, each as
    :func:`history_text` writes it: ``(hand, viewer, hand id, names)`` each."""
    return "".join(
        phh.iter_dumps_all(
            (
                (
                    hand,
                    {"viewer": viewer, "_hand_id": hand_id, "players": list(names), "venue": venue},
                )
                for hand, viewer, hand_id, names in hands
            ),
            start=start,
        )
    )


#: The date a PokerStars history prints for a hand whose start time is not stored.
POKERSTARS_NO_DATE = "2026/01/01 12:00:00 ET"


def pokerstars_date(started: float | None) -> str:
    """A hand's start (seconds since the epoch) as PokerStars prints it: the US Eastern
    time (daylight saving time from the second Sunday of March to the first Sunday of
    November, 2 a.m. local), ``2026/09/03 18:15:01 ET`` (the hour unpadded, as PokerStars
    writes it: ``9:05:00``). ``None``: :data:`POKERSTARS_NO_DATE`."""
    if started is None:
        return POKERSTARS_NO_DATE
    utc = datetime.fromtimestamp(started, timezone.utc)
    y = utc.year
    march = datetime(y, 3, 8, 7, tzinfo=timezone.utc)  # 2:00 EST = 7:00 UTC
    march += timedelta(days=(6 - march.weekday()) % 7)
    november = datetime(y, 11, 1, 6, tzinfo=timezone.utc)  # 2:00 EDT = 6:00 UTC
    november += timedelta(days=(6 - november.weekday()) % 7)
    et = utc + timedelta(hours=-4 if march <= utc < november else -5)
    return f"{et:%Y/%m/%d} {et.hour}:{et:%M:%S} ET"


def pokerstars_names(names: Sequence[str]) -> list[str]:
    """The players' names as a PokerStars history can tell them apart: a name that would
    repeat another (two players called "Player"), or start with another and a colon, gets
    ``" #2"``, ``" #3"``... (its colons made dots); leading ``*`` go (a line starting with
    ``*`` is a section's)."""
    out: list[str] = []

    def clash(name: str) -> bool:
        return any(name == q or name.startswith(q + ":") or q.startswith(name + ":") for q in out)

    for i, raw in enumerate(names):
        base = raw.strip().lstrip("*").strip() or f"Player{i + 1}"
        name, k = base, 1
        while clash(name):
            k += 1
            name = f"{base.replace(':', '.')} #{k}"
        out.append(name)
    return out


def pokerstars_text(
    hand: Hand,
    viewer: int,
    hand_id: int,
    names: Sequence[str],
    table: str,
    started: float | None,
    table_seats: Sequence[int],
) -> str:
    """The PokerStars hand history of a hand as ``viewer`` (a hand seat) may know it:
    ``names`` and ``table_seats`` (``0..``) by hand seat, printed as seats ``1..``;
    ``started`` as :func:`pokerstars_date`. Amounts are chips, as in a play-money game;
    the table's size is its rules' ``max_players``."""
    return histories.dumps(
        hand,
        viewer=viewer,
        players=pokerstars_names(names),
        hand_id=hand_id,
        table=table,
        date=pokerstars_date(started),
        seat_numbers=[ts + 1 for ts in table_seats] if table_seats else None,
        max_seats=max(hand.rules.max_players, hand.n_players),
    )
