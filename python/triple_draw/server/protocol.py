"""The table protocol, version 1: parsing client messages and building server frames.

Every frame is one JSON object with ``"v": 1`` and a ``"type"``; the JSON Schemas
``schema/client.v1.json`` and ``schema/server.v1.json`` in this package are the contract
(docs/server.md shows them). A client message is refused with an error frame - and changes
nothing - when it is larger than :data:`MAX_MESSAGE_BYTES`, is not JSON, or does not
match the client schema.

The server's frames are built here from :meth:`Hand.view` of the connection's own seat (a
spectator gets the same view with the seat-specific parts removed), with every hand seat
translated to its table seat. Nothing else of the hand is ever read into a frame: not
``to_dict`` (it holds the deck), not the history with cards.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from triple_draw.errors import TripleDrawError

__all__ = [
    "MAX_MESSAGE_BYTES",
    "PROTOCOL_VERSION",
    "ProtocolError",
    "decode_object",
    "error_frame",
    "hand_frame",
    "load_schema",
    "parse_client_message",
    "validate_client",
    "validate_name",
]

PROTOCOL_VERSION = 1
#: The largest client message accepted (UTF-8 bytes); the biggest legal one is ~200.
MAX_MESSAGE_BYTES = 2048
#: The deepest nesting of arrays and objects accepted; the deepest legal message has 3.
MAX_DEPTH = 8
#: The fields the client schema types as integers: JSON Schema counts ``5.0`` as one, but
#: a seat, hand or amount is written without a fraction here (``5.0`` is refused).
INTEGER_FIELDS = ("seat", "hand", "seq", "buy_in")
SCHEMAS = {"client": "client.v1.json", "server": "server.v1.json"}


class ProtocolError(TripleDrawError, ValueError):
    """A refused client message; ``code`` is the error frame's code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@cache
def _schema_text(name: str) -> str:
    files = resources.files("triple_draw.server").joinpath("schema")
    return files.joinpath(SCHEMAS[name]).read_text(encoding="utf-8")


def load_schema(name: str) -> dict[str, Any]:
    """The JSON Schema ``"client"`` or ``"server"`` as a fresh dict."""
    if name not in SCHEMAS:
        raise ProtocolError("bad_message", f"no schema {name!r}; known: {sorted(SCHEMAS)}")
    doc: dict[str, Any] = json.loads(_schema_text(name))
    return doc


#: client message type -> its definition in client.v1.json
CLIENT_PARTS = {
    "hello": "hello",
    "join": "join",
    "act": "act",
    "sit_out": "bare",
    "sit_in": "bare",
    "rebuy": "bare",
    "leave": "bare",
    "ping": "bare",
}


@cache
def _client_validator(part: str) -> Any:
    """The compiled validator of one definition of client.v1.json, its local references
    put in place. ``fastjsonschema`` turns the schema into Python code once: validating a
    message then costs microseconds, where an interpreting validator spends a third of a
    millisecond - on every message of every player."""
    import fastjsonschema  # the server extra brings it; the core package never imports it

    schema = load_schema("client")
    return fastjsonschema.compile(_inline(schema["$defs"][part], schema["$defs"]))


