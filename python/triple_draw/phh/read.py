"""Reading PHH: the TOML text, the fields, and the two passes of loading a hand (the
cards - a quick choice of the unknown ones, :mod:`triple_draw.phh.infer`, and if it gets
stuck the search, :mod:`triple_draw.phh.solve` - then the replay,
:mod:`triple_draw.phh.replay`)."""

from __future__ import annotations

import os
import random
import warnings
from decimal import Decimal
from collections.abc import Iterator
from typing import Any

from triple_draw.errors import HistoryError, RulesError
from triple_draw.game import core as _coremod
from triple_draw.game.hand import Hand
from triple_draw.game.rules import Rules, real_game_only
from triple_draw.phh.actions import parse_actions
from triple_draw.phh.base import (
    FOREIGN,
    FORCED_FIELD,
    OPTION_NAMES,
    OPTIONAL,
    REQUIRED,
    RAKE_FIELD,
    RAKE_NAMES,
    RULES_FIELD,
    STAKE_NAMES,
    VARIANT,
    Bad,
    Locator,
    chip_list,
    chips,
    parse_toml,
    short,
    whole,
)
from triple_draw.phh.actions import Act
from triple_draw.phh.infer import Cards
from triple_draw.phh.solve import Plan, Solver, Unsolved, named, recorded_stubs
from triple_draw.phh.record import has_unknown, replay_record
from triple_draw.phh.replay import MuckWins, OrderError, replay
from triple_draw.phh.timing import Serves, Timing, find_reshuffles, find_serves

#: Random choices of the unknown cards tried at most when the first choice got stuck and
#: the search (phh.solve, bounded by its MAX_NODES) did not finish: a random choice can
#: get stuck (a card the history names later cannot be dealt then; or a hand mucked
#: unseen would win the showdown). Some "pokerstars" views need over 200.
MAX_ATTEMPTS = 240
#: "pokerstars": content-driven reshuffles chosen together at most.
MAX_CROWDED = 2
#: Deck orders tried for a history of a game with burn cards that reshuffles.
BURN_ATTEMPTS = 24


def loads(
    text: str,
    *,
    rules: Rules | None = None,
    seed: int | None = None,
    core: Any = None,
    check_finishing_stacks: bool = True,
) -> Hand:
    """Replay the PHH ``text`` of one hand into a new :class:`Hand`.

    - ``rules``: the rule options to replay under (its stakes are replaced by the file's);
      default: the options in the file's ``_triple_draw_rules`` field, else ``Rules()``.
      To replay PokerKit hands, :meth:`Rules.pokerkit` comes closest (docs: PHH).
    - ``seed``: seeds the deck that deals the unknown (``??``) cards and the cards after
      the history ends (``None``: OS entropy).
    - ``check_finishing_stacks``: if the hand is over and the file gives
      ``finishing_stacks``, they must equal the replayed stacks.

    A history that leaves cards unknown (``??``: one player's view) is replayed as it is,
    as a hand with unknown cards (``Hand.is_record``; docs/engine.md, *Records with
    unknown cards*): nothing is searched or invented. :func:`complete` deals its unknown
    cards instead.

    Raises :class:`HistoryError` naming the line and action at fault, for any text.
    """
    data = _one_hand(text, "use loads_all")
    return _load_one(data, Locator(text), rules, seed, core, check_finishing_stacks)


def _one_hand(text: str, instead: str) -> dict[str, Any]:
    """The TOML of a PHH text of one hand (a ``.phhs`` text of many is refused, saying
    what to do ``instead``)."""
    data = parse_toml(text)
    if "variant" not in data and data and all(isinstance(v, dict) for v in data.values()):
        raise HistoryError(f"this is a .phhs text of {len(data)} hands: {instead}")
    return data


def complete(
    text: str,
    *,
    rules: Rules | None = None,
    seed: int | None = None,
    core: Any = None,
    check_finishing_stacks: bool = True,
) -> Hand:
    """Replay the PHH ``text`` of one hand into a fully dealt :class:`Hand`: every unknown
    (``??``) card is chosen among the cards the deal could have given at that moment under
    the hand's rules - by a bounded search where a quick choice gets stuck (``seed``
    seeds the choices and the deck that deals on). The hand can be played on, saved with
    ``to_dict`` and analysed like any other; the chosen cards are one possibility, not
    what was dealt. Raises :class:`HistoryError` if no choice fits the history (or, for a
    history needing more than the search's bound, after the random retries)."""
    data = _one_hand(text, "complete one at a time")
    return _load_one(
        data, Locator(text), rules, seed, core, check_finishing_stacks, complete=True
    )


