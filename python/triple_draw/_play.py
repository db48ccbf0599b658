"""``triple-draw play``: a game of triple draw against bots in the terminal.

The human sits in table seat 0 of a :class:`~triple_draw.Table`; bots fill the other seats
and decide from their own views. Everything shown to the human comes from his view
(``hand.view(seat)``), so the terminal shows exactly what a player at the table may know.
Input is re-prompted with a reason until it is legal; end of input, ``quit`` and Ctrl-C
end the game cleanly.
"""

from __future__ import annotations

import copy
import random
import sys
from typing import Any, TextIO

from triple_draw._text import format_table
from triple_draw.bots import HeuristicBot, as_action, make_bot
from triple_draw.errors import CardError, IllegalActionError
from triple_draw.game.actions import Action
from triple_draw.game.cards import to_ids
from triple_draw.game.core import Core, resolve_core
from triple_draw.game.rules import Rules, real_game_only
from triple_draw.game.table import Table

__all__ = ["TerminalGame"]

_ROUND_NAMES = (
    "before the first draw",
    "after the first draw",
    "after the second draw",
    "after the third draw",
)

HELP_BET = """\
  Betting: f = fold, c = check or call, k = check, r (or b) = bet or raise.
           The amount is fixed (limit poker): no need to type it.
  Any time: t = show the table again, hint = what the heuristic bot would do,
            help = this text, q = quit."""

HELP_DRAW = """\
  Drawing: type the cards to throw away, e.g. 'Kd 9s' (or 'kd9s'),
           or their positions 1-5 as shown, e.g. '4 5';
           'pat' keeps all five cards, 'all' throws all five.
  Any time: t = show the table again, hint = what the heuristic bot would do,
            help = this text, q = quit."""


class _QuitError(Exception):
    pass


