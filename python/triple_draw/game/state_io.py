"""Persistence of a hand: the document of a :class:`HandState` (``Hand.to_dict`` /
``Hand.from_dict``, JSON-ready, schema version 1). The document holds the whole state -
including the deck with its RNG position - so a hand saved mid-way and restored continues
identically.

Cards are text (``"7h"``) everywhere except in ``deck`` (the deck's own state format:
``{"key", "word_pos", "stub": [ids]}``).
"""

from __future__ import annotations

from typing import Any, TypeVar

from triple_draw.errors import DeckError, SchemaError
from triple_draw.game import core as _coremod
from triple_draw.game import events as ev
from triple_draw.game.cards import CARD_TEXT, to_ids, to_maybe_ids
from triple_draw.game.events import LogEntry, log_from_dicts, log_to_dicts
from triple_draw.game.phase import CALL_ONLY, DONE, DRAW, MAY_RAISE, OVER, PHASES
from triple_draw.game.rules import UNCAPPED, Rules
from triple_draw.game.state import HandState
from triple_draw.schema import HAND_STATE_VERSION as SCHEMA_VERSION

__all__ = ["to_dict", "from_dict", "card_partition", "SCHEMA_VERSION", "DOCUMENT_KEYS"]

S = TypeVar("S", bound=HandState)

