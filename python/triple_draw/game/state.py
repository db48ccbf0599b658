"""The state of one hand, declared once.

:class:`HandState` names and types every field a hand has. The code that plays a hand
works on it explicitly: the betting (``betting.py`` and the hot path in ``hand.py``), the
draws (``drawing.py``), the showdown (``showdown.py``), the per-seat view (``view.py``) and
persistence (``state_io.py``) are functions that take a ``HandState``.
:class:`~triple_draw.game.hand.Hand` is a ``HandState`` with the public methods on top,
and holds the fields as its slots (so the hot path reads them as plain slots of ``self``,
with no indirection).

Lists indexed by seat are the hot path's working storage; everything in them is ints,
bools or card ids. ``to_dict``/``from_dict`` (``state_io.py``) write and read every
field listed in :data:`FIELDS`, and a test holds the two to this declaration: each field
of a hand restored from its document equals the original's, at every decision of many
hands.

Card bookkeeping: every card is at all times in exactly one of

- a hand (``_hands[seat]`` of a seat still in the hand),
- the stub: the deck object (``_stub_n`` mirrors its length) and ``_withheld`` (replays
  only: cards of the stub that are never dealt at random, only as given cards),
- out of play: ``_out`` (the reshuffle pool: folded hands, discards of earlier draws and
  of players already served in this draw) or ``_declared`` (``(seat, discards)``
  declared and not yet served under declare-then-deal).

A hand replayed from a record (``record.py``) holds the same lists, with the cards nobody
saw as the placeholder ``UNKNOWN`` and a ``RecordStub`` as its deck: the places add up to
the 52 cards the same way, but an unknown card is no particular card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any


if TYPE_CHECKING:
    from triple_draw.game.actions import Action
    from triple_draw.game.core import Core
    from triple_draw.game.events import LogEntry
    from triple_draw.game.result import HandResult
    from triple_draw.game.rules import CompiledRules, Rules

__all__ = ["HandState", "FIELDS", "NESTED", "Declared", "Given", "PotRecord"]

#: ``(seat, discards)``: a declared draw waiting for its replacements
Declared = tuple[int, tuple[int, ...]]
#: Given replacement cards of a replay, ``None`` = random
Given = list[int | None]
#: ``(amount, eligible seats, winners, ((seat, chips), ...))``: a paid pot
PotRecord = tuple[int, tuple[int, ...], tuple[int, ...], tuple[tuple[int, int], ...]]


class HandState:
    """Every field of a hand, with its type. Fields are set by ``Hand.__init__`` (a new
    hand) or by ``state_io.from_dict`` (a restored one) - both set all of them."""

    # Only the declaration: the slots themselves are created on the concrete class
    # (``Hand.__slots__ = FIELDS + ...``), so that slot access stays on the exact type.
    if not TYPE_CHECKING:
        __slots__ = ()

    # -- the game and the table
    rules: Rules
    #: the options the engine reads (``rules.compiled``)
    _rc: CompiledRules
    #: what deals and evaluates (:class:`~triple_draw.game.core.Core`)
    _core: Core
    #: number of seats, 2..8
    _n: int
    _button: int
    #: the small blind's seat (``None``: a hand dealt with no small blind, a dead small
    #: blind under the dead-button rule); ``to_dict`` does not write the blinds' seats,
    #: ``from_dict`` reads them from the history's post events
    _sb: int | None
    _bb: int
    #: the seats clockwise starting left of the button
    _cw: tuple[int, ...]

    # -- chips
    # (``_stacks``, ``_total``, ``_live``, ``_hands`` and ``_draws`` are changed in place
    # and never replaced during a hand: the compiled views read these very lists, and
    # tests/test_view_parity.py holds this)
    #: stacks at the start of the hand
    _start: tuple[int, ...]
    #: chips behind
    _stacks: list[int]
    #: chips put in during the current betting round
    _bet: list[int]
    #: chips put in this hand
    _total: list[int]
    #: the dead chips of each seat's post (a player coming in: a dead small blind), part of
    #: ``_total`` but no bet - they go to the main pot and are matched by nobody
    #: (``None``: no dead post)
    _dead: tuple[int, ...] | None

    # -- who is in
    #: not folded
    _live: list[bool]
    _n_live: int
    #: MAY_RAISE while the seat can still bet (in the hand, chips behind), else DONE
    _active: list[int]
    _n_active: int

    # -- the public record: what every seat sees happen, kept up to date where it happens
    # (``Hand.discard`` and ``drawing.discard_given``, the short all-in of
    # ``Hand.bet_or_raise``, the start of a round) and read by ``Hand.draws``, the views,
    # ``simulate`` and the environments, which neither rescan the log nor track the
    # actions themselves. The folds are ``_live`` and the round's chips ``_bet``;
    # :func:`~triple_draw.game.betting.round_action` reads the round's bets, raises and
    # calls off these fields and the betting round's.
    #: per seat: how many cards he drew at each draw so far (a new tuple at each of his
    #: discards: a tuple once read never changes)
    _draws: list[tuple[int, ...]]
    #: the round's bets and raises that ``_full_bets`` does not count: its short all-ins
    #: (less, in round 1, the big blind when it counts as the round's bet), so that the
    #: round's bets and raises are ``_full_bets + _uncounted``
    _uncounted: int
    #: the chips of ``_bet`` that were posted, not bet or called (round 1: the blinds and
    #: live posts; 0 in later rounds), so that somebody has called, bet or raised in the
    #: round when ``sum(_bet) > _posted``
    _posted: int

    # -- where the hand is
    #: BET, DRAW or OVER (phase.py)
    _phase: int
    #: ``_phase == DRAW`` (read by the hot path)
    _in_draw: bool
    #: betting round 0..3, or the draw 0..2 after betting round ``_street``
    _street: int
    #: the seat to act, ``None`` once the hand is over
    _actor: int | None

    # -- the betting round
    #: the round's betting unit
    _unit: int
    #: the amount to match
    _level: int
    #: the round total of the last full bet or raise (0: none)
    _full_level: int
    #: full bets and raises made this round
    _full_bets: int
    #: full bets and raises allowed this round (``UNCAPPED``: no cap)
    _max_full_bets: int
    #: what each seat still has to do this round: DONE, CALL_ONLY, MAY_RAISE or CLOSED per
    #: seat (phase.py); ``MAY_RAISE`` is the raise rule, kept by ``betting.close_raises``
    _to_act: list[int]
    #: a bound below every seat's chips plus bet this round (both fixed in a round for
    #: each seat): no seat can be short of a raise until the level reaches it, so a bet
    #: or raise below it needs no ``close_raises``
    _least_reach: int
    #: the last seat that bet or raised this round (``None``: nobody)
    _last_aggr: int | None

    # -- cards
    #: every seat's cards (for a folded seat: the cards he folded)
    _hands: list[list[int]]
    #: the deck of ``_core`` holding the stub and its random stream
    _deck: Any
    #: ``len(_deck)``
    _stub_n: int
    #: the reshuffle pool: cards out of play
    _out: list[int]
    #: replays only: stub cards dealt only as given cards (``None``: none)
    _withheld: list[int] | None

    # -- the draw
    #: declare-then-deal: draws declared and not yet served, in serving order
    _declared: list[Declared]
    #: cards ``_declared`` needs
    _need: int
    #: replays only: given replacement cards waiting for declared seats (per seat)
    _reserved: list[Given | None] | None
    #: the seats drawing in this draw, in order
    _draw_order: list[int] | tuple[int, ...]
    #: the index in ``_draw_order`` of the seat to act
    _draw_pos: int
    #: a reshuffle has happened in this hand (the stub may hold discards since)
    _reshuffled: bool

    # -- the record and the outcome
    _log: list[LogEntry]
    #: ``(seat, chips)`` of the uncalled bet given back, if any
    _returned: tuple[int, int] | None
    #: the paid pots once the hand is over
    _pots: list[PotRecord] | None
    #: ``(seat, shown)`` in showdown order once the hand is over
    _showdown: list[tuple[int, bool]] | None
    #: the :class:`HandResult`, built on first request
    _result: HandResult | None
    #: the chips the house took (the rake), once the hand is over (0 before, and without
    #: rake)
    _rake: int
    #: a hand replayed from a record: the rake the record says was taken (``None``: the
    #: rules' own rake)
    _rake_given: int | None
    #: a hand replayed from a record, at its showdown: the pot layers ``(amount,
    #: eligible seats)`` to pay once everyone has shown or mucked, and the seats in the
    #: order they show (``None`` outside the showdown)
    _layers: list[tuple[int, tuple[int, ...]]] | None
    _sd_order: tuple[int, ...] | None

    # Not a field: the betting actions ``legal_actions`` listed at this decision (``None``
    # once anything has happened since: the betting actions clear it before they change
    # the state; a draw never sets it), so that ``apply`` recognises those very objects
    # without checking them again. The concrete class adds the slot; a copy or a restored
    # hand starts without it (like the view cache).
    if TYPE_CHECKING:
        _legal: tuple[Action, ...] | None

    def copy_state_into(self, new: HandState) -> None:
        """Copy every field into ``new``: a list field as a new list (and the lists in
        :data:`NESTED` fields too), the deck copied, everything else (ints, tuples, the
        rules) shared. The body is generated from :data:`FIELDS` (below)."""
        raise NotImplementedError  # pragma: no cover - replaced below


#: The declared fields, in declaration order: the slots of a concrete hand.
FIELDS: tuple[str, ...] = tuple(HandState.__annotations__)
#: The fields whose lists hold lists (each seat's cards; a replay's given cards per
#: seat): copied two levels deep. Every other list holds ints, bools, card ids or tuples
#: (tests/test_hand_api.py checks it of every field at every decision of many hands).
NESTED: frozenset[str] = frozenset(("_hands", "_reserved"))


def _copier() -> Any:
    """``copy_state_into`` written out field by field (a hand is copied for every node of
    a search: the loop over the field names by ``getattr``/``setattr`` cost twice this)."""
    body = []
    for name in FIELDS:
        if name in NESTED:
            body.append(
                f"    v = self.{name}\n    new.{name} = "
                "[x[:] if type(x) is list else x for x in v] if type(v) is list else v"
            )
        else:
            body.append(f"    v = self.{name}\n    new.{name} = v[:] if type(v) is list else v")
    src = "def copy_state_into(self, new):\n" + "\n".join(body)
    src += "\n    new._deck = self._deck.copy()\n"
    ns: dict[str, Any] = {}
    exec(compile(src, "<HandState.copy_state_into>", "exec"), ns)  # (FIELDS: our own names)
    fn = ns["copy_state_into"]
    fn.__doc__ = HandState.copy_state_into.__doc__
    return fn


HandState.copy_state_into = _copier()  # type: ignore[method-assign]
