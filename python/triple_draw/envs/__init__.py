"""Environments for learning agents (optional extras; docs: *Environments*).

- ``triple_draw.envs.triple_draw_v0``: a PettingZoo AEC environment, one hand per episode
  (extra ``triple_draw[pettingzoo]``)::

      from triple_draw.envs import triple_draw_v0
      env = triple_draw_v0.env(num_players=3)

- ``triple_draw.envs.gym_env``: ``TripleDrawEnv``, a single-agent Gymnasium environment
  (one learner seat against the package's bots), registered as
  ``triple_draw/TripleDraw-v0`` when this package is imported with gymnasium installed
  (extra ``triple_draw[gymnasium]``)::

      import gymnasium as gym
      import triple_draw.envs
      env = gym.make("triple_draw/TripleDraw-v0", num_players=3, opponents="heuristic")

- ``triple_draw.envs.vector``: ``TripleDrawVectorEnv``, many hands stepped together with
  numpy arrays, Gymnasium's vector-environment API (extra ``triple_draw[gymnasium]``).
- ``triple_draw.envs.openspiel``: the OpenSpiel game ``python_triple_draw`` (extra
  ``triple_draw[openspiel]``).
- ``triple_draw.envs.encoding``: the action numbers and the observation vector they all
  share (numpy only).
- ``triple_draw.envs.game_size``: ``game_size(rules)``, the exact number of information
  sets and histories of the OpenSpiel game of any rules, counted without OpenSpiel.

Each of them plays the real game (the default) and every reduced game
(docs/rules.md, *Reduced games*): ``variant="tiny"`` (``"small"``, ``"medium"``,
``"full"``) or ``rules=Rules(deck_ranks=..., deck_suits=..., hand_size=..., draws=...)``
(the OpenSpiel game: the same names as game parameters).

Importing this package needs none of the extras; each module needs its own.
"""

from __future__ import annotations

from typing import Any

__all__ = ["encoding", "game_size", "gym_env", "openspiel", "triple_draw_v0", "vector"]


def _register() -> None:
    """Register ``triple_draw/TripleDraw-v0`` with Gymnasium, if it is installed."""
    try:
        import gymnasium
    except ModuleNotFoundError:
        return
    if "triple_draw/TripleDraw-v0" not in gymnasium.registry:
        gymnasium.register(
            id="triple_draw/TripleDraw-v0",
            entry_point="triple_draw.envs.gym_env:TripleDrawEnv",
        )


_register()


def __getattr__(name: str) -> Any:
    if name in __all__:
        import importlib

        return importlib.import_module(f"triple_draw.envs.{name}")
    raise AttributeError(f"module 'triple_draw.envs' has no attribute {name!r}")
