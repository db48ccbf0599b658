"""Which deck/evaluator implementation the engine uses: compiled core or pure reference.

Both modules expose the same API (``Deck``, ``rank_ids``); the engine only ever reaches
them through the module object chosen here, so the same seeded hand can be played on
either (the parity tests do exactly that).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

__all__ = ["default_core", "set_default_core", "resolve_core"]

_default: ModuleType | None = None


def _load(name: str) -> ModuleType:
    if name in ("compiled", "_core", "rust"):
        from triple_draw import _core

        return _core
    if name in ("reference", "python"):
        from triple_draw import reference

        return reference
    raise ValueError(f"unknown core {name!r}: use 'compiled' or 'reference'")


def default_core() -> ModuleType:
    """The module used when ``core=None``: the compiled core if built, else the reference."""
    global _default
    if _default is None:
        try:
            _default = _load("compiled")
        except ImportError:  # pragma: no cover - only without a built extension
            _default = _load("reference")
    return _default


def set_default_core(core: Any) -> None:
    """Switch the default for new hands: ``"compiled"``, ``"reference"`` or a module."""
    global _default
    _default = resolve_core(core)


def resolve_core(core: Any) -> Any:
    if core is None:
        return default_core()
    if isinstance(core, str):
        return _load(core)
    if not (hasattr(core, "Deck") and hasattr(core, "rank_ids")):
        raise TypeError(f"core must provide Deck and rank_ids, got {core!r}")
    return core


def core_name(core: Any) -> str:
    mod = getattr(core, "__name__", "")
    return "reference" if mod.endswith("reference") else "compiled"
