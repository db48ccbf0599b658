"""The core switch: which implementation deals and evaluates.

Everything in triple_draw that deals cards or ranks hands reaches the implementation
through one small typed interface, :class:`Core`. Two modules provide it:

- ``"compiled"``: the Rust core (``triple_draw._core``), the default when it is built;
- ``"reference"``: the pure-Python twin (``triple_draw.reference``), card for card the
  same seeded decks and the same ranks (the parity tests hold them equal).

:func:`resolve_core` turns what a user passes (``None``, a name, or a module/object with
the interface) into a :class:`Core`; :func:`set_default_core` changes what ``None`` means
for everything created afterwards. Hands take ``core=``; the bots, ``simulate`` and the
terminal game take the same argument and resolve it here.

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
    best), a full evaluation (``HandRank``) and the ``Card`` type."""

    @property
    def Deck(self) -> _DeckClass: ...  # noqa: N802 - the module attribute's name
    @property
    def rank_ids(self) -> Callable[[list[int]], int]: ...
    @property
    def evaluate(self) -> Callable[[Any], Any]: ...
    @property
    def Card(self) -> Callable[[Any], Any]: ...  # noqa: N802


_default: Core | None = None


def _load(name: str) -> Core:
    which = CORE_NAMES.get(name)
    if which == "compiled":
        from triple_draw import _core

        return _core
    if which == "reference":
        from triple_draw import reference

        return reference
    raise ArgumentError(f"unknown core {name!r}: use 'compiled' or 'reference'")


def default_core() -> Core:
    """The core used when ``core=None``: the compiled core if built, else the reference."""
    global _default
    if _default is None:
        try:
            _default = _load("compiled")
        except ImportError:  # pragma: no cover - only without a built extension
            _default = _load("reference")
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
    if isinstance(core, str):
        return _load(core)
    if not isinstance(core, Core):
        raise ArgumentTypeError(
            f"core must be 'compiled', 'reference' or provide Deck, rank_ids, evaluate "
            f"and Card, got {core!r}"
        )
    return core


def core_name(core: Core) -> str:
    """``"reference"`` or ``"compiled"``: the name that resolves to ``core`` (for pickling)."""
    mod = getattr(core, "__name__", "")
    return "reference" if mod.endswith("reference") else "compiled"