def loads_all(
    text: str,
    *,
    rules: Rules | None = None,
    seed: int | None = None,
    core: Any = None,
    check_finishing_stacks: bool = True,
) -> list[Hand]:
    """Every hand of a ``.phhs`` text (TOML tables, each one PHH hand), in file order.

    A single-hand PHH text gives a list of one hand. Errors name the hand's table."""
    data = parse_toml(text)
    if "variant" in data:
        return [_load_one(data, Locator(text), rules, seed, core, check_finishing_stacks)]
    hands = []
    for i, (name, table) in enumerate(data.items()):
        if not isinstance(table, dict):
            raise HistoryError(
                f"a .phhs text holds only tables of hands; {name[:40]!r} is not a table"
            )
        sub_seed = None if seed is None else seed + i
        hands.append(
            _load_one(table, Locator(text, name), rules, sub_seed, core, check_finishing_stacks)
        )
    return hands


def load(fp: Any, **kwargs: Any) -> Hand:
    """:func:`loads` of a path or an open (text or binary) file."""
    return loads(_read(fp), **kwargs)


def load_all(fp: Any, **kwargs: Any) -> list[Hand]:
    """:func:`loads_all` of a path or an open file (``.phhs``)."""
    return loads_all(_read(fp), **kwargs)


def _read(fp: Any) -> str:
    try:
        if isinstance(fp, (str, os.PathLike)):
            with open(fp, encoding="utf-8") as f:
                return f.read()
        data = fp.read()
        return data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError as e:
        raise HistoryError(f"a PHH file is UTF-8 text: {e}") from None


def _antes(data: dict[str, Any], n: int) -> list[int]:
    ante_list = data["antes"]
    if isinstance(ante_list, list):
        return chip_list(ante_list, "antes", n)
    return [chips(ante_list, "antes")] * n


def _forced(data: dict[str, Any]) -> dict[str, Any] | None:
    """The forced-bets field of a hand a table dealt (``None`` if absent), checked."""
    forced = data.get(FORCED_FIELD)
    if forced is None:
        return None
    if not isinstance(forced, dict) or set(forced) != {
        "small_blind",
        "big_blind",
        "ante",
        "no_small_blind",
    }:
        raise HistoryError(
            f"{FORCED_FIELD} must be a table of small_blind, big_blind, ante and "
            f"no_small_blind, got {short(forced)}"
        )
    if type(forced["no_small_blind"]) is not bool:
        raise HistoryError(f"{FORCED_FIELD}.no_small_blind must be true or false")
    out: dict[str, Any] = {
        k: chips(forced[k], f"{FORCED_FIELD}.{k}") for k in STAKE_NAMES if k in forced
    }
    out["no_small_blind"] = forced["no_small_blind"]
    return out