def _inline(node: Any, defs: dict[str, Any]) -> Any:
    """``node`` with every ``{"$ref": "#/$defs/x"}`` replaced by that definition (the
    protocol's schemas have no recursive definitions)."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            rest = {k: v for k, v in node.items() if k != "$ref"}
            return {**_inline(defs[ref.removeprefix("#/$defs/")], defs), **_inline(rest, defs)}
        return {k: _inline(v, defs) for k, v in node.items()}
    if isinstance(node, list):
        return [_inline(v, defs) for v in node]
    return node


def validate_client(doc: Any) -> None:
    """Check a client message against client.v1.json; :class:`ProtocolError` names the
    problem (``$.action.cards[0] must match pattern ...``)."""
    import fastjsonschema

    kind = doc.get("type") if isinstance(doc, dict) else None
    part = CLIENT_PARTS.get(kind) if isinstance(kind, str) else None
    if part is None:
        raise ProtocolError("bad_message", f"$.type: {kind!r} is not one of {sorted(CLIENT_PARTS)}")
    try:
        _client_validator(part)(doc)
    except fastjsonschema.JsonSchemaValueException as e:
        msg = str(e.message)
        if msg.startswith("data"):
            msg = "$" + msg[4:]
        raise ProtocolError("bad_message", msg[:200]) from None


def validate_name(name: Any) -> str:
    """A player's name as the client schema's ``name`` definition takes it (a string of
    1 to 24 characters, no control characters, no ``<>&"'``): the one check of a seat's
    name in a ``join`` and of an account's name at registration. Returns it;
    :class:`ProtocolError` ``bad_name`` otherwise. (``tables.check_name`` then refuses the
    invisible characters and the names that pose as bots.)"""
    import fastjsonschema

    try:
        _client_validator("name")(name)
    except fastjsonschema.JsonSchemaValueException as e:
        msg = str(e.message)
        if "pattern" in msg:  # (the pattern itself says little to a person)
            msg = "a name may not hold control characters or any of < > & \" '"
        elif msg.startswith("data"):
            msg = "the name" + msg[4:]
        raise ProtocolError("bad_name", msg[:200]) from None
    assert isinstance(name, str)
    return name


def parse_client_message(data: str | bytes) -> dict[str, Any]:
    """A client frame as a validated dict, or :class:`ProtocolError`."""
    doc = decode_object(data)
    if doc.get("v") != PROTOCOL_VERSION:
        raise ProtocolError(
            "bad_message",
            f"protocol version {doc.get('v')!r} is not supported; this server speaks "
            f"version {PROTOCOL_VERSION}",
        )
    validate_client(doc)
    _check_integers(doc)
    return doc


def decode_object(data: str | bytes) -> dict[str, Any]:
    """A client frame's JSON object, before its fields are checked: at most
    :data:`MAX_MESSAGE_BYTES`, nested at most :data:`MAX_DEPTH` deep, valid JSON, an
    object, valid Unicode text (:class:`ProtocolError` otherwise). The one decoder of the
    table and tournament servers' client messages."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if len(raw) > MAX_MESSAGE_BYTES:
        raise ProtocolError(
            "too_large", f"message of {len(raw)} bytes; the limit is {MAX_MESSAGE_BYTES}"
        )
    _check_depth(raw)
    try:
        doc = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as e:
        raise ProtocolError("bad_message", f"not JSON: {e}") from None
    except RecursionError:  # (the depth check makes this unreachable; kept as a guard)
        raise ProtocolError("bad_message", "JSON nested too deep") from None
    if not isinstance(doc, dict):
        raise ProtocolError("bad_message", "a message must be a JSON object")
    try:  # JSON escapes can spell lone surrogates, which no text stored or sent may hold
        json.dumps(doc, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise ProtocolError("bad_message", "a message must be valid Unicode text") from None
    return doc


def _check_depth(raw: bytes) -> None:
    """Refuse JSON nested deeper than :data:`MAX_DEPTH` before parsing it (a message of
    2048 bytes can nest 1,000 deep, past what the parser's recursion allows). Brackets
    inside strings do not count."""
    if raw.count(b"[") + raw.count(b"{") <= MAX_DEPTH:
        return  # the common case: too few brackets to nest too deep
    depth = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > MAX_DEPTH:
                raise ProtocolError("bad_message", f"JSON nested more than {MAX_DEPTH} deep")
        elif byte in (0x5D, 0x7D):  # ] }
            depth -= 1


def _check_integers(doc: dict[str, Any]) -> None:
    """An integer field written with a fraction (``"seat": 5.0``) is refused."""
    action = doc.get("action")
    fields = [(f"$.{k}", doc.get(k)) for k in INTEGER_FIELDS]
    if isinstance(action, dict):
        fields.append(("$.action.amount", action.get("amount")))
    for where, value in fields:
        if isinstance(value, float):
            raise ProtocolError(
                "bad_message", f"{where} must be an integer without a fraction, got {value!r}"
            )


def error_frame(code: str, message: str) -> dict[str, Any]:
    return {"v": PROTOCOL_VERSION, "type": "error", "code": code, "message": message[:300]}


def hand_frame(
    view: dict[str, Any], hand_id: int, seq: int, seat_map: tuple[int, ...], *, own: bool
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The ``hand`` object of a state frame and the public history, from ``view`` (a
    :meth:`Hand.view`), every seat as a table seat. ``own``: the view is the connection's
    own seat's; otherwise (a spectator, or a seated player not in this hand) its hole
    cards and legal actions are dropped."""

    def ts(s: int | None) -> int | None:
        return None if s is None else seat_map[s]

    players = []
    for p in view["players"]:
        q = dict(p)
        q["seat"] = seat_map[p["seat"]]
        players.append(q)
    result = view["result"]
    if result is not None:
        result = {
            "pots": [
                {
                    "amount": pot["amount"],
                    "eligible": [seat_map[s] for s in pot["eligible"]],
                    "winners": [seat_map[s] for s in pot["winners"]],
                    "shares": [[seat_map[s], x] for s, x in pot["shares"]],
                }
                for pot in result["pots"]
            ],
            "showdown": [dict(e, seat=seat_map[e["seat"]]) for e in result["showdown"]],
            "returned": None
            if result["returned"] is None
            else [seat_map[result["returned"][0]], result["returned"][1]],
            "net": [[seat_map[s], x] for s, x in enumerate(result["net"])],
        }
        # the chips the house took (the history's rake event), only when it took some
        rake = sum(e["amount"] for e in view["history"] if e["kind"] == "rake")
        if rake:
            result["rake"] = rake
    hand = {
        "id": hand_id,
        "seq": seq,
        "phase": view["phase"],
        "street": view["street"],
        "actor": ts(view["actor"]),
        "button": seat_map[view["button"]],
        "small_blind_seat": ts(view["small_blind_seat"]),
        "big_blind_seat": seat_map[view["big_blind_seat"]],
        "pot": view["pot"],
        "bet_level": view["bet_level"],
        "hole_cards": list(view["hole_cards"]) if own else [],
        "players": players,
        "legal_actions": list(view["legal_actions"]) if own else [],
        "result": result,
    }
    events = []
    for e in view["history"]:
        if not own and "cards" in e and e["kind"] in ("discard", "draw"):
            # the viewing seat's own discards and received cards (view schema 2): not
            # for anyone else
            e = {k: v for k, v in e.items() if k != "cards"}
        if "seat" in e:
            e = dict(e, seat=seat_map[e["seat"]])
        events.append(e)
    return hand, events
