"""The text of a hand-history file: decoding the sites' encodings and cutting the text
into hands.

The sites write UTF-8 (with or without a byte-order mark) or UTF-16 (Full Tilt Poker's
files, little-endian with a BOM); a file copied from a site may end in the middle of a
character (a truncated last byte), which loses that character and not the file. Lines end
in CRLF or LF. A hand starts at its site's header line; what precedes the first header
(a title, separators) and blank lines are not part of any hand.
"""

from __future__ import annotations

import codecs
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from triple_draw.errors import ArgumentError, ArgumentTypeError

__all__ = ["check_path", "decode", "read_source", "split_hands", "HEADERS"]

#: The first words of a hand's header line, by site.
HEADERS: tuple[tuple[str, str], ...] = (
    ("PokerStars ", "pokerstars"),
    ("Full Tilt Poker Game #", "fulltilt"),
    ("FullTiltPoker Game #", "fulltilt"),
    ("Winamax Poker - ", "winamax"),
)
_HEADER = re.compile(
    r"^(?:PokerStars (?:Hand|Game|Zoom Hand|Home Game Hand|Home Game) #"
    r"|Full ?Tilt ?Poker Game #|Winamax Poker - )",
    re.MULTILINE,
)


def decode(data: bytes) -> str:
    """The text of a file's bytes: UTF-8 or UTF-16 by their byte-order mark (UTF-16
    without one when every other byte of the start is NUL), UTF-8 otherwise (Windows-1252
    if it is not UTF-8); a last character cut short is dropped."""
    if data.startswith(codecs.BOM_UTF8):
        return _utf8(data[3:])
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        enc = "utf-16-le" if data.startswith(codecs.BOM_UTF16_LE) else "utf-16-be"
        return _utf16(data[2:], enc)
    head = data[:200]
    if len(head) >= 4 and 0 not in head[0::2] and head[1::2].count(0) * 10 >= len(head) * 4:
        return _utf16(data, "utf-16-le")  # (ASCII text: every odd byte NUL)
    if len(head) >= 4 and 0 not in head[1::2] and head[0::2].count(0) * 10 >= len(head) * 4:
        return _utf16(data, "utf-16-be")
    return _utf8(data)


def _utf16(data: bytes, enc: str) -> str:
    if len(data) % 2:
        data = data[:-1]  # a truncated final byte
    return data.decode(enc, errors="replace")


def _utf8(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        if e.start >= len(data) - 3 and e.reason == "unexpected end of data":
            return data[: e.start].decode("utf-8")  # a character cut short at the end
        return data.decode("cp1252", errors="replace")


def read_source(source: Any) -> tuple[str, str]:
    """The text of ``source`` (a path, bytes or str) and a name for messages."""
    if isinstance(source, str) and ("\n" in source or _HEADER.search(source[:200])):
        return source, "<text>"
    if isinstance(source, (bytes, bytearray, memoryview)):
        return decode(bytes(source)), "<bytes>"
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        try:
            data = path.read_bytes()
        except OSError as e:
            raise _unreadable(path, e) from None
        return decode(data), str(path)
    raise ArgumentTypeError(
        f"a hand-history source is a path, bytes or str, got {type(source).__name__}"
    )


def check_path(path: str | os.PathLike[str]) -> None:
    """Raise the :class:`ArgumentError` that reading the file ``path`` would raise (no
    such file, a directory, no permission), without reading it: to check every file of a
    batch before the first is read."""
    p = Path(path)
    try:
        with p.open("rb"):
            pass
    except OSError as e:
        raise _unreadable(p, e) from None


def _unreadable(path: Path, e: OSError) -> ArgumentError:
    if isinstance(e, FileNotFoundError):
        return ArgumentError(f"{path}: no such file")
    if isinstance(e, IsADirectoryError) or path.is_dir():
        return ArgumentError(f"{path}: is a directory, not a hand-history file")
    return ArgumentError(f"{path}: cannot be read ({e.strerror or e})")


def split_hands(text: str) -> Iterator[tuple[str, int, list[str]]]:
    """Each hand of ``text``: its site, the 1-based number of its first line in the text,
    and its lines (without line ends; trailing blank lines dropped)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines and lines[0].startswith("\ufeff"):
        lines[0] = lines[0][1:]
    start = -1
    site = ""
    for i, line in enumerate(lines):
        if line[:1] in "PFW" and _HEADER.match(line):
            if start >= 0:
                yield site, start + 1, _trim(lines[start:i])
            start = i
            site = _site(line)
    if start >= 0:
        yield site, start + 1, _trim(lines[start:])


def _site(line: str) -> str:
    for prefix, site in HEADERS:
        if line.startswith(prefix):
            return site
    return "pokerstars"


def _trim(lines: list[str]) -> list[str]:
    end = len(lines)
    while end > 1 and not lines[end - 1].strip():
        end -= 1
    return lines[:end]