def _rules_for(data: dict[str, Any], n: int, rules: Rules | None) -> Rules:
    antes = _antes(data, n)
    blinds = chip_list(data["blinds_or_straddles"], "blinds_or_straddles", n)
    forced = _forced(data)
    if forced is not None:  # the stakes are the field's; the rest are posts (_posts)
        stakes = {k: forced[k] for k in ("small_blind", "big_blind", "ante")}
    else:
        if len(set(antes)) != 1:
            raise HistoryError(
                "antes must be the same for every player (triple_draw has uniform antes), "
                f"got {antes}"
            )
        if any(blinds[2:]):
            raise HistoryError(f"blinds_or_straddles: straddles are not supported, got {blinds}")
        stakes = {"small_blind": blinds[0], "big_blind": blinds[1], "ante": antes[0]}
    stakes["small_bet"] = chips(data["small_bet"], "small_bet", 1)
    stakes["big_bet"] = chips(data["big_bet"], "big_bet", 1)
    if rules is None:
        options: dict[str, Any] = {}
        extra = data.get(RULES_FIELD)
        if extra is not None:
            if not isinstance(extra, dict):
                raise HistoryError(f"{RULES_FIELD} must be a table of rule options")
            for k, v in extra.items():
                if k in STAKE_NAMES:
                    if chips(v, f"{RULES_FIELD}.{k}") != stakes[k]:
                        raise HistoryError(
                            f"{RULES_FIELD}.{k} = {v} disagrees with the PHH stakes ({stakes[k]})"
                        )
                    continue
                if k not in OPTION_NAMES and k not in RAKE_NAMES:
                    raise HistoryError(f"{RULES_FIELD}: unknown rule option {k[:40]!r}")
                if isinstance(v, Decimal) or (isinstance(v, int) and not isinstance(v, bool)):
                    number = whole(v)
                    if number is None:
                        raise HistoryError(
                            f"{RULES_FIELD}.{k} must be a whole number below 10**40, got {short(v)}"
                        )
                    v = number
                options[k] = v
        try:
            base = Rules(**options) if options else Rules()
        except (RulesError, TypeError) as e:
            raise HistoryError(f"{RULES_FIELD}: {e}") from None
    else:
        if type(rules) is not Rules:
            raise HistoryError(f"rules must be a Rules, got {type(rules).__name__}")
        real_game_only(rules, "PHH")
        base = rules
    if n > base.max_players:
        stakes["max_players"] = n
    try:
        return base.replace(**stakes)
    except RulesError as e:
        raise HistoryError(f"the stakes of this history are not valid rules: {e}") from None


def _posts(data: dict[str, Any], rules: Rules, seat_of: list[int]) -> dict[str, Any]:
    """The forced bets beyond the blinds and the ante, as :class:`Hand` arguments
    (``no_small_blind``, ``posts``): read from a hand a table dealt (the forced-bets
    field present) as each player's chips over his blind and ante, else none."""
    forced = _forced(data)
    if forced is None:
        return {}
    n = len(seat_of)
    no_sb = forced["no_small_blind"]
    if no_sb and n == 2:
        raise HistoryError(f"{FORCED_FIELD}: heads-up the button always posts the small blind")
    antes = _antes(data, n)
    blinds = chip_list(data["blinds_or_straddles"], "blinds_or_straddles", n)
    nominal = [rules.big_blind] if no_sb else [rules.small_blind, rules.big_blind]
    posts: dict[int, tuple[int, int]] = {}
    for k in range(n):
        live = blinds[k] - (nominal[k] if k < len(nominal) else 0)
        dead = antes[k] - rules.ante
        if live < 0 or dead < 0:
            raise HistoryError(
                f"p{k + 1} posts less than the stakes in {FORCED_FIELD} ask: "
                f"blinds_or_straddles {blinds[k]}, antes {antes[k]}"
            )
        if not live and not dead:
            continue
        if k < len(nominal):
            raise HistoryError(f"p{k + 1} posts a blind and cannot post more")
        if live > rules.big_blind:
            raise HistoryError(
                f"p{k + 1} posts {live} live: an entry post is at most the big blind "
                f"({rules.big_blind})"
            )
        posts[seat_of[k]] = (live, dead)
    return {"no_small_blind": no_sb, "posts": posts}


def _seating(data: dict[str, Any], n: int) -> tuple[list[int], int]:
    """``(seat of p1..pn, button)``: from the ``seats`` field when it is a clockwise
    rotation of 1..n (as dumps writes it), else p1 = seat 0 and pn (button) = seat n-1."""
    seats = data.get("seats")
    if isinstance(seats, list) and len(seats) == n and all(type(x) is int for x in seats):
        first = seats[0] - 1
        if all(seats[k] == (first + k) % n + 1 for k in range(n)):
            return [x - 1 for x in seats], seats[-1] - 1
    return list(range(n)), n - 1


