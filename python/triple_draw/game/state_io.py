"""Persistence of a :class:`Hand`: ``to_dict``/``from_dict`` (JSON-ready, schema version 1),
``copy`` and pickling. The document holds the whole state - including the deck with its
RNG position - so a hand saved mid-way and restored continues identically.

Cards are text (``"7h"``) everywhere except in ``deck`` (the deck's own state format:
``{"key", "word_pos", "stub": [ids]}``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from triple_draw.errors import DeckError, SchemaError
from triple_draw.game import core as _coremod
from triple_draw.game.cards import CARD_TEXT, to_ids, to_maybe_ids
from triple_draw.game.events import expand_log, log_from_dicts, to_event
from triple_draw.game.phase import PHASES
from triple_draw.game.rules import UNCAPPED, Rules

__all__ = ["StateMixin", "SCHEMA_VERSION"]

SCHEMA_VERSION = 1

_KEYS = (
    "schema_version",
    "rules",
    "button",
    "starting_stacks",
    "stacks",
    "round_bets",
    "committed",
    "folded",
    "hands",
    "deck",
    "out_of_play",
    "table_discards",
    "reserved",
    "withheld",
    "phase",
    "street",
    "actor",
    "betting",
    "draw",
    "history",
    "outcome",
)


def _txt(ids: Any) -> list[str]:
    return [CARD_TEXT[c] for c in ids]


def _table_discards(h: Any) -> list[list[str] | None]:
    """Declared discards awaiting replacement cards, per seat (declare-then-deal)."""
    table: list[list[str] | None] = [None] * h._n
    for j, t in h._declared:
        table[j] = _txt(t)
    return table


class StateMixin:
    if not TYPE_CHECKING:  # the attributes live in Hand.__slots__
        __slots__ = ()

    def to_dict(self) -> dict[str, Any]:
        """The whole state as plain JSON-ready data (``"schema_version": 1``)."""
        h: Any = self
        return {
            "schema_version": SCHEMA_VERSION,
            "rules": h.rules.to_dict(),
            "button": h._button,
            "starting_stacks": list(h._start),
            "stacks": list(h._stacks),
            "round_bets": list(h._bet),
            "committed": list(h._total),
            "folded": [not v for v in h._live],
            "hands": [_txt(x) for x in h._hands],
            "deck": h._deck.get_state(),
            "out_of_play": _txt(h._out),
            "table_discards": _table_discards(h),
            "reserved": None
            if h._reserved is None
            else [
                None if r is None else ["??" if c is None else CARD_TEXT[c] for c in r]
                for r in h._reserved
            ],
            "withheld": None if h._withheld is None else _txt(h._withheld),
            "phase": PHASES[h._phase],
            "street": h._street,
            "actor": h.actor,
            "betting": {
                "level": h._level,
                "full_level": h._full,
                "unit": h._unit,
                "full_bets": h._nbets,
                "max_full_bets": None if h._maxbets >= UNCAPPED else h._maxbets,
                "to_act": [t > 0 for t in h._todo],
                "may_raise": [t == 2 for t in h._todo],
                "last_aggressor": None if h._last_aggr < 0 else h._last_aggr,
            },
            "draw": {"order": list(h._draw_order), "position": h._draw_pos},
            "history": [to_event(e).to_dict() for e in expand_log(h._log, h._deal_order())],
            "outcome": None
            if h._pots is None
            else {
                "returned": None if h._returned is None else list(h._returned),
                "pots": [
                    {
                        "amount": a,
                        "eligible": list(e),
                        "winners": list(w),
                        "shares": [list(x) for x in sh],
                    }
                    for a, e, w, sh in h._pots
                ],
                "showdown": [[j, shown] for j, shown in (h._showdown or [])],
            },
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], core: Any = None) -> Any:
        """Rebuild a hand from :meth:`to_dict` output (:class:`SchemaError` if malformed)."""
        if not isinstance(data, dict):
            raise SchemaError(f"a hand document must be a dict, got {type(data).__name__}")
        if data.get("schema_version") != SCHEMA_VERSION:
            raise SchemaError(
                f"schema_version must be {SCHEMA_VERSION}, got {data.get('schema_version')!r}"
            )
        missing = [k for k in _KEYS if k not in data]
        extra = [k for k in data if k not in _KEYS]
        if missing or extra:
            raise SchemaError(f"hand document: missing fields {missing}, unknown fields {extra}")
        # issue 5 (interop engineer): nested fields against the published schema
        # triple_draw/schema/hand_state.v1.json (SchemaError naming the path, e.g. $.betting.unit)
        from triple_draw.schema import validate_hand_state

        validate_hand_state(data)
        try:
            return _build(cls, data, core)
        except SchemaError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            raise SchemaError(f"malformed hand document: {type(e).__name__}: {e}") from None

    def copy(self) -> Any:
        """An independent copy (deck and RNG included) - cheap, for search and bots."""
        h: Any = self
        new = object.__new__(type(h))
        for name in type(h).__slots__:
            v = getattr(h, name)
            if type(v) is list:
                v = [list(x) if type(x) is list else x for x in v]
            setattr(new, name, v)
        new._deck = h._deck.copy()
        return new

    def __reduce__(self) -> tuple[Any, ...]:
        h: Any = self
        return (_restore, (type(h), h.to_dict(), _coremod.core_name(h._core)))


def _restore(cls: Any, data: dict[str, Any], core_name: str) -> Any:
    return cls.from_dict(data, core=core_name)


def _seat_list(data: Any, n: int, what: str) -> list[Any]:
    if not isinstance(data, list) or len(data) != n:
        raise SchemaError(f"{what} must be a list of {n} entries")
    return data


def _ints(data: Any, n: int, what: str, minimum: int = 0) -> list[int]:
    v = _seat_list(data, n, what)
    for x in v:
        if type(x) is not int or x < minimum:
            raise SchemaError(f"{what} must hold ints >= {minimum}, got {x!r}")
    return list(v)


def _bools(data: Any, n: int, what: str) -> list[bool]:
    v = _seat_list(data, n, what)
    for x in v:
        if type(x) is not bool:
            raise SchemaError(f"{what} must hold bools, got {x!r}")
    return list(v)


def _blind_seats(h: Any, history: Any, n: int) -> None:
    """The blinds' seats as the history's first post events show them (a hand built with
    ``no_small_blind`` has no small blind; ``posts`` add later big blind events)."""
    posted: dict[str, Any] = {}
    for e in history if isinstance(history, list) else ():
        kind = e.get("kind") if isinstance(e, dict) else None
        if kind in ("post_small_blind", "post_big_blind"):
            posted.setdefault(kind, e.get("seat"))
    bb = posted.get("post_big_blind")
    if type(bb) is not int or not 0 <= bb < n:
        return
    h._bb = bb
    sb = posted.get("post_small_blind")
    if type(sb) is int and 0 <= sb < n:
        h._sb = sb
    elif n > 2 and bb == (h._button + 1) % n:
        h._sb = None


def _build(cls: Any, d: dict[str, Any], core: Any) -> Any:
    core = _coremod.resolve_core(core)
    rules = Rules.from_dict(d["rules"])
    start = d["starting_stacks"]
    n = len(start) if isinstance(start, list) else 0
    if not 2 <= n <= rules.max_players:
        raise SchemaError(f"starting_stacks must list 2..{rules.max_players} stacks")
    h = object.__new__(cls)
    h.rules = rules
    h._c = rules._c
    h._core = core
    h._n = n
    button = d["button"]
    if type(button) is not int or not 0 <= button < n:
        raise SchemaError(f"button must be a seat 0..{n - 1}")
    h._button = button
    if n == 2:
        h._sb, h._bb = button, 1 - button
    else:
        h._sb, h._bb = (button + 1) % n, (button + 2) % n
    _blind_seats(h, d["history"], n)
    h._start = tuple(_ints(start, n, "starting_stacks", 1))
    h._stacks = _ints(d["stacks"], n, "stacks")
    h._bet = _ints(d["round_bets"], n, "round_bets")
    h._total = _ints(d["committed"], n, "committed")
    h._live = [not x for x in _bools(d["folded"], n, "folded")]
    h._n_live = sum(h._live)
    h._active = [2 if h._live[j] and h._stacks[j] > 0 else 0 for j in range(n)]
    h._n_active = n - h._active.count(0)
    h._cw = tuple((button + 1 + k) % n for k in range(n))
    h._hands = [to_ids(x) for x in _seat_list(d["hands"], n, "hands")]
    try:
        h._deck = core.Deck.from_state(d["deck"])
    except DeckError as e:
        raise SchemaError(f"deck: {e}") from None
    h._stub_n = len(h._deck)
    h._out = to_ids(d["out_of_play"])
    res = d["reserved"]
    h._reserved = (
        None
        if res is None
        else [None if x is None else to_maybe_ids(x) for x in _seat_list(res, n, "reserved")]
    )
    h._withheld = None if d["withheld"] is None else to_ids(d["withheld"])
    if d["phase"] not in PHASES:
        raise SchemaError(f"phase must be one of {PHASES}, got {d['phase']!r}")
    h._phase = PHASES.index(d["phase"])
    h._in_draw = h._phase == 1
    street = d["street"]
    if type(street) is not int or not 0 <= street <= 3:
        raise SchemaError("street must be 0..3")
    h._street = street
    actor = d["actor"]
    if actor is not None and (type(actor) is not int or not 0 <= actor < n):
        raise SchemaError(f"actor must be None or a seat 0..{n - 1}")
    h._actor = actor
    if (actor is None) != (h._phase == 2):
        raise SchemaError("actor must be None exactly when the hand is over")
    b = d["betting"]
    h._level = b["level"]
    h._full = b["full_level"]
    h._unit = b["unit"]
    h._nbets = b["full_bets"]
    h._maxbets = UNCAPPED if b["max_full_bets"] is None else b["max_full_bets"]
    for name in ("_level", "_full", "_unit", "_nbets", "_maxbets"):
        if type(getattr(h, name)) is not int:
            raise SchemaError(f"betting.{name[1:]} must be an int")
    to_act = _bools(b["to_act"], n, "betting.to_act")
    may_raise = _bools(b["may_raise"], n, "betting.may_raise")
    h._todo = [(2 if r else 1) if t else 0 for t, r in zip(to_act, may_raise, strict=True)]
    la = b["last_aggressor"]
    h._last_aggr = -1 if la is None else la
    h._draw_order = [int(x) for x in d["draw"]["order"]]
    h._draw_pos = int(d["draw"]["position"])
    table = [
        None if x is None else tuple(to_ids(x))
        for x in _seat_list(d["table_discards"], n, "table_discards")
    ]
    h._declared = [(j, table[j]) for j in h._draw_order if table[j] is not None]
    h._need = sum(len(t) for _j, t in h._declared)
    h._log = log_from_dicts(d["history"])
    out = d["outcome"]
    h._result = None
    if out is None:
        h._returned = None
        h._pots = None
        h._showdown = None
    else:
        h._returned = None if out["returned"] is None else tuple(out["returned"])
        h._pots = [
            (
                p["amount"],
                tuple(p["eligible"]),
                tuple(p["winners"]),
                tuple(tuple(x) for x in p["shares"]),
            )
            for p in out["pots"]
        ]
        h._showdown = [(int(j), bool(shown)) for j, shown in out["showdown"]]
    part = h._card_partition()
    cards = part["hands"] + part["stub"] + part["out_of_play"]
    if sorted(cards) != list(range(52)):
        raise SchemaError("the cards of hands, deck and out_of_play do not partition the 52 cards")
    in_play = 0 if h._phase == 2 else sum(h._total)
    if sum(h._stacks) + in_play != sum(h._start):
        raise SchemaError("stacks and committed chips do not add up to the starting stacks")
    return h