class TerminalGame:
    """``TerminalGame(players=3, seed=None, stack=200, bots=("heuristic",), max_hands=None)``

    ``bots``: one bot per opponent (or one for all): names for
    :func:`~triple_draw.bots.make_bot` or bot objects. With a ``seed``, every bot is
    seeded from it, so the whole game repeats. ``input_fn``/``out``: where the game reads
    lines and writes text (default: ``input`` and stdout). ``core``: the core that deals,
    ranks and computes the bundled bots' decisions (and the hints); see
    :mod:`triple_draw.game.core`."""

    def __init__(
        self,
        players: int = 3,
        seed: int | None = None,
        stack: int = 200,
        bots: Any = ("heuristic",),
        max_hands: int | None = None,
        rules: Rules | None = None,
        input_fn: Any = None,
        out: TextIO | None = None,
        core: Any = None,
    ) -> None:
        self.core = resolve_core(core)
        self.rules = rules or Rules()
        real_game_only(self.rules, "the terminal game")
        self.players = players
        self.stack = stack
        self.max_hands = max_hands
        self.out = out or sys.stdout
        self._input_fn = input_fn
        names = list(bots)
        if len(names) == 1:
            names = names * (players - 1)
        rng = random.Random(seed)
        self.bots: dict[int, Any] = {}
        self.names: dict[int, str] = {0: "You"}
        for seat in range(1, players):
            spec = names[seat - 1]
            bot_seed = None if seed is None else rng.getrandbits(64)
            if isinstance(spec, str):
                bot = make_bot(spec, seed=bot_seed, core=self.core)
            else:
                bot = make_bot(spec)
                if any(b is bot for b in self.bots.values()):
                    bot = copy.deepcopy(bot)  # one bot object given for every seat: one each
                reseed = getattr(bot, "reseed", None)
                if bot_seed is not None and callable(reseed):
                    reseed(bot_seed)
            self.bots[seat] = bot
            label = getattr(bot, "name", None) or type(bot).__name__
            self.names[seat] = f"Seat {seat} ({label})"
        self._hint_bot = HeuristicBot(seed=0, core=self.core)
        self.table = Table(
            self.rules, [stack] * players, button=players - 1, seed=seed, core=self.core
        )
        self.you = 0
        self.hands_played = 0

    # -- io ----------------------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def ask(self, prompt: str) -> str:
        if self._input_fn is not None:
            self.out.write(prompt)
            self.out.flush()
            return str(self._input_fn())
        if self.out is sys.stdout and sys.stdin.isatty():
            return input(prompt)
        self.out.write(prompt)
        self.out.flush()
        line = input()
        self.out.write(line + "\n")  # echo piped input so the transcript reads naturally
        return line

    # -- the session -------------------------------------------------------------------------

    def run(self) -> int:
        """Play until the human quits, busts, wins everything, input ends or ``max_hands``.
        Returns the exit status (0; 130 after Ctrl-C)."""
        self.say(
            f"2-7 Triple Draw, {self.players} players, blinds "
            f"{self.rules.small_blind}/{self.rules.big_blind}, limit "
            f"{self.rules.small_bet}/{self.rules.big_bet}, stacks {self.stack}. "
            "The lowest hand wins; type 'help' at any prompt."
        )
        status = 0
        try:
            while True:
                seats = self.table.seats
                if seats[self.you] is None:
                    self.say("You are out of chips. Game over.")
                    break
                if sum(x is not None for x in seats) < 2:
                    self.say("You have won every chip at the table!")
                    break
                if self.max_hands is not None and self.hands_played >= self.max_hands:
                    break
                self.play_hand()
                if self.max_hands is not None and self.hands_played >= self.max_hands:
                    break
                if self.table.seats[self.you] is None:
                    continue
                line = self.ask("Press Enter for the next hand (q to quit): ").strip().lower()
                if line in ("q", "quit", "exit"):
                    break
        except _QuitError:
            pass
        except EOFError:
            self.say("\n(end of input)")
        except KeyboardInterrupt:
            self.say("\n(interrupted)")
            status = 130
        self._farewell()
        return status

    def _farewell(self) -> None:
        mine = self.table.seats[self.you] or 0
        if self.table.hand is not None and not self.table.hand.is_over:
            # an unfinished hand: count the chips behind only
            mine = self.table.hand.stacks[self.table.hand_seat(self.you) or 0]
        self.say(
            f"You played {self.hands_played} hand(s) and finish with {mine} chips "
            f"({mine - self.stack:+d}). Goodbye."
        )

    # -- one hand ----------------------------------------------------------------------------

    def play_hand(self) -> None:
        hand = self.table.new_hand()
        self.hands_played += 1
        smap = self.table.seat_map
        me = self.table.hand_seat(self.you)
        assert me is not None
        self.say("")
        has = "have" if smap[hand.button] == self.you else "has"
        self.say(
            f"===== Hand {self.hands_played}: {self.names[smap[hand.button]]} {has} the button "
            "====="
        )
        self._printed = 0
        self._round_in: dict[int, int] = {}
        while True:
            self._print_events(hand, me)
            a = hand.actor
            if a is None:
                break
            if a == me:
                self._human_turn(hand, me)
            else:
                bot = self.bots[smap[a]]
                hand.apply(as_action(bot.act(hand.view(a))))
        res = hand.result
        assert res is not None
        net = res.net[me]
        self.say(
            f"Hand over: you {'win' if net > 0 else 'lose' if net < 0 else 'break even,'} "
            f"{abs(net) if net else ''}".rstrip()
            + f" - your stack is {res.stacks[me]}."
        )
        for i, st in enumerate(res.stacks):
            if st == 0 and i != me:
                self.say(f"{self.names[smap[i]]} is out of chips and leaves the table.")

    # -- events ------------------------------------------------------------------------------

    def _who(self, hand_seat: int) -> str:
        return self.names[self.table.seat_map[hand_seat]]

    def _obj(self, hand_seat: int) -> str:
        """The player as an object ("... returned to you")."""
        return "you" if self.table.seat_map[hand_seat] == self.you else self._who(hand_seat)

    def _verb(self, hand_seat: int, you: str, other: str) -> str:
        return you if self.table.seat_map[hand_seat] == self.you else other

    def _print_events(self, hand: Any, me: int) -> None:
        view = hand.view(me)
        history = view["history"]
        for e in history[self._printed :]:
            line = self._event_text(e, view, me)
            if line:
                self.say(line)
        self._printed = len(history)

    def _event_text(self, e: dict[str, Any], view: dict[str, Any], me: int) -> str | None:
        k: str = e["kind"]
        s: int = e.get("seat", -1)
        amt: int = e.get("amount", 0)
        if k in ("post_ante", "post_small_blind", "post_big_blind"):
            what = {
                "post_ante": "an ante of",
                "post_small_blind": "the small blind,",
                "post_big_blind": "the big blind,",
            }[k]
            return f"{self._who(s)} {self._verb(s, 'post', 'posts')} {what} {amt}"
        if k == "deal":
            if s == me:
                hole = view["hole_cards"]
                return f"You are dealt {' '.join(hole)}  ({_name(hole, self.core)})"
            return None
        if k == "begin_round":
            self._round_in = {}
            if amt == 0:  # the blinds are the first round's bets
                for e2 in view["history"]:
                    if e2["kind"] in ("post_small_blind", "post_big_blind"):
                        self._round_in[e2["seat"]] = (
                            self._round_in.get(e2["seat"], 0) + e2["amount"]
                        )
            st = view["stakes"]
            unit = st["small_bet"] if amt < 2 else st["big_bet"]
            return f"--- Betting round {amt + 1} of 4, {_ROUND_NAMES[amt]} (bets of {unit}) ---"
        if k in ("fold", "check"):
            return f"{self._who(s)} {self._verb(s, k, k + 's')}"
        if k in ("call", "bet", "raise"):
            before = self._round_in.get(s, 0)
            self._round_in[s] = amt
            if k == "call":
                return f"{self._who(s)} {self._verb(s, 'call', 'calls')} {amt - before}"
            verb = self._verb(s, k, k + "s")
            return f"{self._who(s)} {verb} {'to ' if k == 'raise' else ''}{amt}"
        if k == "begin_draw":
            return f"--- Draw {amt + 1} of 3 ---"
        if k == "discard":
            c = e["count"] if "count" in e else len(e.get("cards", ()))
            if s == me:  # his own discards: in his view
                if c == 0:
                    return "You stand pat."
                return f"You throw {' '.join(e['cards'])} and draw {c}."
            if c == 0:
                return f"{self._who(s)} stands pat."
            return f"{self._who(s)} draws {c}."
        if k == "draw":
            if s == me:  # the cards he received: in his view
                hole = view["hole_cards"]
                got = " ".join(e["cards"])
                return f"You receive {got}: {' '.join(hole)}  ({_name(hole, self.core)})"
            return None
        if k == "burn":
            return "(A card is burned.)"
        if k == "reshuffle":
            return f"(The stub ran out: {amt} cards are shuffled into a new stub.)"
        if k == "return":
            chips = "1 uncalled chip is" if amt == 1 else f"{amt} uncalled chips are"
            return f"{chips} returned to {self._obj(s)}."
        if k == "show":
            cards = e.get("cards") or []
            shows = self._verb(s, "show", "shows")
            return f"{self._who(s)} {shows} {' '.join(cards)}  ({_name(cards, self.core)})"
        if k == "muck":
            return f"{self._who(s)} {self._verb(s, 'muck', 'mucks')}."
        if k == "win":
            return f"{self._who(s)} {self._verb(s, 'win', 'wins')} {amt}."
        return None

    # -- the table ---------------------------------------------------------------------------

    def show_table(self, hand: Any, me: int) -> None:
        v = hand.view(me)
        n = v["n_players"]
        if v["phase"] == "draw":
            where = f"draw {v['street'] + 1} of 3"
        else:
            where = f"betting round {v['street'] + 1} of 4 ({_ROUND_NAMES[v['street']]})"
        self.say("")
        self.say(f"Hand {self.hands_played}, {where}.  Pot: {v['pot']}")
        rows = [("", "player", "stack", "bet", "in pot", "drew", "")]
        for j in range(n):
            p = v["players"][j]
            notes = []
            if j == v["button"]:
                notes.append("button")
            if v["street"] == 0 and v["phase"] == "bet":
                if j == v["small_blind_seat"] and n > 2:
                    notes.append("small blind")
                if j == v["big_blind_seat"]:
                    notes.append("big blind")
            if p["folded"]:
                notes.append("folded")
            elif p["all_in"]:
                notes.append("all-in")
            if j == v["actor"]:
                notes.append("<- to act")
            rows.append(
                (
                    ">" if j == me else "",
                    self._who(j),
                    str(p["stack"]),
                    str(p["bet"]) if v["phase"] == "bet" and not p["folded"] else "-",
                    str(p["committed"]),
                    " ".join(str(x) for x in p["draws"]) or "-",
                    ", ".join(notes),
                )
            )
        for line in format_table(rows, right=(2, 3, 4), rule=False):
            self.say("  " + line)
        cards = v["hole_cards"]
        self.say(
            "Your cards: "
            + "  ".join(f"[{i + 1}] {c}" for i, c in enumerate(cards))
            + f"   ({_name(cards, self.core)})"
        )
        for i, d in enumerate(v["own_draws"]):
            if not d["discarded"]:
                self.say(f"Draw {i + 1}: you stood pat")
                continue
            got = " ".join(d["received"]) if d["received"] is not None else "(to be dealt)"
            self.say(f"Draw {i + 1}: you threw {' '.join(d['discarded'])}, received {got}")

    # -- the human's decisions -----------------------------------------------------------------

    def _human_turn(self, hand: Any, me: int) -> None:
        self.show_table(hand, me)
        if hand.phase == "draw":
            self._human_draw(hand, me)
        else:
            self._human_bet(hand, me)

    def _options(self, hand: Any) -> str:
        opts = []
        for a in hand.legal_actions():
            if a.kind == "fold":
                opts.append("[f]old")
            elif a.kind == "check":
                opts.append("[c]heck")
            elif a.kind == "call":
                opts.append(f"[c]all {hand.to_call}")
            elif a.kind == "bet":
                opts.append(f"[b]et {a.amount}")
            elif a.kind == "raise":
                opts.append(f"[r]aise to {a.amount}")
        return ", ".join(opts)

    def _common(self, cmd: str, hand: Any, me: int, help_text: str) -> bool:
        """Commands valid at every prompt; True if ``cmd`` was one of them."""
        if cmd in ("q", "quit", "exit"):
            raise _QuitError
        if cmd in ("?", "h", "help"):
            self.say(help_text)
            return True
        if cmd in ("t", "table", "s", "state"):
            self.show_table(hand, me)
            return True
        if cmd == "hint":
            act = self._hint_bot.act(hand.view(me))
            self.say(f"  The heuristic bot would {_describe(act, hand)}.")
            return True
        return False

    def _human_bet(self, hand: Any, me: int) -> None:
        legal = {a.kind: a for a in hand.legal_actions()}
        while True:
            line = self.ask(f"Your move - {self._options(hand)}: ")
            cmd = line.strip().lower()
            if self._common(cmd, hand, me, HELP_BET):
                continue
            if not cmd:
                self.say(f"  Please choose: {self._options(hand)} (help for more).")
                continue
            word, _, rest = cmd.partition(" ")
            amount: int | None = None
            if rest.strip():
                try:
                    amount = int(rest.strip())
                except ValueError:
                    self.say(f"  Not understood: {line.strip()!r}. Choose {self._options(hand)}.")
                    continue
            action: Action | None = None
            why = ""
            if word in ("f", "fold"):
                action = Action("fold")
            elif word in ("c",):
                action = legal.get("check") or legal.get("call")
            elif word in ("k", "x", "check"):
                action = legal.get("check")
                if action is None:
                    why = (
                        f"you cannot check: there is a bet to you ({hand.to_call} to call). "
                        "Call or fold."
                    )
            elif word in ("call",):
                action = legal.get("call")
                if action is None:
                    why = "there is nothing to call: check instead."
            elif word in ("b", "bet", "r", "raise"):
                action = legal.get("bet") or legal.get("raise")
                if action is None:
                    try:
                        hand.apply(Action("raise" if hand.bet_level else "bet"))
                    except IllegalActionError as e:
                        why = _you(str(e), me)
                    else:  # pragma: no cover - the legal list says it is impossible
                        return
            else:
                self.say(
                    f"  Not understood: {line.strip()!r}. "
                    f"Choose {self._options(hand)} (help for more)."
                )
                continue
            if action is None:
                self.say(f"  Not possible: {why}")
                continue
            if (
                amount is not None
                and amount != action.amount
                and action.kind in ("bet", "raise", "call")
            ):
                if action.kind == "call":
                    if amount != hand.to_call:
                        self.say(
                            f"  Not possible: calling costs exactly {hand.to_call} (fixed limit)."
                        )
                        continue
                else:
                    self.say(
                        "  Not possible: this is fixed limit - "
                        f"you can only {action.kind} to {action.amount}."
                    )
                    continue
            try:
                hand.apply(action)
            except IllegalActionError as e:  # pragma: no cover - built from the legal list
                self.say(f"  Not possible: {_you(str(e), me)}")
                continue
            return

    def _human_draw(self, hand: Any, me: int) -> None:
        cards: list[str] = list(hand.view(me)["hole_cards"])
        while True:
            line = self.ask(
                "Discard which cards? (cards like 'Kd 9s', positions like '4 5', 'pat' or 'all'): "
            )
            cmd = line.strip().lower()
            if self._common(cmd, hand, me, HELP_DRAW):
                continue
            if not cmd:
                self.say(
                    "  Type the cards to throw (e.g. 'Kd'), their positions (e.g. '5'), "
                    "or 'pat' to keep all five."
                )
                continue
            throw, why = _parse_discard(cmd, cards)
            if why:
                self.say(f"  Not possible: {why}")
                continue
            try:
                hand.apply(Action("discard", None, tuple(to_ids(throw))))
            except (IllegalActionError, CardError) as e:  # pragma: no cover - checked above
                self.say(f"  Not possible: {_you(str(e), me)}")
                continue
            return