def _load_one(
    data: dict[str, Any],
    loc: Locator,
    rules: Rules | None,
    seed: int | None,
    core: Any,
    check: bool,
    *,
    complete: bool = False,
) -> Hand:
    where = loc.prefix()
    for name in REQUIRED:
        if name not in data:
            raise HistoryError(f"{where}missing required field {name!r}")
    if data["variant"] != VARIANT:
        raise HistoryError(
            f"{where}variant {short(data['variant'])} is not fixed-limit deuce-to-seven "
            f"triple draw ({VARIANT!r})"
        )
    for name in FOREIGN:
        if name in data:
            raise HistoryError(f"{where}field {name!r} does not belong to a {VARIANT} history")
    for name in data:
        if name not in REQUIRED and name not in OPTIONAL and not name.startswith("_"):
            warnings.warn(f"{where}unknown PHH field {name[:40]!r} ignored", stacklevel=4)
    stacks_phh = data["starting_stacks"]
    if not isinstance(stacks_phh, list) or not 2 <= len(stacks_phh) <= 8:
        raise HistoryError(
            f"{where}starting_stacks must list 2 to 8 stacks, got {short(stacks_phh)}"
        )
    n = len(stacks_phh)
    finishing = data.get("finishing_stacks") if check else None
    try:
        stacks_phh = chip_list(stacks_phh, "starting_stacks", n, 1)
        the_rules = _rules_for(data, n, rules)
        if finishing is not None:
            finishing = chip_list(finishing, "finishing_stacks", n)
        seat_of, button = _seating(data, n)
        forced = _posts(data, the_rules, seat_of)
    except HistoryError as e:
        raise HistoryError(f"{where}{e}") from None
    acts = parse_actions(data["actions"], n, loc)
    core = _coremod.resolve_core(core)
    rake = data.get(RAKE_FIELD)
    if rake is not None:
        rake = chips(rake, RAKE_FIELD)
        if complete:
            raise HistoryError(
                f"{where}{RAKE_FIELD}: a recorded rake is replayed only as a record (loads)"
            )
    if not complete and (rake is not None or has_unknown(acts)):
        return replay_record(
            the_rules, stacks_phh, seat_of, button, acts, core, loc, finishing,
            forced=forced, rake=rake,
        )
    serves = find_serves(the_rules, stacks_phh, seat_of, button, acts, core, forced=forced)
    pokerstars = the_rules.reshuffle == "pokerstars"
    timings = _timings(serves, pokerstars, pool_all=the_rules.reshuffle == "pokerkit")
    timing = next(timings)
    # where the history records the new stubs (and they fit the counts): every other
    # random choice follows the record (set when the first choice got stuck)
    exact: Timing | None = None
    cards = Cards(acts, n, loc, timing)
    unknown = cards.revealed or any(s.card is None for s in cards.slots)
    rng = random.Random(seed)
    searched = False
    first: HistoryError | None = None
    # burn cards are never named: after a reshuffle the burn may take a card the history
    # deals later from that stub; another deck order burns another card
    burns = the_rules.burn_cards and bool(timing.reshuffles)
    attempts = MAX_ATTEMPTS if unknown else BURN_ATTEMPTS if burns else 1
    tried: list[Timing] = [timing]

    def play(cards: Cards, deck_seed: int | None, plan: Plan | None = None) -> Hand:
        return replay(
            the_rules,
            stacks_phh,
            seat_of,
            button,
            acts,
            cards,
            deck_seed,
            core,
            loc,
            finishing,
            forced=forced,
            plan=plan,
        )

    for attempt in range(attempts):
        if attempt == 1 and not searched:
            # the first choice got stuck: search every choice (bounded)
            searched = True
            try:
                recorded = _recorded(acts, n, the_rules, serves, loc)
                if recorded is not None and recorded.fixed is not None:
                    steps = recorded.steps
                    crowded = {steps[d].act: steps[d].nth for d in recorded.crowd}
                    exact = find_reshuffles(serves, True, crowded)
                plan = _search(acts, n, the_rules, serves, loc, recorded)
            except HistoryError:
                if unknown or first is None:
                    raise
                # every card is named (only burn cards were a choice): the replay's own
                # reason names the card and why the deal cannot give it
                raise HistoryError(str(first)) from None
            if plan is not None:
                try:
                    return play(cards, seed, plan)
                except OrderError as e:
                    raise HistoryError(str(e)) from None
                except HistoryError as e:  # a hand mucked unseen wins with these cards
                    first = e
        # unknown cards: preferably ones the history never names; if the choice gets
        # stuck (a card the history names later cannot be dealt then), or a hand mucked
        # unseen would win, choose again - under "pokerstars" also where the stub runs
        # out early (what is left of it is the served player's own discards)
        if attempt:
            if exact is not None and attempt % 2:
                timing = exact
            else:
                timing = next(timings, None) or tried[attempt % len(tried)]
                if timing not in tried:
                    tried.append(timing)
            try:
                cards = Cards(acts, n, loc, timing, random.Random(rng.random()))
            except HistoryError as e:
                first = first or e
                continue
        cards.start(rng, attempt)
        try:
            cards.assign()
        except Bad as e:
            first = first or HistoryError(f"{where}{e}")
            continue
        try:
            return play(cards, rng.randrange(1 << 63) if burns and attempt else seed)
        except MuckWins as e:
            # the cards chosen for a hand mucked unseen would win: choose others
            if not e.chosen:
                raise HistoryError(str(e)) from None
            first = first or e
        except OrderError as e:  # no choice of cards changes it
            raise HistoryError(str(e)) from None
        except HistoryError as e:
            if not unknown and not burns:
                raise
            first = first or e
    assert first is not None
    raise HistoryError(str(first)) from None


