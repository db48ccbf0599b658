"""``python -m triple_draw``: the ``triple-draw`` command line."""

from triple_draw.cli import main

# guarded: worker processes started with "spawn" re-import the main module as __mp_main__
if __name__ == "__main__":
    raise SystemExit(main())
