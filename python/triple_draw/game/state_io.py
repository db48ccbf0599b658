"""Persistence of a hand: the document of a :class:`HandState` (``Hand.to_dict`` /
``Hand.from_dict``, JSON-ready, schema version 1). The document holds the whole state -
including the deck with its RNG position - so a hand saved mid-way and restored continues
identically.

Cards are text (``"7h"``) everywhere except in ``deck`` (the deck's own state format:
``{"key", "word_pos", "stub": [ids]}``).

A document is untrusted input (docs/security.md). :func:`from_dict` believes nothing in
it but its starting state: it creates the hand with the public constructor (rules,
starting stacks, button, the dealt cards of the ``deal`` events, the withheld cards),
replays every action of the history with the public actions (each draw's cards given,
so the engine checks them), and then requires every field of the document to equal the
rebuilt hand's ``to_dict``. Only the deck's stream and stub order are taken from the
document, once its stub holds the cards the replay leaves there.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeVar, cast

from triple_draw.errors import DeckError, SchemaError, TripleDrawError, UnknownCardsError
from triple_draw.game import core as _coremod
from triple_draw.game import events as ev
from triple_draw.game.cards import _TEXT_ID, CARD_TEXT
from triple_draw.game.events import LogEntry, log_to_dicts
from triple_draw.game.phase import MAY_RAISE, PHASES
from triple_draw.game.record import RecordStub
from triple_draw.game.rules import UNCAPPED, Rules
from triple_draw.game.state import HandState
from triple_draw.schema import HAND_STATE_VERSION as SCHEMA_VERSION

__all__ = [
    "to_dict",
    "from_dict",
    "from_json",
    "check_depth",
    "check_text_depth",
    "MAX_DEPTH",
    "MAX_TEXT",
    "card_partition",
    "SCHEMA_VERSION",
    "DOCUMENT_KEYS",
]

if TYPE_CHECKING:
    from triple_draw.game.hand import Hand

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
    if type(st._deck) is RecordStub:
        raise UnknownCardsError(
            "a hand replayed from a record with unknown cards has no state document (it "
            "holds no deck to deal on from): save its record instead (phh.dumps), or "
            "phh.complete() it into a fully dealt hand"
        )
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
            # the betting is open to him (not limited by a short all-in); whether the cap,
            # his chips or his opponents let him raise now is the rest of the document
            # (the raise rule's CLOSED counts as open here, as it did before the rule
            # was kept in _to_act)
            "may_raise": [t >= MAY_RAISE for t in st._to_act],
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
            **({"rake": st._rake} if st._rake else {}),
        },
    }


#: The deepest nesting a hand document has (``$.outcome.pots[i].shares[j][k]``: 6) with
#: room to spare; anything deeper is refused before it is read.
MAX_DEPTH = 12


def check_depth(data: Any, limit: int = MAX_DEPTH) -> None:
    """Refuse (:class:`SchemaError`) a document nested deeper than ``limit`` - and so a
    self-referencing one - without recursion: the walk is iterative and stops at the
    first container below the limit."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    pop, push = stack.pop, stack.append
    while stack:
        node, depth = pop()
        if type(node) is dict:
            children: Any = node.values()
        elif type(node) is list:
            children = node
        else:
            continue
        if depth >= limit:
            raise SchemaError(f"hand document: nested deeper than {limit} levels")
        for child in children:
            if type(child) is dict or type(child) is list:
                push((child, depth + 1))


#: The longest JSON text :func:`from_json` reads (a real document is a few kilobytes).
MAX_TEXT = 1_000_000