def _recorded(acts: list[Act], n: int, rules: Rules, serves: Serves, loc: Locator) -> Solver | None:
    """The search that follows where a "pokerstars" history records its new stubs
    (:func:`~triple_draw.phh.solve.recorded_stubs`); None if it records none. Its
    ``fixed`` is None if the record does not fit the counts."""
    stubs = recorded_stubs(acts) if rules.reshuffle == "pokerstars" else {}
    return solver_for(acts, n, rules, serves, loc, stubs) if stubs else None


def _search(
    acts: list[Act],
    n: int,
    rules: Rules,
    serves: Serves,
    loc: Locator,
    recorded: Solver | None = None,
) -> Plan | None:
    """Every card of the history by the search (:mod:`triple_draw.phh.solve`); ``None``
    if it needs more than its bound. Raises :class:`HistoryError` if no choice of the
    unknown cards is consistent with the deal. ``recorded``: the search that follows
    where the history records its new stubs (:func:`_recorded`), tried first - it proves
    nothing if it fails (the record is only a comment)."""
    if recorded is not None and recorded.fixed is not None:
        try:
            return recorded.solve()
        except Bad:  # Unsolved too
            pass
    try:
        return solver_for(acts, n, rules, serves, loc).solve()
    except Unsolved:
        return None
    except Bad as e:
        raise HistoryError(f"{loc.prefix()}{e}") from None


def solver_for(
    acts: list[Act],
    n: int,
    rules: Rules,
    serves: Serves,
    loc: Locator,
    stubs: dict[int, int] | None = None,
) -> Solver:
    """The search of the unknown cards of a history's actions under ``rules``; ``stubs``:
    where the history records new stubs (:func:`~triple_draw.phh.solve.recorded_stubs`),
    followed exactly."""
    hole, receive = named(acts, n)
    return Solver(
        acts,
        n,
        hole,
        receive,
        serves,
        pokerstars=rules.reshuffle == "pokerstars",
        pool_all=rules.reshuffle == "pokerkit",
        loc=loc,
        stubs=stubs,
    )


def _timings(serves: Serves, pokerstars: bool, *, pool_all: bool = False) -> Iterator[Timing]:
    """Where the stub may run out: the counts alone first; under "pokerstars" then with
    one, then two, serves where what is left of the stub is the served player's own
    discards (:func:`find_reshuffles`)."""
    base = find_reshuffles(serves, pokerstars, pool_all=pool_all)
    yield base
    if not pokerstars:
        return
    level: list[dict[int, int]] = [{}]
    for _ in range(MAX_CROWDED):
        nxt: list[dict[int, int]] = []
        for crowded in level:
            t = base if not crowded else find_reshuffles(serves, True, crowded)
            after = max(crowded, default=-1)
            for decl, firsts in t.options:
                if decl <= after:
                    continue
                for f in reversed(firsts):
                    choice = {**crowded, decl: f}
                    nxt.append(choice)
                    yield find_reshuffles(serves, True, choice)
        level = nxt
