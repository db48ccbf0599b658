"""The published JSON Schemas of triple_draw's documents, and a validator for them.

Each document has a versioned schema file shipped in this package:

- ``hand_state.v1.json``: :meth:`Hand.to_dict` / :meth:`Hand.from_dict` (the document
  carries ``"schema_version": 1``);
- ``view.v2.json``: :meth:`Hand.view` (what one seat may see; it carries
  ``"schema_version": 2``: version 2 added the seat's own discards and received cards).
  ``view.v1.json`` is still shipped, and :func:`validate_view` still accepts version 1
  documents (checked against that schema), so views stored earlier stay valid.

- ``tournament.v1.json``: :meth:`Tournament.to_dict` (``from_dict`` trusts it only by
  replaying it); ``structure.v1.json``: a tournament's :class:`Structure` (its
  ``to_dict``, or a structure file);

and the reports of ``triple-draw import --json`` (``import.v1.json``) and ``triple-draw
review --json`` (``review.v1.json``), for tools that read them.

The schemas are standard JSON Schema (draft 2020-12), so any validator can use them
(``load_schema`` gives the dict). The ``validate*`` functions here use the ``jsonschema``
library (``pip install 'triple_draw[schema]'``; without it they raise
:class:`~triple_draw.errors.MissingExtraError`); their errors are
:class:`~triple_draw.errors.SchemaError` naming the path (``$.betting.level``) and the
problem - a missing field, an unknown field, a wrong type or value. ``Hand.from_dict``
needs none of this: it checks a document by rebuilding the hand from it.

>>> validate_view({"schema_version": 1, "seat": 0})
Traceback (most recent call last):
...
triple_draw.errors.SchemaError: view document: $: missing field 'n_players'
>>> validate_hand_state({"schema_version": 2})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
triple_draw.errors.SchemaError: hand document has schema_version 2; this version ... version 1
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from triple_draw.errors import MissingExtraError, SchemaError

__all__ = [
    "HAND_STATE_VERSION",
    "VIEW_VERSION",
    "SCHEMAS",
    "load_schema",
    "schema_text",
    "validate",
    "validate_hand_state",
    "validate_view",
    "VIEW_VERSIONS_ACCEPTED",
]

#: The ``schema_version`` that ``Hand.to_dict`` writes and ``Hand.from_dict`` reads.
HAND_STATE_VERSION = 1
#: The version of the schema ``Hand.view`` follows.
VIEW_VERSION = 2
#: Earlier view versions :func:`validate_view` still accepts (each against its own schema).
VIEW_VERSIONS_ACCEPTED = (1, 2)
#: Schema name -> file in this package.
SCHEMAS = {
    "hand_state": f"hand_state.v{HAND_STATE_VERSION}.json",
    "view": f"view.v{VIEW_VERSION}.json",
    "import": "import.v1.json",
    "review": "review.v1.json",
    "tournament": "tournament.v1.json",
    "structure": "structure.v1.json",
}
_TITLES = {
    "import": "import report",
    "review": "review",
    "tournament": "tournament document",
    "structure": "structure",
    "hand_state": "hand document",
    "view": "view document",
    "view.v1.json": "view document",
}


def schema_text(name: str) -> str:
    """The text of the schema file ``name`` (``"hand_state"``, ``"view"`` or a file name)."""
    fname = SCHEMAS.get(name, name)
    try:
        return resources.files(__name__).joinpath(fname).read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        raise SchemaError(f"no schema {name!r}; known: {sorted(SCHEMAS)}") from None


@cache
def _schema(name: str) -> Any:
    return json.loads(schema_text(name))


def load_schema(name: str) -> dict[str, Any]:
    """The schema ``name`` (``"hand_state"``, ``"view"``, ``"import"`` or ``"review"``) as a
    fresh dict."""
    doc: dict[str, Any] = json.loads(json.dumps(_schema(name)))
    return doc


def _check_version(doc: Any, title: str, version: int) -> None:
    if not isinstance(doc, dict):
        raise SchemaError(f"a {title} must be a JSON object (dict), got {type(doc).__name__}")
    if "schema_version" not in doc:
        raise SchemaError(
            f"{title}: $: missing field 'schema_version' "
            f"(this version of triple_draw reads schema version {version})"
        )
    v = doc["schema_version"]
    if v != version or type(v) is not int:
        raise SchemaError(
            f"{title} has schema_version {v!r}; this version of triple_draw reads "
            f"schema version {version}"
        )


def validate_hand_state(doc: Any) -> None:
    """Check a :meth:`Hand.to_dict` document: its ``schema_version`` first (another version
    is refused with a clear message), then the whole document against the schema."""
    _check_version(doc, "hand document", HAND_STATE_VERSION)
    validate(doc, "hand_state")


def validate_view(doc: Any) -> None:
    """Check a :meth:`Hand.view` document: its ``schema_version`` first (another version is
    refused with a clear message), then the whole document against the view schema."""
    if (
        isinstance(doc, dict)
        and doc.get("schema_version") == 1
        and type(doc["schema_version"]) is int
    ):
        validate(doc, "view.v1.json")  # a view written by an earlier version
        return
    _check_version(doc, "view document", VIEW_VERSION)
    validate(doc, "view")


def validate(doc: Any, name: str) -> None:
    """Validate ``doc`` against the schema ``name`` with the ``jsonschema`` library (the
    ``schema`` extra); :class:`SchemaError` names the path and the problem of the most
    relevant error."""
    errors = list(_validator(name).iter_errors(doc))
    if errors:
        from jsonschema.exceptions import best_match

        err = best_match(errors)
        path = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err.absolute_path)
        raise SchemaError(f"{_TITLES.get(name, name + ' document')}: {path}: {_message(err)}")


@cache
def _validator(name: str) -> Any:
    try:
        from jsonschema import Draft202012Validator
    except ImportError:
        raise MissingExtraError(
            "validating against the JSON Schemas needs the jsonschema package: "
            "pip install 'triple_draw[schema]'"
        ) from None
    return Draft202012Validator(_schema(name))


def _show(v: Any) -> str:
    try:
        s = json.dumps(v)
    except (TypeError, ValueError):
        s = repr(v)
    return s if len(s) <= 60 else s[:57] + "..."


def _message(err: Any) -> str:
    """jsonschema's error in the words of the package's other errors."""
    kind, want, v = err.validator, err.validator_value, err.instance
    if kind == "required":
        missing = [k for k in want if isinstance(v, dict) and k not in v]
        return f"missing field {missing[0]!r}" if missing else err.message
    if kind == "additionalProperties" and isinstance(v, dict):
        known = err.schema.get("properties", {})
        extra = [k for k in v if k not in known]
        return f"unknown field {extra[0]!r}" if extra else err.message
    if kind == "type":
        return f"expected {want if isinstance(want, str) else ' or '.join(want)}, got {_show(v)}"
    if kind == "enum":
        return f"must be one of {', '.join(_show(x) for x in want)}; got {_show(v)}"
    if kind == "const":
        return f"must be {_show(want)}, got {_show(v)}"
    if kind == "pattern":
        return f"{_show(v)} does not match the pattern {want}"
    if kind == "minimum":
        return f"must be >= {want}, got {_show(v)}"
    if kind == "maximum":
        return f"must be <= {want}, got {_show(v)}"
    return str(err.message)
