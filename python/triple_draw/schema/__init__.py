"""The published JSON Schemas of triple_draw's documents, and a validator for them.

Two documents, each with a versioned schema file shipped in this package:

- ``hand_state.v1.json``: :meth:`Hand.to_dict` / :meth:`Hand.from_dict` (the document
  carries ``"schema_version": 1``);
- ``view.v2.json``: :meth:`Hand.view` (what one seat may see; it carries
  ``"schema_version": 2``: version 2 added the seat's own discards and received cards).
  ``view.v1.json`` is still shipped, and :func:`validate_view` still accepts version 1
  documents (checked against that schema), so views stored earlier stay valid.

The schemas are standard JSON Schema (draft 2020-12), so any validator can use them
(``load_schema`` gives the dict). This module also validates by itself, with no
dependency, using the small subset of JSON Schema the files are written in; errors are
:class:`~triple_draw.errors.SchemaError` naming the path (``$.betting.level``) and the
problem - a missing field, an unknown field, a wrong type or value.

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
import re
from functools import cache
from importlib import resources
from collections.abc import Callable
from typing import Any

from triple_draw.errors import SchemaError

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
    "SUPPORTED_KEYWORDS",
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
}
_TITLES = {"hand_state": "hand document", "view": "view document", "view.v1.json": "view document"}

#: The JSON Schema keywords this module's validator understands (the schema files use
#: no others; a test checks it).
SUPPORTED_KEYWORDS = frozenset(
    (
        "$schema", "$id", "$ref", "$defs", "$comment", "title", "description",
        "type", "properties", "required", "additionalProperties", "items", "prefixItems",
        "minItems", "maxItems", "enum", "const", "minimum", "maximum", "pattern",
        "minLength", "maxLength", "anyOf",
    )
)  # fmt: skip


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
    """The schema ``name`` (``"hand_state"`` or ``"view"``) as a fresh dict."""
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
    """Validate ``doc`` against the schema ``name``; :class:`SchemaError` on the first
    problem found (fields are checked in the schema's order)."""
    err = _validator(name)(doc)
    if err is not None:
        parts, message = err
        path = "$" + "".join(reversed(parts))
        raise SchemaError(f"{_TITLES.get(name, name + ' document')}: {path}: {message}")


# -- the validator ---------------------------------------------------------------------------

_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def _show(v: Any) -> str:
    s = json.dumps(v) if _jsonable(v) else repr(v)
    return s if len(s) <= 60 else s[:57] + "..."


def _jsonable(v: Any) -> bool:
    try:
        json.dumps(v)
    except (TypeError, ValueError):
        return False
    return True


def _same(a: Any, b: Any) -> bool:
    """JSON equality: 1 and True differ, 1 and 1.0 are the same number."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return bool(a == b)


@cache
def _regex(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


# A schema compiles to a function ``value -> None | (path parts, reversed; message)``:
# the path is only built for an error, so a valid document costs little.
_Check = Callable[[Any], "tuple[list[str], str] | None"]


@cache
def _validator(name: str) -> _Check:
    root = _schema(name)
    return _compile(root, root, {})


def _compile(s: Any, root: Any, refs: dict[str, Any]) -> _Check:
    if s is True:
        return lambda v: None
    if s is False:
        return lambda v: ([], "not allowed")
    checks: list[_Check] = []
    if "$ref" in s:
        ref = s["$ref"]
        if ref not in refs:
            cell: list[_Check] = []
            refs[ref] = lambda v: cell[0](v)
            cell.append(_compile(_resolve(root, ref), root, refs))
        checks.append(refs[ref])
    if "anyOf" in s:
        subs = [_compile(sub, root, refs) for sub in s["anyOf"]]
        nullable = len(subs) == 2 and any(sub.get("type") == "null" for sub in s["anyOf"])
        other = next((i for i, sub in enumerate(s["anyOf"]) if sub.get("type") != "null"), 0)

        def any_of(v: Any) -> tuple[list[str], str] | None:
            errors = []
            for sub in subs:
                err = sub(v)
                if err is None:
                    return None
                errors.append(err)
            if nullable:  # "null or X": the X problem is the useful one
                return errors[other]
            why = "; ".join(m for _, m in errors)
            return [], f"{_show(v)} matches none of the allowed forms ({why})"

        checks.append(any_of)
    if "type" in s:
        types = s["type"] if isinstance(s["type"], list) else [s["type"]]
        tests: list[Callable[[Any], bool]] = [_TYPES[t] for t in types]
        want = " or ".join(types)

        def type_(v: Any) -> tuple[list[str], str] | None:
            for t in tests:
                if t(v):
                    return None
            return [], f"expected {want}, got {_show(v)}"

        checks.append(type_)
    if "const" in s:
        const = s["const"]
        checks.append(
            lambda v: None if _same(v, const) else ([], f"must be {_show(const)}, got {_show(v)}")
        )
    if "enum" in s:
        values = s["enum"]
        strings = frozenset(e for e in values if isinstance(e, str))
        listed = ", ".join(_show(e) for e in values)

        def enum(v: Any) -> tuple[list[str], str] | None:
            if (type(v) is str and v in strings) or any(
                _same(v, e) for e in values if not isinstance(e, str)
            ):
                return None
            return [], f"must be one of {listed}; got {_show(v)}"

        checks.append(enum)
    lo, hi = s.get("minimum"), s.get("maximum")
    if lo is not None or hi is not None:

        def bounds(v: Any) -> tuple[list[str], str] | None:
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                if lo is not None and v < lo:
                    return [], f"must be >= {lo}, got {v}"
                if hi is not None and v > hi:
                    return [], f"must be <= {hi}, got {v}"
            return None

        checks.append(bounds)
    if "pattern" in s or "minLength" in s or "maxLength" in s:
        rx = _regex(s["pattern"]) if "pattern" in s else None
        pat, lmin, lmax = s.get("pattern"), s.get("minLength"), s.get("maxLength")

        def string(v: Any) -> tuple[list[str], str] | None:
            if isinstance(v, str):
                if rx is not None and rx.search(v) is None:
                    return [], f"{_show(v)} does not match the pattern {pat}"
                if lmin is not None and len(v) < lmin:
                    return [], f"must have at least {lmin} characters"
                if lmax is not None and len(v) > lmax:
                    return [], f"must have at most {lmax} characters"
            return None

        checks.append(string)
    if any(k in s for k in ("items", "prefixItems", "minItems", "maxItems")):
        imin, imax = s.get("minItems"), s.get("maxItems")
        prefix = [_compile(sub, root, refs) for sub in s.get("prefixItems", ())]
        items = _compile(s["items"], root, refs) if "items" in s else None

        def array(v: Any) -> tuple[list[str], str] | None:
            if not isinstance(v, list):
                return None
            if imin is not None and len(v) < imin:
                return [], f"must have at least {imin} items, got {len(v)}"
            if imax is not None and len(v) > imax:
                return [], f"must have at most {imax} items, got {len(v)}"
            for i, (item, sub) in enumerate(zip(v, prefix, strict=False)):
                err = sub(item)
                if err is not None:
                    err[0].append(f"[{i}]")
                    return err
            if items is not None:
                for i in range(len(prefix), len(v)):
                    err = items(v[i])
                    if err is not None:
                        err[0].append(f"[{i}]")
                        return err
            return None

        checks.append(array)
    if any(k in s for k in ("properties", "required", "additionalProperties")):
        props = {k: _compile(sub, root, refs) for k, sub in s.get("properties", {}).items()}
        required = list(s.get("required", ()))
        extra = s.get("additionalProperties", True)
        extra_check = _compile(extra, root, refs) if isinstance(extra, dict) else None

        def obj(v: Any) -> tuple[list[str], str] | None:
            if not isinstance(v, dict):
                return None
            for key in required:
                if key not in v:
                    return [], f"missing field {key!r}"
            for key in v:
                if key not in props:
                    if extra is False:
                        return [], f"unknown field {key!r}"
                    if extra_check is not None:
                        err = extra_check(v[key])
                        if err is not None:
                            err[0].append(f".{key}")
                            return err
            for key, sub in props.items():
                if key in v:
                    err = sub(v[key])
                    if err is not None:
                        err[0].append(f".{key}")
                        return err
            return None

        checks.append(obj)
    if len(checks) == 1:
        return checks[0]

    def all_of(v: Any) -> tuple[list[str], str] | None:
        for check in checks:
            err = check(v)
            if err is not None:
                return err
        return None

    return all_of


def _resolve(root: Any, ref: str) -> Any:
    if not ref.startswith("#/"):
        raise ValueError(f"only local $ref are supported, got {ref!r}")
    node = root
    for part in ref[2:].split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node
