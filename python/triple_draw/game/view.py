"""What one seat may see (``Hand.view``): a read-only, JSON-ready dict.

A view holds the seat's own current cards (none once he has folded), his own discards
and the cards he received at each draw (``own_draws``, and the ``cards`` of his own
``discard``/``draw`` events), the public betting, how many cards each player drew, and the
hands shown at showdown. It never holds another seat's unshown cards or discards, burned
cards, mucked hands, or the stub.

Views are read-only and shared: a view is a :class:`FrozenDict` (a ``dict`` whose
mutating methods raise) holding :class:`FrozenList` lists (``list`` likewise) and other
frozen dicts, all the way down. ``json.dumps`` serialises them, ``isinstance(v, dict)``
and ``v["players"] == [...]`` hold as for plain containers. A caller that needs to change
one copies it: ``copy.deepcopy(view)`` (which gives plain dicts and lists), or
``json.loads(json.dumps(view))``.

Speed: the engine only ever appends to its log, and every change of the state appends to
it. So the first ``view()`` of a hand creates a cache that follows the log:

- the public history, as frozen entries converted once each (entries without cards are
  shared between hands), and each seat's own version of it (his discards and draws with
  their cards), brought up to date when he is viewed;
- every seat's player record, rebuilt only when one of its values changed (checked for
  the seats a log entry since the last update names, and for every seat when the phase
  or street changed: a new round resets the bets); its draw counts are the hand's public
  record of them (``HandState._draws``), not counted again here;
- each seat's view, kept until the log grows: a second ``view(seat)`` at the same point
  returns the same object.

With the compiled core, the cache is ``triple_draw._core.ViewCache`` (rust/python/view.rs),
the same algorithm building the same containers through the C API; :class:`ViewCache` here
is its reference (tests/test_view_parity.py holds the two equal, key order included) and
the cache of every other core. The engine itself never touches the cache: a hand nobody
views pays nothing for it.
"""

from __future__ import annotations

import copy as _copy
from threading import Lock
from collections.abc import Callable
from typing import Any, NamedTuple, NoReturn

from triple_draw.errors import ArgumentError, ArgumentTypeError
from triple_draw.game import events as ev
from triple_draw.game.actions import Action
from triple_draw.game.betting import legal_actions, round_action
from triple_draw.game.cards import CARD_TEXT
from triple_draw.game.events import LogEntry
from triple_draw.game.phase import BET, MAY_RAISE, OVER, PHASES, SHOWDOWN
from triple_draw.game.showdown import hand_result
from triple_draw.game.state import HandState
from triple_draw.schema import VIEW_VERSION

__all__ = ["FrozenDict", "FrozenList", "ViewCache", "build_view", "freeze"]


def _read_only(self: object, *args: object, **kwargs: object) -> NoReturn:
    raise ArgumentTypeError(
        f"a view is read-only ({type(self).__name__}); copy it with copy.deepcopy(...) to change it"
    )


class FrozenDict(dict[str, Any]):
    """A ``dict`` that cannot be changed (the containers of a view). ``copy()``,
    ``dict(d)`` and ``copy.copy`` give a plain dict; ``copy.deepcopy`` plain containers
    all the way down."""

    __slots__ = ()
    __setitem__ = __delitem__ = __ior__ = _read_only
    clear = pop = popitem = setdefault = update = _read_only

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        return {k: _copy.deepcopy(v, memo) for k, v in self.items()}

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenDict, (dict(self),))


