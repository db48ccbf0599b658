"""Type stubs of the compiled core ``triple_draw._core`` (hand-written; see rust/python/)."""

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, SupportsIndex, TypeAlias, TypedDict, final, overload

from triple_draw.game.actions import Action

import numpy as np
import numpy.typing as npt

__all__ = [
    "CATEGORIES",
    "DECISION_NAMES",
    "Card",
    "DiscardChoices",
    "ViewCache",
    "VectorLearner",
    "Deck",
    "HandRank",
    "MAX_THREADS",
    "NUM_CLASSES",
    "__version__",
    "analysis_best_discard",
    "discard_choices",
    "analysis_draw_odds",
    "analysis_equity",
    "analysis_worst_low",
    "bots_heuristic",
    "bots_standard_discard",
    "card_ids",
    "evaluate",
    "evaluate_batch",
    "parse_cards",
    "rank_ids",
]

__version__: str
NUM_CLASSES: int
MAX_THREADS: int
CATEGORIES: tuple[str, ...]

_CardLike: TypeAlias = str | SupportsIndex | Card
_CardsLike: TypeAlias = str | Iterable[_CardLike]

@final
class Card:
    def __new__(cls, card: _CardLike) -> Card: ...
    @property
    def id(self) -> int: ...
    @property
    def rank(self) -> int: ...
    @property
    def suit(self) -> int: ...
    def __int__(self) -> int: ...
    def __index__(self) -> int: ...
    def __hash__(self) -> int: ...
    def __lt__(self, value: Card, /) -> bool: ...
    def __le__(self, value: Card, /) -> bool: ...
    def __gt__(self, value: Card, /) -> bool: ...
    def __ge__(self, value: Card, /) -> bool: ...

@final
class HandRank:
    def __new__(cls, rank: int) -> HandRank: ...
    @property
    def rank(self) -> int: ...
    @property
    def category(self) -> str: ...
    @property
    def name(self) -> str: ...
    def beats(self, other: HandRank) -> bool: ...
    def __hash__(self) -> int: ...
    def __lt__(self, value: HandRank, /) -> bool: ...
    def __le__(self, value: HandRank, /) -> bool: ...
    def __gt__(self, value: HandRank, /) -> bool: ...
    def __ge__(self, value: HandRank, /) -> bool: ...

@final
class Deck:
    def __new__(cls, seed: int | None = None) -> Deck: ...
    @staticmethod
    def stacked(order: _CardsLike, seed: int | None = None) -> Deck: ...
    def deal(self, n: int) -> list[Card]: ...
    def deal_ids(self, n: int) -> list[int]: ...
    def reshuffle(self, cards: _CardsLike) -> None: ...
    def stub_ids(self) -> list[int]: ...
    def get_state(self) -> dict[str, Any]: ...
    @staticmethod
    def from_state(state: dict[str, Any]) -> Deck: ...
    def copy(self) -> Deck: ...
    def __copy__(self) -> Deck: ...
    def __deepcopy__(self, memo: Any) -> Deck: ...
    def __len__(self) -> int: ...

@final
class ViewCache:
    """What one seat may see of a hand (``Hand.view``), built incrementally in the core."""

    def __new__(cls, h: Any) -> ViewCache: ...
    def view(self, h: Any, seat: Any) -> dict[str, Any]: ...

@final
class VectorLearner:
    """The batched environment's learner mode stepped in the core
    (``triple_draw.envs.vector``; made by ``TripleDrawVectorEnv._compiled_loop``)."""

    def __new__(
        cls,
        hand_cls: Any,
        rules: Any,
        stacks: tuple[int, ...],
        core: Any,
        learner: int,
        button: int | None,
        reward_scale: float,
        bots: list[tuple[Any, ...] | None],
        turn: Any,
        reseeds: list[list[Any]],
        hands: list[Any],
        episode: list[int],
        keys: list[int],
        done: list[bool],
        skipped: npt.NDArray[np.int64],
        skipped_reward: npt.NDArray[np.float32],
        layout: list[int],
        masks: list[list[int]],
    ) -> VectorLearner: ...
    def deal(self, rows: Sequence[int], advance: bool) -> None: ...
    def step(
        self, actions: Sequence[int]
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_], list[int]]: ...
    def observe(
        self,
        rows: Sequence[int] | None,
        out: npt.NDArray[np.float32],
        mask: npt.NDArray[np.int8] | None = None,
    ) -> None: ...
    def get_state(self) -> list[tuple[Any, ...]]: ...
    def set_state(self, state: list[tuple[Any, ...]]) -> None: ...
    @staticmethod
    def stream_sample(seed: int) -> tuple[float, float, int, int]: ...

