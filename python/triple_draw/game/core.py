"""The core switch: which implementation deals and evaluates.

Everything in triple_draw that deals cards, ranks hands or computes a bundled bot's
decision reaches the implementation through one small typed interface, :class:`Core`.
Two modules provide it:

- ``"compiled"``: the Rust core (``triple_draw._core``), the default; every wheel and
  build ships it, and ``import triple_draw`` loads it;
- ``"reference"``: the pure-Python twin (``triple_draw.reference``), card for card the
  same seeded decks and the same ranks: the test oracle the parity tests hold the
  compiled core to, and a core anyone may choose (slowly) - not a fallback for a
  missing build.

:func:`resolve_core` turns what a user passes (``None``, a name, or a module/object with
the interface) into a :class:`Core`; :func:`set_default_core` changes what ``None`` means
for everything created afterwards. Hands and tables take ``core=``; so do the bundled
bots, :func:`triple_draw.simulate` (its hands, bots and worker processes all use the
run's core) and the terminal game, and they resolve it here.

>>> from triple_draw.game.core import resolve_core, core_name
>>> core_name(resolve_core("reference"))
'reference'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from triple_draw.errors import ArgumentError, ArgumentTypeError

__all__ = [
    "Core",
    "CoreDeck",
    "CORE_NAMES",
    "core_name",
    "default_core",
    "portable_core",
    "resolve_core",
    "set_default_core",
]

#: The names :func:`resolve_core` accepts, and the implementation each one means.
CORE_NAMES = {
    "compiled": "compiled",
    "_core": "compiled",
    "rust": "compiled",
    "reference": "reference",
    "python": "reference",
}


class CoreDeck(Protocol):
    """A seeded deck: the stub in deal order and the random stream that shuffles it."""

    def deal_ids(self, n: int, /) -> list[int]: ...
    def reshuffle(self, cards: Any, /) -> None: ...
    def stub_ids(self) -> list[int]: ...
    def get_state(self) -> dict[str, Any]: ...
    def copy(self) -> CoreDeck: ...
    def __len__(self) -> int: ...


class _DeckClass(Protocol):
    def __call__(self, seed: int | None = None, /) -> CoreDeck: ...
    def from_state(self, state: dict[str, Any], /) -> CoreDeck: ...


@runtime_checkable
class Core(Protocol):
    """What deals and evaluates: a deck class, the rank of five card ids (1 = 7-5-4-3-2,
    best), a full evaluation, the ``Card`` type, the rank's category and name
    (``HandRank(rank)``), the category names in rank order and the number of ranks; and
    the bundled bots' kernels: ``bots_standard_discard(cards, keep_max, pat_max)`` (the
    sorted ids the standard rule throws) and ``bots_heuristic(params, obs, r)`` (the
    heuristic bot's ``(code, cards)`` for an :class:`~triple_draw.bots.Observation`).

    Optional, used when present (the compiled core has them): ``ViewCache`` (a hand's
    views) and ``discard_choices(held)`` (the legal draws); without them a hand uses the
    game layer's own :class:`~triple_draw.game.view.ViewCache` and
    :class:`~triple_draw.game.actions.DiscardChoices`."""

    @property
    def Deck(self) -> _DeckClass: ...  # noqa: N802 - the module attribute's name
    @property
    def rank_ids(self) -> Callable[[list[int]], int]: ...
    @property
    def evaluate(self) -> Callable[[Any], Any]: ...
    @property
    def Card(self) -> Callable[[Any], Any]: ...  # noqa: N802
    @property
    def HandRank(self) -> Callable[[int], Any]: ...  # noqa: N802
    @property
    def CATEGORIES(self) -> tuple[str, ...]: ...  # noqa: N802
    @property
    def NUM_CLASSES(self) -> int: ...  # noqa: N802
    @property
    def bots_standard_discard(self) -> Callable[[Any, int, int], tuple[int, ...]]: ...
    @property
    def bots_heuristic(
        self,
    ) -> Callable[[tuple[int, int, int, int, float], Any, float], tuple[int, tuple[int, ...]]]: ...


_default: Core | None = None
#: The cores loaded so far, by name (resolving one of them again is a plain lookup).
_loaded: dict[str, Core] = {}


def _load(name: str) -> Core:
    which = CORE_NAMES.get(name)
    core = _loaded.get(which) if which is not None else None
    if core is not None:
        return core
    if which == "compiled":
        from triple_draw import _core
        from triple_draw.game.actions import DiscardChoices

        # its legal draws count as a DiscardChoices for isinstance()
        DiscardChoices.register(_core.DiscardChoices)
        core = _core
    elif which == "reference":
        from triple_draw import reference

        core = reference
    if core is not None and which is not None:
        _loaded[which] = core
        return core
    raise ArgumentError(f"unknown core {name!r}: use 'compiled' or 'reference'")


def default_core() -> Core:
    """The core used when ``core=None``: the compiled core, unless
    :func:`set_default_core` chose another. (The package always ships it: ``import
    triple_draw`` loads it, so the reference is not a fallback for a missing build but
    the oracle the parity tests hold the compiled core to, and a core to choose.)"""
    global _default
    if _default is None:
        _default = _load("compiled")
    return _default


def set_default_core(core: Any) -> None:
    """Switch the default for everything created afterwards: ``"compiled"``,
    ``"reference"`` or an object with the :class:`Core` interface."""
    global _default
    _default = resolve_core(core)


def resolve_core(core: Any) -> Core:
    """``None`` (the default core), a name of :data:`CORE_NAMES`, or an object with the
    :class:`Core` interface (returned as it is). An unknown name raises
    :class:`~triple_draw.errors.ArgumentError`, any other object
    :class:`~triple_draw.errors.ArgumentTypeError`."""
    if core is None:
        return _default or default_core()
    if _default is not None and core is _default:
        return _default
    if isinstance(core, str):
        return _load(core)
    for known in _loaded.values():
        if core is known:
            return core
    if not isinstance(core, Core):
        raise ArgumentTypeError(
            f"core must be 'compiled', 'reference' or provide Deck, rank_ids, evaluate, "
            f"Card, HandRank, CATEGORIES, NUM_CLASSES, bots_standard_discard and "
            f"bots_heuristic, got {core!r}"
        )
    return core


def portable_core(core: Core) -> Any:
    """What to send to another process for ``core``: its name for the two bundled cores
    (a module does not pickle), else the object itself; :func:`resolve_core` turns either
    back into the core."""
    for name, known in _loaded.items():
        if core is known:
            return name
    return core


def core_name(core: Core) -> str:
    """``"reference"`` or ``"compiled"``: the name that resolves to ``core`` (for pickling)."""
    mod = getattr(core, "__name__", "")
    return "reference" if mod.endswith("reference") else "compiled"
