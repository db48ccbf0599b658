"""The site-independent form of one hand read from a site's hand history.

Each site's reader (``pokerstars.py``, ``fulltilt.py``, ``winamax.py``) turns the text of
one hand into a :class:`SiteRecord`: the header (site, hand id, table, stakes, date,
tournament), the seats as printed, and the hand's lines in file order as :class:`Line`
values. Amounts are :class:`decimal.Decimal` money (or chips in tournaments and play
money) exactly as printed; the replay (``replay.py``) turns them into engine chips with
the record's chip unit and drives a :class:`~triple_draw.Hand` with unknown cards.

A reader only reads: it never decides whether the hand is legal. Anything it cannot read
raises :class:`RecordError` with the line number and the line, and the hand is refused.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

__all__ = ["RecordError", "Seat", "Line", "SiteRecord", "KINDS"]


class RecordError(Exception):
    """A hand's text that its site's reader cannot read: ``line`` is its 1-based number in
    the hand's text (0: the hand as a whole), ``text`` the line itself."""

    def __init__(self, why: str, line: int = 0, text: str = "") -> None:
        super().__init__(why)
        self.why = why
        self.line = line
        self.text = text


@dataclass(slots=True)
class Seat:
    """A seat as the header prints it."""

    #: the seat number as printed (1-based, the site's own numbering)
    number: int
    name: str
    #: the chips in front of him at the start of the hand, in the record's money
    stack: Decimal
    #: dealt in this hand (False: sitting out, or seated after the deal, or "out of hand")
    dealt: bool = True


#: The kinds of :class:`Line`, and what their fields hold:
#:
#: - ``"post_sb"``, ``"post_bb"``: a blind (``amount``); ``"post_dead"``: a dead small
#:   blind posted by a player coming back or in (``amount``, dead money, not a bet);
#:   ``"post_sb_bb"``: small and big blind together (``amount`` the total: the big blind
#:   part is live, the small blind part dead); ``"post_ante"``: an ante (``amount``).
#: - ``"fold"``, ``"check"``; ``"call"`` (``amount``: the chips added); ``"bet"``
#:   (``amount``: the chips bet); ``"raise"`` (``amount``: the chips added over the call as
#:   printed, ``to``: the player's round total after it). ``all_in`` is set when the line
#:   says the player is all-in.
#: - ``"draw"``: ``count`` cards thrown (0: stands pat), ``cards`` the thrown cards when
#:   the record shows them (the hero), ``new`` the replacement cards when it shows them,
#:   ``kept`` the cards kept when it shows them.
#: - ``"show"``: ``cards`` shown at the showdown (or after winning); ``"muck"``: the
#:   player mucks (``cards`` if the record shows them anyway, e.g. the summary of the hero).
#: - ``"uncalled"``: ``amount`` returned to the player.
#: - ``"collect"``: ``amount`` the player collected (``pot``: "main pot", "side pot-1",
#:   ... as printed, or ``None`` for the only pot).
#: - ``"street"``: a section header: ``street`` is 0 (the deal / first betting round),
#:   1, 2, 3 (first, second, third draw) or 4 (showdown); the draws of a section precede
#:   its betting.
KINDS = (
    "post_sb",
    "post_bb",
    "post_dead",
    "post_sb_bb",
    "post_ante",
    "fold",
    "check",
    "call",
    "bet",
    "raise",
    "draw",
    "show",
    "muck",
    "uncalled",
    "collect",
    "street",
)


@dataclass(slots=True)
class Line:
    """One meaningful line of a hand, in file order (noise lines - chat, "is
    disconnected", "has timed out", "Betting is capped", "joins the table" - are not
    lines)."""

    kind: str
    #: the player's name (``None`` for "street")
    name: str | None
    #: 1-based line number in the source, and the line, for error messages
    lineno: int
    text: str
    amount: Decimal | None = None
    to: Decimal | None = None
    all_in: bool = False
    count: int | None = None
    #: card ids (``rank*4+suit``; unknown cards are simply not listed)
    cards: list[int] | None = None
    new: list[int] | None = None
    kept: list[int] | None = None
    pot: str | None = None
    street: int | None = None


@dataclass(slots=True)
class SiteRecord:
    """One Triple Draw hand as a site wrote it."""

    #: "pokerstars" | "fulltilt" | "winamax"
    site: str
    #: the site's hand number as printed, without '#'
    hand_id: str
    #: the table's name as printed (without quotes)
    table: str | None
    #: the table size the header prints ("6-max": 6), if it does
    max_seats: int | None
    #: the seat number (as printed) of the button
    button: int | None
    #: the stakes in money as printed: small blind, big blind, small bet, big bet (the
    #: header prints the bets; the blinds come from the posts or the site's structure)
    small_blind: Decimal | None
    big_blind: Decimal | None
    small_bet: Decimal
    big_bet: Decimal
    ante: Decimal | None = None
    #: "USD", "EUR", "GBP", ... for real money; "play" for play money; "chips" for
    #: tournament chips
    currency: str = "USD"
    #: the date and time as printed (the site's own text, e.g. "2026/09/03 18:15:01 ET")
    date: str | None = None
    tournament_id: str | None = None
    #: the tournament level as printed ("I", "V", "3"), if any
    level: str | None = None
    #: the tournament's buy-in as printed, if any
    buy_in: str | None = None
    seats: list[Seat] = field(default_factory=list)
    #: the player whose cards the record shows ("Dealt to NAME [...]"), if any
    hero: str | None = None
    #: the hero's five dealt cards (ids)
    hero_cards: list[int] | None = None
    #: every player whose five dealt cards the record shows (the hero, and each player of
    #: a full-information record), by name
    dealt: dict[str, list[int]] = field(default_factory=dict)
    lines: list[Line] = field(default_factory=list)
    #: the summary: total pot and rake as printed
    total_pot: Decimal | None = None
    rake: Decimal | None = None
    #: the hand's whole text (for error messages and to_phh comments)
    text: str = ""
    #: 1-based line number of the hand's first line in the file
    first_line: int = 1