# a string (an unterminated one runs to the end: one pass, no backtracking) or a bracket
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*(?:"|\\?\Z)|[\[\]{}]', re.DOTALL)


def check_text_depth(text: str, limit: int = MAX_DEPTH) -> None:
    """Refuse (:class:`SchemaError`) a JSON text whose arrays and objects nest deeper
    than ``limit``, before it is parsed (strings are skipped: brackets in them do not
    count)."""
    depth = 0
    for m in _TOKEN.finditer(text):
        t = m.group()
        if t == "[" or t == "{":
            depth += 1
            if depth > limit:
                raise SchemaError(f"hand document: nested deeper than {limit} levels")
        elif t == "]" or t == "}":
            depth -= 1


def from_json(cls: type[S], text: Any, core: Any = None) -> S:
    """:func:`from_dict` of a JSON text (``str`` or UTF-8 ``bytes``): its size (at most
    :data:`MAX_TEXT` characters) and nesting depth are checked before it is parsed; a
    text that is not JSON is a :class:`SchemaError` too."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as e:
            raise SchemaError(f"hand document: not UTF-8 text: {e}") from None
    if not isinstance(text, str):
        raise SchemaError(f"a hand document text must be str or bytes, got {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise SchemaError(f"hand document: longer than {MAX_TEXT} characters")
    check_text_depth(text)
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise SchemaError(f"hand document: not valid JSON: {e}") from None
    return from_dict(cls, data, core)


def from_dict(cls: type[S], data: Any, core: Any = None, forced: dict[str, Any] | None = None) -> S:
    """Rebuild a hand of class ``cls`` from :func:`to_dict` output.

    The document is untrusted: it is accepted only if legal play reaches it.
    :class:`SchemaError` (naming the first problem) if it is nested too deep, does not
    follow the published schema, or if replaying its history from its starting state
    (rules, starting stacks, button, the cards dealt and drawn) through the public
    constructor and actions does not give back every field of the document.

    ``forced``: the ``Hand`` options (``no_small_blind``, ``posts``) the caller knows the
    hand was dealt with (a table's record of its blinds), tried before the ones the
    history suggests. The history alone cannot always tell: a big blind that an ante left
    with no chips posts nothing, and another player's entry post of a big blind then
    reads as the blind (:func:`forced_bet_candidates`). The replay still decides."""
    core = _coremod.resolve_core(core)  # a bad core is the caller's error, not the document's
    check_depth(data)
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
    # The rebuild reads the starting state and the actions and checks every other field
    # against what legal play gives; a value of the wrong shape on the way is refused
    # with the field it was read from when it can be told, else with what went wrong.
    try:
        return _rebuild(cls, data, core, forced)
    except SchemaError:
        raise
    except TripleDrawError as e:
        raise SchemaError(f"hand document: {e}") from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
        raise SchemaError(f"hand document: malformed: {type(e).__name__}: {e}") from None


_BETTING_KINDS = frozenset((ev.FOLD, ev.CHECK, ev.CALL, ev.BET, ev.RAISE))


def _rebuild(cls: type[S], d: dict[str, Any], core: Any, forced: dict[str, Any] | None) -> S:
    """Replay the document's history from its starting state and check the rest of the
    document against the result, field by field."""
    rules = Rules.from_dict(d["rules"])
    start = d["starting_stacks"]
    n = len(start)
    events = _events(d["history"])
    # the starting state: the cards each seat was dealt, and which cards were never in
    # the deck (a stacked deck missing cards: they are out of play from the start)
    hole: list[list[int] | None] = [None] * n
    seen: set[int] = set()
    draws: list[list[tuple[int, tuple[int, ...]]]] = [[] for _ in range(n)]
    for i, (kind, seat, _amount, cards) in enumerate(events):
        if kind == ev.DEAL:
            if seat is None or seat >= n or hole[seat] is not None or cards is None:
                raise SchemaError(
                    f"$.history[{i}]: a deal must give one seat 0..{n - 1} its cards, once"
                )
            hole[seat] = list(cards)
        elif kind == ev.DRAW:
            if seat is None or seat >= n or cards is None:
                raise SchemaError(f"$.history[{i}]: a draw must give a seat 0..{n - 1} cards")
            draws[seat].append((i, cards))
        if cards is not None:
            seen.update(cards)
    if None in hole:
        raise SchemaError(f"$.history: seat {hole.index(None)} is never dealt")
    dealt = [cards or [] for cards in hole]
    deck_doc = d["deck"]
    try:
        deck = core.Deck.from_state(deck_doc)
    except DeckError as e:
        raise SchemaError(f"$.deck: {e}") from None
    first_error: SchemaError | None = None
    options = forced_bet_candidates(events, n, d["button"], rules, start)
    if forced is not None:
        options = [forced] + [o for o in options if o != forced]
    for missing in _missing_candidates(d, events, dealt, seen, rules):
        for forced in options:
            try:
                return _replay(cls, d, core, rules, events, dealt, draws, missing, deck, forced)
            except SchemaError as e:
                if first_error is None:
                    first_error = e
    assert first_error is not None
    raise first_error


def _missing_candidates(
    d: dict[str, Any],
    events: list[Any],
    hole: list[list[int]],
    seen: set[int],
    rules: Rules,
) -> list[frozenset[int]]:
    """The sets of cards the starting deck may have lacked (a stacked deck given to the
    constructor: they are out of play from the start), most likely first (of the game's
    deck: a reduced game's cards outside it are in no deck).

    Before any reshuffle they are exactly the cards out of play that nobody ever held. A
    reshuffle gathers them into the new stub; the starting stub's size is then known
    only from where the reshuffle happened, so the few sizes the rules allow there are
    tried: served-discards reshuffles when the stub is used up, part way through a
    player's draw (``m`` cards before it); "pokerstars" when the stub holds fewer cards
    than the player draws (``r`` cards left)."""
    first = frozenset(c for c in _ids(d["out_of_play"]) if c not in seen)
    out = [first]
    r_at = next((i for i, e in enumerate(events) if e[0] == ev.RESHUFFLE), None)
    if r_at is None:
        return out
    before: set[int] = {c for cards in hole for c in cards}
    for e in events[:r_at]:
        if e[0] in (ev.DRAW, ev.BURN) and e[3] is not None:  # dealt or burned: in the deck
            before.update(e[3])
    nd = next((e[3] for e in events[r_at:] if e[0] == ev.DRAW and e[3] is not None), ())
    held = set(_ids(d["withheld"] or []))
    rest = [c for c in rules.compiled.deck if c not in before and c not in held]
    others = [c for c in rest if c not in nd]
    shapes: list[tuple[Sequence[int], Sequence[int]]]
    if rules.reshuffle == "pokerstars":
        shapes = [((), others[:r]) for r in range(len(nd))]
    else:
        shapes = [(nd[:m], ()) for m in range(len(nd) + 1)]
    for dealt, left in shapes:
        cand = frozenset(rest) - set(dealt) - set(left)
        if cand not in out:
            out.append(cand)
    return out


def _engine_init(cls: type[Any]) -> Any:
    """The engine's ``Hand.__init__`` for ``cls`` (``Hand`` or a subclass of it, whose own
    constructor may take other arguments), found on the class rather than imported:
    hand.py imports this module."""
    for k in cls.__mro__:
        if k.__module__ == "triple_draw.game.hand" and k.__name__ == "Hand":
            return k.__dict__["__init__"]
    raise TypeError(f"{cls.__name__} is not a Hand")  # pragma: no cover - from_dict's cls


def _replay(
    cls: type[S],
    d: dict[str, Any],
    core: Any,
    rules: Rules,
    events: list[Any],
    hole: list[list[int]],
    draws: list[list[tuple[int, tuple[int, ...]]]],
    missing: frozenset[int],
    deck: Any,
    forced: dict[str, Any],
) -> S:
    """The hand the document's start and actions give (``missing``: the cards the
    starting deck lacked), checked against the whole document."""
    from triple_draw.game.actions import Action

    deck_doc = d["deck"]
    try:
        deck0 = core.Deck.from_state(
            {
                "key": deck_doc["key"],
                "word_pos": deck_doc["word_pos"],
                "stub": [c for c in rules.compiled.deck if c not in missing],
            }
        )
    except DeckError as e:
        raise SchemaError(f"$.deck: {e}") from None
    n = len(hole)
    h = cls.__new__(cls)
    hand = cast("Hand", h)
    try:
        _engine_init(cls)(
            h,
            rules,
            d["starting_stacks"],
            d["button"],
            hole_cards=hole,
            deck=deck0,
            core=core,
            withhold=d["withheld"],
            **forced,
        )
    except TripleDrawError as e:
        raise SchemaError(f"hand document: the starting state: {e}") from None
    # replay every action; the cards drawn are given (the document says which they were;
    # the engine checks each is one the deal could give at its moment)
    used = [0] * n
    reserved = d["reserved"]
    if reserved is not None and len(reserved) != n:
        raise SchemaError(f"$.reserved: must list {n} seats, got {len(reserved)}")
    # once no card is dealt any more, the deck is the document's (its stub must hold the
    # same cards; its order and stream are the document's, as any shuffle may give them):
    # the deals still to come - and their dry runs for given cards - are then the
    # original's, card for card
    # (a burn takes a card too: the burn of a draw in which everybody stands pat is the
    # last card the deck gives)
    last_deal = max(
        (i for i, e in enumerate(events) if e[0] in (ev.DEAL, ev.DRAW, ev.RESHUFFLE, ev.BURN)),
        default=0,
    )
    swapped = False
    for i, (kind, seat, amount, cards) in enumerate(events):
        if not swapped and i > last_deal:
            _adopt_deck(h, deck)
            swapped = True
        if kind in _BETTING_KINDS or kind == ev.DISCARD:
            if seat is None or seat != h._actor:
                raise SchemaError(
                    f"$.history[{i}]: seat {seat} acts ({kind}) but the seat to act is {h._actor}"
                )
            try:
                if kind == ev.DISCARD:
                    ids = list(cards or ())
                    receive: Any = None
                    q = draws[seat]
                    if ids and used[seat] < len(q) and q[used[seat]][0] > i:
                        receive = list(q[used[seat]][1])
                        used[seat] += 1
                    elif ids and reserved is not None and reserved[seat] is not None:
                        receive = [None if c == "??" else c for c in reserved[seat]]
                    hand.discard(ids, receive=receive, burn=_burn_after(events, i))
                else:
                    hand.apply(Action(kind, amount))
            except TripleDrawError as e:
                raise SchemaError(f"$.history[{i}]: {e}") from None
    log = h._log
    if log != events:
        i = next(
            (k for k, (a, b) in enumerate(zip(log, events, strict=False)) if a != b),
            min(len(log), len(events)),
        )
        want = log_to_dicts(log[i : i + 1])
        have = log_to_dicts(events[i : i + 1])
        raise SchemaError(
            f"$.history[{i}]: the document has {have[0] if have else 'no event'}, legal play "
            f"gives {want[0] if want else 'no event'}"
        )
    if not swapped:
        _adopt_deck(h, deck)
    got = to_dict(h)
    for key in DOCUMENT_KEYS:
        if got[key] != d[key]:
            path, have, want = _first_difference(d[key], got[key], f"$.{key}")
            raise SchemaError(
                f"{path}: the document has {_short(have)}, legal play from its start gives "
                f"{_short(want)}"
            )
    return h


def forced_bet_candidates(
    events: list[LogEntry], n: int, button: int, rules: Rules, start: Sequence[int]
) -> list[dict[str, Any]]:
    """The ``Hand`` options that may have posted the forced bets a history opens with,
    most likely first: :func:`forced_bets`, then each way with or without a small blind
    whose blinds' posts, as ``Hand`` makes them from the starting stacks, are the
    history's. (A blind that an ante left with no chips posts nothing and leaves no
    event: the history alone does not say whether there was a small blind, nor whether
    a big blind event is the blind's or an entry post; the replay of each candidate
    against the whole document decides.)"""
    out = [forced_bets(events, n, button, rules)]
    posts = []
    for e in events:
        if e[0] not in (ev.POST_ANTE, ev.POST_SMALL_BLIND, ev.POST_BIG_BLIND):
            break
        posts.append(e)
    if type(button) is not int or not 0 <= button < n or len(start) != n:
        return out
    left = [x if type(x) is int else 0 for x in start]
    k = 0
    if rules.ante:
        while k < len(posts) and posts[k][0] == ev.POST_ANTE and posts[k][1] is not None:
            seat, amount = posts[k][1], posts[k][2]
            if seat is not None and 0 <= seat < n and amount is not None:
                left[seat] -= amount
            k += 1
    for no_sb in (False, True) if n > 2 else (False,):
        if no_sb:
            sb, bb = None, (button + 1) % n
        elif n == 2:
            sb, bb = button, 1 - button
        else:
            sb, bb = (button + 1) % n, (button + 2) % n
        want = []
        if sb is not None and min(rules.small_blind, left[sb]) > 0:
            want.append((ev.POST_SMALL_BLIND, sb, min(rules.small_blind, left[sb]), None))
        if min(rules.big_blind, left[bb]) > 0:
            want.append((ev.POST_BIG_BLIND, bb, min(rules.big_blind, left[bb]), None))
        if posts[k : k + len(want)] != want:
            continue
        extra: dict[int, list[int]] = {}
        for post in map(ev.read, posts[k + len(want) :]):
            if post.seat is None or type(post.chips) is not int or post.seat in (sb, bb):
                break
            live_dead = extra.setdefault(post.seat, [0, 0])
            live_dead[0 if post.kind == ev.POST_BIG_BLIND else 1] += post.chips
        else:
            options: dict[str, Any] = {}
            if no_sb:
                options["no_small_blind"] = True
            if extra:
                options["posts"] = {s: (live, dead) for s, (live, dead) in extra.items()}
            if options not in out:
                out.append(options)
    return out


def forced_bets(events: list[LogEntry], n: int, button: int, rules: Rules) -> dict[str, Any]:
    """The ``Hand`` options (``no_small_blind``, ``posts``) that post the forced bets a
    history opens with: antes, the blinds, then the entry posts of players coming into the
    game (live chips as ``post_big_blind``, dead chips as ``post_ante``), as ``Hand``
    posts them. A hand dealt with ``no_small_blind`` (3+ players) has its big blind posted
    by the first seat left of the button and no small blind. Amounts are the ones posted
    (a short stack's post is what it had), which post the same chips again."""
    posts = []
    for e in events:
        if e[0] not in (ev.POST_ANTE, ev.POST_SMALL_BLIND, ev.POST_BIG_BLIND):
            break
        posts.append(e)
    k = 0
    if rules.ante:
        while k < len(posts) and k < n and posts[k][0] == ev.POST_ANTE:
            k += 1
    sb_posted = k < len(posts) and posts[k][0] == ev.POST_SMALL_BLIND
    if sb_posted:
        k += 1
    options: dict[str, Any] = {}
    if n > 2 and not sb_posted and k < len(posts) and posts[k][1] == (button + 1) % n:
        options["no_small_blind"] = True
    if k < len(posts) and posts[k][0] == ev.POST_BIG_BLIND:
        k += 1
    extra: dict[int, list[int]] = {}
    for post in map(ev.read, posts[k:]):
        if post.seat is None or type(post.chips) is not int:
            raise SchemaError("$.history: a forced bet must name a seat and an amount")
        live_dead = extra.setdefault(post.seat, [0, 0])
        live_dead[0 if post.kind == ev.POST_BIG_BLIND else 1] += post.chips
    if extra:
        options["posts"] = {s: (live, dead) for s, (live, dead) in extra.items()}
    return options


def _burn_after(events: list[LogEntry], i: int) -> int | None:
    """The burn card the discard at ``events[i]`` is followed by (the draw's burn comes
    right after the discard that deals the draw's first replacements), if any."""
    for kind, _seat, _amount, cards in events[i + 1 :]:
        if kind == ev.BURN and cards:
            return cards[0]
        if kind in _BETTING_KINDS or kind == ev.DISCARD:
            return None
    return None


def _ids(cards: list[str]) -> list[int]:
    """Card text of a document already checked against the schema, as ids."""
    return [_TEXT_ID[c] for c in cards]


def _events(items: list[dict[str, Any]]) -> list[LogEntry]:
    """The log entries of a history already checked against the schema."""
    get = _TEXT_ID.__getitem__
    return [
        (
            e["kind"],
            e.get("seat"),
            e.get("amount"),
            None if (cards := e.get("cards")) is None else tuple(map(get, cards)),
        )
        for e in items
    ]


def _adopt_deck(h: HandState, deck: Any) -> None:
    """Give the replayed hand the document's deck, if its stub holds the same cards."""
    if sorted(h._deck.stub_ids()) != sorted(deck.stub_ids()):
        raise SchemaError("$.deck.stub: does not hold the cards legal play leaves in the stub")
    h._deck = deck.copy()
    h._stub_n = len(deck)


def _first_difference(a: Any, b: Any, path: str) -> tuple[str, Any, Any]:
    """The path and values of the first place where ``a`` (the document) and ``b`` (the
    rebuild) differ; where their fields differ, the path names the field."""
    while True:
        if type(a) is dict and type(b) is dict and a.keys() != b.keys():
            extra = [k for k in a if k not in b]
            if extra:
                return f"{path}: unknown field {extra[0]!r}", a[extra[0]], "nothing"
            missing = next(k for k in b if k not in a)
            return f"{path}: missing field {missing!r}", "nothing", b[missing]
        if type(a) is dict and type(b) is dict:
            k = next(k for k in a if a[k] != b[k])
            a, b, path = a[k], b[k], f"{path}.{k}"
        elif type(a) is list and type(b) is list and len(a) == len(b):
            k = next(k for k in range(len(a)) if a[k] != b[k])
            a, b, path = a[k], b[k], f"{path}[{k}]"
        else:
            return path, a, b


def _short(v: Any) -> str:
    s = repr(v)
    return s if len(s) <= 80 else s[:77] + "..."


def card_partition(st: HandState) -> dict[str, list[int]]:
    """Where all 52 cards are: ``hands`` (seats still in), ``stub`` (the deck, then any
    withheld cards of a replay), ``out_of_play`` (folded hands, discards, declared
    discards awaiting replacement), ``outside`` (the cards a reduced game's deck does
    not hold, ascending; none in the real game). Given cards reserved for a declared
    player stay where they are until dealt. The four lists always partition
    ``range(52)``."""
    hands = [c for s in range(st._n) if st._live[s] for c in st._hands[s]]
    out = list(st._out)
    for _j, t in st._declared:
        out.extend(t)
    stub = list(st._deck.stub_ids())
    stub.extend(st._withheld or ())
    return {"hands": hands, "stub": stub, "out_of_play": out, "outside": list(st._rc.outside)}