class FrozenList(list[Any]):
    """A ``list`` that cannot be changed (the lists of a view). ``copy()``, ``list(x)``
    and ``copy.copy`` give a plain list; ``copy.deepcopy`` plain containers all the way
    down."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _read_only
    append = extend = insert = pop = remove = clear = sort = reverse = _read_only

    def __copy__(self) -> list[Any]:
        return list(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> list[Any]:
        return [_copy.deepcopy(v, memo) for v in self]

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenList, (list(self),))


def freeze(x: Any) -> Any:
    """``x`` (JSON-ready data) with every dict and list (and tuple) made frozen."""
    if isinstance(x, dict):
        return FrozenDict({k: freeze(v) for k, v in x.items()})
    if isinstance(x, (list, tuple)):
        return FrozenList(map(freeze, x))
    return x


# entries about nobody in particular that change no player's record by themselves
_PHASE_MARKS = frozenset((ev.BEGIN_ROUND, ev.BEGIN_DRAW))
# events whose cards are private: the view keeps only how many there were
_COUNT_ONLY = frozenset((ev.DEAL, ev.DISCARD, ev.DRAW, ev.BURN))
# of these, the seat's own are shown to him
_OWN = frozenset((ev.DISCARD, ev.DRAW))
_STAKES = ("small_blind", "big_blind", "small_bet", "big_bet", "ante")
_NO_ACTIONS = FrozenList()
_DISCARD_ACTIONS = FrozenList((FrozenDict({"kind": "discard", "max_cards": 5}),))
#: by the hand size (a reduced game's: 1..5)
_DISCARD_BY_SIZE = tuple(
    _DISCARD_ACTIONS if k == 5 else FrozenList((FrozenDict({"kind": "discard", "max_cards": k}),))
    for k in range(6)
)
#: a record's showdown (``Hand.show``, ``Hand.muck``)
_SHOWDOWN_ACTIONS = FrozenList((FrozenDict({"kind": "show"}), FrozenDict({"kind": "muck"})))
#: the history entries of the log entries without cards, shared (bounded)
_ENTRIES: dict[LogEntry, FrozenDict] = {}


def _entry_dict(kind: str, who: int | None, amount: int | None) -> dict[str, Any]:
    e: dict[str, Any] = {"kind": kind}
    if who is not None:
        e["seat"] = who
    return e


def _entry(kind: str, who: int | None, amount: int | None) -> FrozenDict:
    e = _entry_dict(kind, who, amount)
    if amount is not None:
        e["amount"] = amount
    return FrozenDict(e)


#: the betting actions of a shared tuple of legal actions, as view entries, by the
#: tuple's id (the tuple is kept with them, so the id is never reused)
_ACTION_DICTS: dict[int, tuple[tuple[Action, ...], FrozenList]] = {}


def _action_dicts(acts: tuple[Action, ...]) -> FrozenList:
    got = _ACTION_DICTS.get(id(acts))
    if got is not None and got[0] is acts:
        return got[1]
    dicts = FrozenList(freeze(a.to_dict()) for a in acts)
    if len(_ACTION_DICTS) < 4096:
        _ACTION_DICTS[id(acts)] = (acts, dicts)
    return dicts


class ViewCache:
    """What the views of one hand share, built incrementally from its log.

    ``log`` is the hand's log list this cache follows and ``pos`` how many of its entries
    it has taken in: if the hand's ``_log`` is another list, or shorter than ``pos`` (or
    its ``rules`` another object), the cache is stale and rebuilt from scratch."""

    __slots__ = (
        "drawn",
        "draws",
        "entries",
        "hist",
        "hole",
        "lock",
        "log",
        "own_draws",
        "own_raw",
        "pending",
        "phase",
        "players",
        "pos",
        "records",
        "result",
        "rules",
        "stakes",
        "street",
        "views",
    )

    def __init__(self, h: HandState) -> None:
        n = h._n
        self.log: list[LogEntry] = h._log
        self.pos = -1  # nothing taken in yet (not even the empty log)
        #: the public history entries, frozen, converted once each
        self.entries: list[FrozenDict] = []
        #: hist[seat]: the history as the seat sees it (the public entries, with his own
        #: discards and draws showing their cards), brought up to date when he is viewed;
        #: pending[seat]: his own entries not yet put in, as (index, entry)
        self.hist: list[list[FrozenDict]] = [[] for _ in range(n)]
        self.pending: list[list[tuple[int, FrozenDict]]] = [[] for _ in range(n)]
        #: draws[seat]: the hand's record of his draw counts (``_draws[seat]``, a tuple
        #: replaced at each of his discards) when ``drawn[seat]``, its view list, was built
        self.draws: list[tuple[int, ...]] = [()] * n
        self.drawn: list[FrozenList] = [_NO_ACTIONS] * n
        #: each seat's player record, and the list of them handed out
        self.records: list[FrozenDict] = [FrozenDict()] * n
        self.players = _NO_ACTIONS
        #: the phase and street when the records were built
        self.phase = -1
        self.street = -1
        #: views[seat]: the seat's view at ``pos``, or None
        self.views: list[FrozenDict | None] = [None] * n
        self.result: FrozenDict | None = None
        #: hole[seat]: (the cards, as a tuple of ids, and as the view's list)
        self.hole: list[tuple[tuple[int, ...], FrozenList]] = [((), _NO_ACTIONS)] * n
        #: own_raw[seat]: his draws so far (discarded, received), and as his ``own_draws``
        self.own_raw: list[list[FrozenDict]] = [[] for _ in range(n)]
        self.own_draws: list[FrozenList] = [_NO_ACTIONS] * n
        self.rules = rules = h.rules
        self.stakes = _stakes_of(rules)
        #: held while updating, so that views read from several threads at once never
        #: take in an entry twice (``pos`` moves only once everything is in)
        self.lock = Lock()

    def view(self, h: HandState, seat: int) -> FrozenDict:
        """The view of ``seat`` of hand ``h``: the hand this cache follows (another hand,
        or this one after a change of its log list or rules, starts the cache again). A
        seat that is not an int seat of the hand is an ``ArgumentError``."""
        if self.log is not h._log or self.pos > len(h._log) or self.rules is not h.rules:
            self.__init__(h)  # type: ignore[misc]
        if type(seat) is not int or not 0 <= seat < h._n:
            raise ArgumentError(f"seat must be 0..{h._n - 1}, got {seat!r}")
        return build_view(h, self, seat)

    def update(self, h: HandState) -> None:
        """Take in the log entries appended since the last call: every seat's history,
        and the player records of the seats they name, of the seats whose shown bet
        changed with the phase, and of all of them at the start and the end of the hand
        (or if an entry other than the start of a round or draw names nobody)."""
        log = self.log
        end = len(log)
        append = self.entries.append
        n = h._n
        every = self.pos < 0
        named: list[int] = []
        for i in range(self.pos if self.pos > 0 else 0, end):
            entry = log[i]
            kind, who, amount, cards = entry
            if who is not None:
                named.append(who)
            elif kind not in _PHASE_MARKS:  # an entry about nobody in particular
                every = True
            if cards is None:  # no cards: the same entry for every hand (shared)
                fe = _ENTRIES.get(entry)
                if fe is None:
                    fe = _entry(kind, who, amount)
                    if len(_ENTRIES) < 1 << 14:
                        _ENTRIES[entry] = fe
                append(fe)
                continue
            e = _entry_dict(kind, who, amount)
            if amount is not None:
                e["amount"] = amount
            if kind in _COUNT_ONLY:
                e["count"] = len(cards)
                append(FrozenDict(e))
                if who is not None and kind in _OWN:
                    self._take_own(i, kind, who, e, cards)
            else:  # "show": public
                e["cards"] = FrozenList([CARD_TEXT[c] for c in cards])
                append(FrozenDict(e))
        phase = h._phase
        records = self.records
        if phase != self.phase or h._street != self.street:
            # a new round or draw changes the records only through the bets shown (a
            # record shows the round's bets while betting, none otherwise); the end of
            # the hand (or the first update) may change every field
            self.phase = phase
            self.street = h._street
            if phase == OVER:
                every = True
            elif not every:
                bets = h._bet
                betting = phase == BET
                for j in range(n):
                    if records[j]["bet"] != (bets[j] if betting else 0):
                        named.append(j)
        if every or named:
            live = h._live
            stacks = h._stacks
            total = h._total
            hands = h._hands
            draws = h._draws
            drawn = self.drawn
            bet = h._bet if phase == BET else None
            not_over = phase != OVER
            shown = dict(h._showdown) if h._showdown else None
            for j in range(n) if every else named:
                lv = live[j]
                x = stacks[j]
                if draws[j] is not self.draws[j]:
                    self.draws[j] = draws[j]
                    drawn[j] = FrozenList(draws[j])
                records[j] = FrozenDict(
                    {
                        "seat": j,
                        "stack": x,
                        "bet": 0 if bet is None else bet[j],
                        "committed": total[j],
                        "folded": not lv,
                        "all_in": lv and x == 0 and not_over,
                        "cards": len(hands[j]) if lv else 0,
                        "draws": drawn[j],
                        "shown": FrozenList([CARD_TEXT[c] for c in hands[j]])
                        if shown is not None and shown.get(j, False)
                        else None,
                    }
                )
            self.players = FrozenList(records)
        if end != self.pos:
            self.views = [None] * n
            if phase == OVER and self.result is None:
                self.result = _result_of(h)
        self.pos = end

    def _take_own(
        self, i: int, kind: str, who: int, e: dict[str, Any], cards: tuple[int, ...]
    ) -> None:
        """Log entry ``i``, a discard or draw of seat ``who`` (``e``: its public entry,
        with the count only): its cards are his own information - his version of the
        history entry and his ``own_draws``."""
        text = FrozenList([CARD_TEXT[c] for c in cards])
        e["cards"] = text
        self.pending[who].append((i, FrozenDict(e)))
        raw = self.own_raw[who]
        if kind == ev.DISCARD:
            received = _NO_ACTIONS if not cards else None
            raw.append(FrozenDict({"discarded": text, "received": received}))
        elif raw:
            raw[-1] = FrozenDict({"discarded": raw[-1]["discarded"], "received": text})
        self.own_draws[who] = FrozenList(raw)


def build_view(h: HandState, vc: ViewCache, seat: int) -> FrozenDict:
    """The view of ``seat`` (``Hand.view``, which checks the seat), with ``vc`` the
    hand's cache (up to date or not: it takes in what the log gained since)."""
    if vc.pos != len(h._log):
        with vc.lock:
            if vc.pos != len(h._log):
                vc.update(h)
    v = vc.views[seat]
    if v is not None:
        return v
    phase = h._phase
    actor = h._actor
    if actor != seat:
        legal = _NO_ACTIONS
    elif phase == BET:
        legal = _legal_dicts(h)
    elif phase == SHOWDOWN:
        legal = _SHOWDOWN_ACTIONS
    else:
        legal = _DISCARD_BY_SIZE[h._rc.hand_size]
    v = vc.views[seat] = FrozenDict(
        {
            "schema_version": VIEW_VERSION,
            "seat": seat,
            "n_players": h._n,
            "button": h._button,
            "small_blind_seat": h._sb,
            "big_blind_seat": h._bb,
            "stakes": vc.stakes,
            "phase": PHASES[phase],
            "street": h._street,
            "actor": actor,
            "pot": sum(h._total),
            "bet_level": h._level if phase == BET else 0,
            "hole_cards": _hole(vc, seat, h._hands[seat]) if h._live[seat] else _NO_ACTIONS,
            "own_draws": vc.own_draws[seat],
            "players": vc.players,
            "history": _history(vc, seat),
            "legal_actions": legal,
            "result": vc.result,
        }
    )
    return v


