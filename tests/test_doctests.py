"""Every example in the package's docstrings runs and prints what it says."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import triple_draw

OPTIONAL = {"triple_draw.envs", "triple_draw.envs.triple_draw_v0", "triple_draw.envs.encoding"}
#: modules that need a package of an optional extra beyond pettingzoo
NEEDS = {
    "triple_draw.envs.vector": "gymnasium",
    "triple_draw.envs.gym_env": "gymnasium",
    "triple_draw.envs.openspiel": "pyspiel",
}
MODULES = sorted(
    m.name
    for m in pkgutil.walk_packages(triple_draw.__path__, "triple_draw.")
    if m.name != "triple_draw.__main__"
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    if name in OPTIONAL:
        pytest.importorskip("pettingzoo")
    if name in NEEDS:
        pytest.importorskip(NEEDS[name])
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"
