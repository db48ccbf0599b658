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
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from triple_draw.errors import ArgumentError, ArgumentTypeError

__all__ = [
    "check_path",
    "decode",
    "read_source",
    "split_hands",
    "split_lines",
    "stream_lines",
    "HEADERS",
]

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
    enc, skip = _encoding(data[:200])
    if enc == "utf-8":
        return _utf8(data[skip:])
    return _utf16(data[skip:], enc)


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


def is_text(source: str | os.PathLike[str]) -> bool:
    """Whether a str source is the history itself (it has a line end or a header) rather
    than a path."""
    return isinstance(source, str) and ("\n" in source or bool(_HEADER.search(source[:200])))


def read_source(source: Any, *, probe: bool = False) -> tuple[str, str]:
    """The text of ``source`` (a path, bytes or str) and a name for messages; with
    ``probe``, only check that a path can be read (the text is then "")."""
    if isinstance(source, str) and is_text(source):
        return source, "<text>"
    if isinstance(source, (bytes, bytearray, memoryview)):
        return decode(bytes(source)), "<bytes>"
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        try:
            if probe:
                with open(path, "rb") as f:
                    f.read(1)
                return "", str(path)
            data = path.read_bytes()
        except (OSError, ValueError) as e:
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
    except (OSError, ValueError) as e:
        raise _unreadable(p, e) from None


def _unreadable(path: Path, e: OSError | ValueError) -> ArgumentError:
    name = str(path)
    if len(name) > 200:  # (a text without a line end taken for a path: never echo it all)
        name = name[:200] + "..."
    if isinstance(e, ValueError):  # a NUL in the name: no file can have it
        return ArgumentError(f"{name[:60]!r}: not a file name (it holds a NUL)")
    if isinstance(e, FileNotFoundError):
        return ArgumentError(f"{name}: no such file")
    try:
        is_dir = isinstance(e, IsADirectoryError) or path.is_dir()
    except OSError:  # a name too long to look up
        is_dir = False
    if is_dir:
        return ArgumentError(f"{name}: is a directory, not a hand-history file")
    return ArgumentError(f"{name}: cannot be read ({getattr(e, 'strerror', None) or e})")


def split_hands(text: str) -> Iterator[tuple[str, int, list[str]]]:
    """Each hand of ``text``: its site, the 1-based number of its first line in the text,
    and its lines (without line ends; trailing blank lines dropped)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if text.startswith("\ufeff"):
        text = text[1:]
    return _split_text(text)


#: what a header line starts with (each of the header patterns begins with one of them)
_HEAD_STARTS = ("PokerStars ", "Full", "Winamax Poker - ")


def _split_text(text: str) -> Iterator[tuple[str, int, list[str]]]:
    """:func:`split_lines` of a whole text: the header lines are found by searching the
    text for the lines that start as a header does (a search in C, where a loop over
    every line costs a fifth of reading a file), each checked with the header pattern."""
    starts = []
    for prefix in _HEAD_STARTS:
        if text.startswith(prefix):
            starts.append(0)
        at = text.find("\n" + prefix)
        while at >= 0:
            starts.append(at + 1)
            at = text.find("\n" + prefix, at + 1)
    starts.sort()
    heads = [i for i in starts if _HEADER.match(text, i)]
    if not heads:
        return
    lineno = text.count("\n", 0, heads[0]) + 1
    heads.append(len(text))
    for k in range(len(heads) - 1):
        chunk = text[heads[k] : heads[k + 1]]
        lines = chunk.rstrip("\n").split("\n")  # (the blank lines between hands)
        yield _site(lines[0]), lineno, _trim(lines)
        lineno += chunk.count("\n")


def split_lines(lines: Iterable[str]) -> Iterator[tuple[str, int, list[str]]]:
    """:func:`split_hands` of lines (without line ends) as they come: one hand is held at
    a time."""
    hand: list[str] = []
    start = 0
    site = ""
    for i, line in enumerate(lines, 1):
        if line[:1] in "PFW" and _HEADER.match(line):
            if hand:
                yield site, start, _trim(hand)
            hand = [line]
            start = i
            site = _site(line)
        elif hand:
            hand.append(line)
    if hand:
        yield site, start, _trim(hand)


def stream_lines(path: Path, chunk: int = 1 << 16) -> Iterator[str]:
    """The lines of a file read a chunk at a time, decoded as :func:`decode` decodes the
    whole file (the encoding chosen from the first chunk)."""
    with open(path, "rb") as f:
        head = f.read(max(chunk, 256))
        enc, skip = _encoding(head)
        dec = codecs.getincrementaldecoder(enc)(errors="strict" if enc == "utf-8" else "replace")
        data = head[skip:]
        rest = ""
        while True:
            try:
                text = dec.decode(data, final=not data)
            except UnicodeDecodeError as e:
                if not data and e.reason == "unexpected end of data":
                    text = ""  # a character cut short at the end
                else:  # not UTF-8 after all: the rest as Windows-1252
                    dec = codecs.getincrementaldecoder("cp1252")(errors="replace")
                    text = dec.decode(data, final=not data)
            if not data and enc != "utf-8" and text.endswith("\ufffd"):
                text = text[:-1]  # a truncated final byte
            text = rest + text
            if "\r" in text:
                keep_cr = text.endswith("\r")  # (a CRLF cut between two chunks)
                text = text.replace("\r\n", "\n")
                if keep_cr:
                    text = text[:-1]
                text = text.replace("\r", "\n")
                if keep_cr:
                    text += "\r"
            parts = text.split("\n")
            rest = parts.pop()
            yield from parts
            if not data:
                break
            data = f.read(chunk)
        if rest and rest != "\r":
            yield rest


def _encoding(head: bytes) -> tuple[str, int]:
    """The encoding of a file from its first bytes, and the length of its BOM."""
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8", 3
    if head.startswith(codecs.BOM_UTF16_LE):
        return "utf-16-le", 2
    if head.startswith(codecs.BOM_UTF16_BE):
        return "utf-16-be", 2
    h = head[:200]
    if len(h) >= 4 and 0 not in h[0::2] and h[1::2].count(0) * 10 >= len(h) * 4:
        return "utf-16-le", 0
    if len(h) >= 4 and 0 not in h[1::2] and h[0::2].count(0) * 10 >= len(h) * 4:
        return "utf-16-be", 0
    return "utf-8", 0


def _site(line: str) -> str:
    for prefix, site in HEADERS:
        if line.startswith(prefix):
            return site
    return "pokerstars"


def _trim(lines: list[str]) -> list[str]:
    end = len(lines)
    while end > 1 and not lines[end - 1].strip():
        end -= 1
    return lines if end == len(lines) else lines[:end]