@final
class DiscardChoices:
    """The legal draws of a held hand (``Hand.legal_actions`` at a draw): item ``m`` throws
    the held cards, in ascending id order, at the set bits of ``m``. Counts as a
    ``triple_draw.game.actions.DiscardChoices``, the reference it is held to."""

    def __new__(cls, held: Iterable[int]) -> DiscardChoices: ...
    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, i: SupportsIndex, /) -> Action: ...
    @overload
    def __getitem__(self, i: slice, /) -> list[Action]: ...
    def __iter__(self) -> Iterator[Action]: ...
    def __reversed__(self) -> Iterator[Action]: ...
    def __contains__(self, x: object, /) -> bool: ...
    def index(self, x: object, start: int = 0, stop: int | None = None) -> int: ...
    def count(self, x: object) -> int: ...
    def __hash__(self) -> int: ...
    @property
    def _held(self) -> list[int]: ...

def discard_choices(held: Iterable[int]) -> DiscardChoices: ...
def parse_cards(cards: _CardsLike) -> list[Card]: ...
def card_ids(cards: _CardsLike) -> list[int]: ...
def evaluate(cards: _CardsLike) -> HandRank: ...
def rank_ids(ids: Sequence[SupportsIndex | Card | str] | str) -> int: ...
def evaluate_batch(
    hands: npt.NDArray[np.uint8], threads: int | None = None, *, copy: bool = False
) -> npt.NDArray[np.uint16]: ...

# ---- analysis kernels (rust/python/analysis.rs) -------------------------------------------
# Private entry points of triple_draw.analysis, which converts and checks every argument.
# A strategy is (first discard ids or None, keep_max (-1 = stand pat), pat_max). The run
# options are one dict (_RunOptions); the earlier form, their five values as the last five
# positional arguments in the order of _RunOptions, is still accepted.

_Strategy: TypeAlias = tuple[list[int] | None, int, int]

class _RunOptions(TypedDict):
    method: str
    trials: int
    key: bytes | None
    threads: int | None
    exact_limit: int

def analysis_draw_odds(
    hand: list[int],
    discard: list[int],
    draws: int,
    later: tuple[int, int],
    dead: list[int],
    *options: _RunOptions | str | int | bytes | None,
) -> tuple[npt.NDArray[np.float64], list[float], npt.NDArray[np.uint64] | None, bool, int]: ...
def analysis_equity(
    hands: list[tuple[list[int], _Strategy]],
    dead: list[int],
    draws: int,
    *options: _RunOptions | str | int | bytes | None,
) -> tuple[list[tuple[float, float, float, float, float, float]], bool, int]: ...
def analysis_best_discard(
    hand: list[int],
    draws: int,
    later: tuple[int, int],
    target: int | None,
    opponents: list[tuple[list[int], _Strategy]],
    dead: list[int],
    *options: _RunOptions | str | int | bytes | None,
) -> list[tuple[list[int], list[int], float, float, bool, int]]: ...
def analysis_worst_low(top: int, second: int | None = None) -> int: ...

# ---- end of analysis kernels -------------------------------------------------------------

# ---- bots' kernels (rust/py_bots.rs) ---------------------------------------------------

def bots_standard_discard(cards: Sequence[int], keep_max: int, pat_max: int) -> tuple[int, ...]:
    """The card ids (sorted) the standard rule throws from five cards: stand pat with a
    hand ranked ``pat_max`` or better, otherwise keep one card of each rank up to
    ``keep_max`` (pairs broken)."""

#: The name of each of the bots' decision codes, indexed by code
#: (``triple_draw.bots.Decision``).
DECISION_NAMES: list[str]

def bots_heuristic(
    params: tuple[int, int, int, int, float], obs: tuple[Any, ...], r: float
) -> tuple[int, tuple[int, ...]]:
    """The heuristic bot's decision for an ``Observation``: ``(code, cards)``, code 0 fold,
    1 check, 2 call, 3 bet or raise, 4 bet or raise if the bluff roll says so, 5 discard
    ``cards``."""
