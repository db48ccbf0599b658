"""Reinforcement-learning environments (optional extra ``triple_draw[pettingzoo]``).

``triple_draw.envs.triple_draw_v0``: a PettingZoo AEC environment, one hand per episode::

    from triple_draw.envs import triple_draw_v0
    env = triple_draw_v0.env(num_players=3)

The environments need ``pettingzoo`` and ``gymnasium``; importing this package does not,
only using an environment module does.
"""

from __future__ import annotations

from typing import Any

__all__ = ["triple_draw_v0"]


def __getattr__(name: str) -> Any:
    if name == "triple_draw_v0":
        import importlib

        return importlib.import_module("triple_draw.envs.triple_draw_v0")
    raise AttributeError(f"module 'triple_draw.envs' has no attribute {name!r}")