def _parse_discard(cmd: str, cards: list[str]) -> tuple[list[str], str]:
    """``(cards to throw, "")`` or ``([], reason)``."""
    if cmd in ("pat", "p", "stand", "stand pat", "none", "-", "0", "keep"):
        return [], ""
    if cmd in ("all", "a", "5 cards"):
        return list(cards), ""
    compact = cmd.replace(",", " ").split()
    if all(tok.isdigit() for tok in compact):
        digits = [ch for tok in compact for ch in tok]
        picked = []
        for ch in digits:
            i = int(ch)
            if not 1 <= i <= len(cards):
                return [], f"position {ch} is not between 1 and {len(cards)}."
            if cards[i - 1] in picked:
                return [], f"position {ch} is given twice."
            picked.append(cards[i - 1])
        return picked, ""
    try:
        ids = to_ids(cmd)
    except CardError as e:
        return [], f"{e}. Type cards like 'Kd 9s', positions like '4 5', or 'pat'."
    from triple_draw.game.cards import CARD_TEXT

    texts = [CARD_TEXT[i] for i in ids]
    for t in texts:
        if t not in cards:
            return [], f"you do not hold {t} (your cards: {' '.join(cards)})."
    if len(set(texts)) != len(texts):
        return [], "a card is given twice."
    return texts, ""


def _name(cards: list[str], core: Core) -> str:
    if len(cards) != 5:
        return ""
    return str(core.HandRank(core.rank_ids(to_ids(cards))).name)


def _you(msg: str, me: int) -> str:
    return msg.replace(f"seat {me} cannot", "you cannot").replace(f"seat {me} ", "you ")


def _describe(action: Action, hand: Any) -> str:
    """An action in the words of the prompt: a call by the chips it costs now (the prompt's
    "[c]all 1"), a bet or raise by the round total it reaches, a discard by its cards."""
    k = action.kind
    if k == "call":
        return f"call {hand.to_call}"
    if k == "bet":
        return f"bet {action.amount}"
    if k == "raise":
        return f"raise to {action.amount}"
    if k == "discard":
        cards = action.card_text
        return f"throw {' '.join(cards)}" if cards else "stand pat"
    return k