def _history(vc: ViewCache, seat: int) -> FrozenList:
    """The history as ``seat`` sees it: the public one, with his own discards and draws
    showing their cards."""
    mine = vc.hist[seat]
    k = len(mine)
    entries = vc.entries
    if k != len(entries):
        mine += entries[k:]
        pending = vc.pending[seat]
        if pending:
            for i, e in pending:
                mine[i] = e
            pending.clear()
    return FrozenList(mine)


def _hole(vc: ViewCache, seat: int, held: list[int]) -> FrozenList:
    """The seat's cards as the view's list, rebuilt only when they changed."""
    ids, text = vc.hole[seat]
    t = tuple(held)
    if t != ids:
        text = FrozenList([CARD_TEXT[c] for c in t])
        vc.hole[seat] = (t, text)
    return text


def _legal_dicts(h: HandState) -> FrozenList:
    return _action_dicts(legal_actions(h))  # type: ignore[arg-type]


def _result_of(h: HandState) -> FrozenDict:
    res = hand_result(h)
    assert res is not None  # the hand is over
    return freeze(  # type: ignore[no-any-return]
        {
            "pots": [p.to_dict() for p in res.pots],
            "showdown": [e.to_dict() for e in res.showdown],
            "returned": None if res.returned is None else list(res.returned),
            "net": list(res.net),
        }
    )