#: The top-level keys of a hand document (the schema holds the same list; a test checks).
DOCUMENT_KEYS = (
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


def _table_discards(st: HandState) -> list[list[str] | None]:
    """Declared discards awaiting replacement cards, per seat (declare-then-deal)."""
    table: list[list[str] | None] = [None] * st._n
    for j, t in st._declared:
        table[j] = _txt(t)
    return table


def to_dict(st: HandState) -> dict[str, Any]:
    """The whole state as plain JSON-ready data (``"schema_version": 1``)."""
    return {
        "schema_version": SCHEMA_VERSION,
        "rules": st.rules.to_dict(),
        "button": st._button,
        "starting_stacks": list(st._start),
        "stacks": list(st._stacks),
        "round_bets": list(st._bet),
        "committed": list(st._total),
        "folded": [not v for v in st._live],
        "hands": [_txt(x) for x in st._hands],
        "deck": st._deck.get_state(),
        "out_of_play": _txt(st._out),
        "table_discards": _table_discards(st),
        "reserved": None
        if st._reserved is None
        else [
            None if r is None else ["??" if c is None else CARD_TEXT[c] for c in r]
            for r in st._reserved
        ],
        "withheld": None if st._withheld is None else _txt(st._withheld),
        "phase": PHASES[st._phase],
        "street": st._street,
        "actor": st._actor,
        "betting": {
            "level": st._level,
            "full_level": st._full_level,
            "unit": st._unit,
            "full_bets": st._full_bets,
            "max_full_bets": None if st._max_full_bets >= UNCAPPED else st._max_full_bets,
            "to_act": [t > 0 for t in st._to_act],
            "may_raise": [t == MAY_RAISE for t in st._to_act],
            "last_aggressor": st._last_aggr,
        },
        "draw": {"order": list(st._draw_order), "position": st._draw_pos},
        "history": log_to_dicts(st._log),
        "outcome": None
        if st._pots is None
        else {
            "returned": None if st._returned is None else list(st._returned),
            "pots": [
                {
                    "amount": a,
                    "eligible": list(e),
                    "winners": list(w),
                    "shares": [list(x) for x in sh],
                }
                for a, e, w, sh in st._pots
            ],
            "showdown": [[j, shown] for j, shown in (st._showdown or [])],
        },
    }


def from_dict(cls: type[S], data: Any, core: Any = None) -> S:
    """Rebuild a hand of class ``cls`` from :func:`to_dict` output (:class:`SchemaError`
    if malformed: the published schema first, then the game's own consistency)."""
    if not isinstance(data, dict):
        raise SchemaError(f"a hand document must be a dict, got {type(data).__name__}")
    if data.get("schema_version") != SCHEMA_VERSION:
        raise SchemaError(
            f"schema_version must be {SCHEMA_VERSION}, got {data.get('schema_version')!r}"
        )
    missing = [k for k in DOCUMENT_KEYS if k not in data]
    extra = [k for k in data if k not in DOCUMENT_KEYS]
    if missing or extra:
        raise SchemaError(f"hand document: missing fields {missing}, unknown fields {extra}")
    # nested fields against the published schema triple_draw/schema/hand_state.v1.json
    # (SchemaError naming the path, e.g. $.betting.unit)
    from triple_draw.schema import validate_hand_state

    validate_hand_state(data)
    try:
        return _build(cls, data, core)
    except SchemaError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
        raise SchemaError(f"malformed hand document: {type(e).__name__}: {e}") from None


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


def _build(cls: type[S], d: dict[str, Any], core: Any) -> S:
    core = _coremod.resolve_core(core)
    rules = Rules.from_dict(d["rules"])
    start = d["starting_stacks"]
    n = len(start) if isinstance(start, list) else 0
    if not 2 <= n <= rules.max_players:
        raise SchemaError(f"starting_stacks must list 2..{rules.max_players} stacks")
    h = object.__new__(cls)
    h.rules = rules
    h._rc = rules.compiled
    h._core = core
    h._n = n
    button = d["button"]
    if type(button) is not int or not 0 <= button < n:
        raise SchemaError(f"button must be a seat 0..{n - 1}")
    h._button = button
    h._start = tuple(_ints(start, n, "starting_stacks", 1))
    h._stacks = _ints(d["stacks"], n, "stacks")
    h._bet = _ints(d["round_bets"], n, "round_bets")
    h._total = _ints(d["committed"], n, "committed")
    h._live = [not x for x in _bools(d["folded"], n, "folded")]
    h._n_live = sum(h._live)
    h._active = [MAY_RAISE if h._live[j] and h._stacks[j] > 0 else DONE for j in range(n)]
    h._n_active = n - h._active.count(DONE)
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
    if h._phase == OVER:  # nobody bets any more
        h._active = [DONE] * n
        h._n_active = 0
    h._in_draw = h._phase == DRAW
    street = d["street"]
    if type(street) is not int or not 0 <= street <= 3:
        raise SchemaError("street must be 0..3")
    h._street = street
    actor = d["actor"]
    if actor is not None and (type(actor) is not int or not 0 <= actor < n):
        raise SchemaError(f"actor must be None or a seat 0..{n - 1}")
    h._actor = actor
    if (actor is None) != (h._phase == OVER):
        raise SchemaError("actor must be None exactly when the hand is over")
    b = d["betting"]
    for key in ("level", "full_level", "unit", "full_bets"):
        if type(b[key]) is not int:
            raise SchemaError(f"betting.{key} must be an int")
    if b["max_full_bets"] is not None and type(b["max_full_bets"]) is not int:
        raise SchemaError("betting.max_full_bets must be an int or null")
    h._level = b["level"]
    h._full_level = b["full_level"]
    h._unit = b["unit"]
    h._full_bets = b["full_bets"]
    h._max_full_bets = UNCAPPED if b["max_full_bets"] is None else b["max_full_bets"]
    to_act = _bools(b["to_act"], n, "betting.to_act")
    may_raise = _bools(b["may_raise"], n, "betting.may_raise")
    h._to_act = [
        (MAY_RAISE if r else CALL_ONLY) if t else DONE
        for t, r in zip(to_act, may_raise, strict=True)
    ]
    h._last_aggr = b["last_aggressor"]
    h._draw_order = [int(x) for x in d["draw"]["order"]]
    h._draw_pos = int(d["draw"]["position"])
    table = [
        None if x is None else tuple(to_ids(x))
        for x in _seat_list(d["table_discards"], n, "table_discards")
    ]
    h._declared = [(j, t) for j in h._draw_order if (t := table[j]) is not None]
    h._need = sum(len(t) for _j, t in h._declared)
    h._log = log_from_dicts(d["history"])
    h._sb, h._bb = blind_seats(h._log, n, button)
    h._reshuffled = any(e[0] == ev.RESHUFFLE for e in h._log)
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
    part = card_partition(h)
    cards = part["hands"] + part["stub"] + part["out_of_play"]
    if sorted(cards) != list(range(52)):
        raise SchemaError("the cards of hands, deck and out_of_play do not partition the 52 cards")
    in_play = 0 if h._phase == OVER else sum(h._total)
    if sum(h._stacks) + in_play != sum(h._start):
        raise SchemaError("stacks and committed chips do not add up to the starting stacks")
    return h


def blind_seats(log: list[LogEntry], n: int, button: int) -> tuple[int | None, int]:
    """The blinds' seats of a hand as its first post events show them: the usual seats,
    or, in a hand dealt with ``no_small_blind`` (3+ players, no small blind posted, the big
    blind posted by the first seat left of the button), no small blind. Later
    ``post_big_blind`` events are the live posts of players coming into the game."""
    if n == 2:
        return button, 1 - button
    sb, bb = (button + 1) % n, (button + 2) % n
    first_bb = next((e[1] for e in log if e[0] == ev.POST_BIG_BLIND), None)
    if first_bb == sb and not any(e[0] == ev.POST_SMALL_BLIND for e in log):
        return None, sb
    return sb, bb


def card_partition(st: HandState) -> dict[str, list[int]]:
    """Where all 52 cards are: ``hands`` (seats still in), ``stub`` (the deck, then any
    withheld cards of a replay), ``out_of_play`` (folded hands, discards, declared
    discards awaiting replacement). Given cards reserved for a declared player stay where
    they are until dealt. The three lists always partition ``range(52)``."""
    hands = [c for s in range(st._n) if st._live[s] for c in st._hands[s]]
    out = list(st._out)
    for _j, t in st._declared:
        out.extend(t)
    stub = list(st._deck.stub_ids())
    stub.extend(st._withheld or ())
    return {"hands": hands, "stub": stub, "out_of_play": out}