def _stakes_of(rules: Any) -> FrozenDict:
    return FrozenDict({k: getattr(rules, k) for k in _STAKES})


class HandFields(NamedTuple):
    """The names of the hand's fields (``HandState``, state.py) that the compiled views
    (and the batched environment's compiled learner loop) read, by what they are to the
    views: the one place those private names are written for the compiled core, which
    reads the hand through them and names none itself
    (tests/test_view_parity.py holds every name to ``FIELDS``)."""

    n: str = "_n"
    rules: str = "rules"
    button: str = "_button"
    small_blind: str = "_sb"
    big_blind: str = "_bb"
    log: str = "_log"
    live: str = "_live"
    stacks: str = "_stacks"
    total: str = "_total"
    hands: str = "_hands"
    draws: str = "_draws"
    phase: str = "_phase"
    street: str = "_street"
    bets: str = "_bet"
    showdown: str = "_showdown"
    actor: str = "_actor"
    level: str = "_level"
    to_act: str = "_to_act"
    full_bets: str = "_full_bets"
    full_level: str = "_full_level"
    unit: str = "_unit"
    #: (read by the batched environment's compiled learner loop, rust/python/vector.rs)
    in_draw: str = "_in_draw"


class CompiledSupport(NamedTuple):
    """What the compiled core's ``ViewCache`` (rust/python/view.rs: the same algorithm as
    :class:`ViewCache`, which the parity tests hold it to) takes from this module, by
    name: the containers, the texts, the shared caches and builders, the constants it
    compares with (phase codes, the to-act state, the log's kinds) and the names of the
    hand's fields it reads."""

    frozen_dict: type[FrozenDict]
    frozen_list: type[FrozenList]
    card_text: tuple[str, ...]
    phases: tuple[str, ...]
    version: int
    entries: dict[LogEntry, FrozenDict]
    legal_dicts: Callable[[HandState], FrozenList]
    result_of: Callable[[HandState], FrozenDict]
    stakes_of: Callable[[Any], FrozenDict]
    discard_actions: FrozenList
    empty: FrozenList
    entries_max: int
    #: the phase codes of a betting round and of a hand that is over (phase.py)
    bet: int
    over: int
    #: the to-act state of a seat that may bet or raise: the raise rule (phase.py)
    may_raise: int
    #: the log's kinds that start a round or a draw (an entry about nobody that changes
    #: no player's record), whose cards the view counts only, and the seat's own of
    #: these (his discards, his draws: their cards are shown to him)
    phase_marks: tuple[str, ...]
    count_only: tuple[str, ...]
    discard: str
    draw: str
    #: where a log entry's kind, seat, amount and cards sit in its tuple (events.py)
    log_layout: ev.LogLayout
    fields: HandFields
    #: the reader of the public record's round account (betting.round_action), for the
    #: batched environment's compiled learner loop, which reads the hand as its Python
    #: loop does
    round_action: Callable[[HandState], tuple[int, bool]]


_COMPILED_SUPPORT = CompiledSupport(
    frozen_dict=FrozenDict,
    frozen_list=FrozenList,
    card_text=tuple(CARD_TEXT),
    phases=PHASES,
    version=VIEW_VERSION,
    entries=_ENTRIES,
    legal_dicts=_legal_dicts,
    result_of=_result_of,
    stakes_of=_stakes_of,
    discard_actions=_DISCARD_ACTIONS,
    empty=_NO_ACTIONS,
    entries_max=1 << 14,
    bet=BET,
    over=OVER,
    may_raise=MAY_RAISE,
    phase_marks=(ev.BEGIN_ROUND, ev.BEGIN_DRAW),
    count_only=(ev.DEAL, ev.DISCARD, ev.DRAW, ev.BURN),
    discard=ev.DISCARD,
    draw=ev.DRAW,
    log_layout=ev.LOG_LAYOUT,
    fields=HandFields(),
    round_action=round_action,
)
