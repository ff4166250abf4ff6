"""What an image writes: each line of text with its font size and box, recorded while drawing.

Issue 26 asks that a map image read on a phone: at 450 px wide, every place name
and piece count at least 7 px high. That is a fact about every line an image
writes, so every way a renderer writes text notes it here — `Canvas.text` and
`Canvas.paragraph`, the badge letters, the text baked into cached sprites and
layers — and `recording()` collects the notes of one render: the benchmark
prints the smallest, the tests check each place name and count.

A cached layer or sprite is drawn once; the text it holds is kept with it (in
the image's `info`) and noted again, moved to where it lands, each time it is
pasted with `paste`. Outside `recording()` a note costs one context lookup.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from PIL import Image as PILImage

#: The phone width a map image is judged at (issue 26: "at 450 px wide").
PHONE_WIDTH = 450
#: The smallest text height a map image may show at PHONE_WIDTH.
PHONE_TEXT = 7.0
#: Where an image keeps the text it holds (`PIL.Image.info`).
INFO_KEY = "epochs_marks"


@dataclass(frozen=True)
class TextMark:
    """One line of text as drawn: its words, its font size (px, the em) and its ink box."""

    text: str
    size: float
    x: int
    y: int
    w: int
    h: int

    def moved(self, dx: int, dy: int) -> TextMark:
        return TextMark(self.text, self.size, self.x + dx, self.y + dy, self.w, self.h)

    def at_phone(self, image_width: int) -> float:
        """The text's height when the image is shown `PHONE_WIDTH` px wide."""
        return self.size * PHONE_WIDTH / image_width


_recorder: ContextVar[list[TextMark] | None] = ContextVar("epochs_text_marks", default=None)


@contextmanager
def recording() -> Iterator[list[TextMark]]:
    """Collect every line written inside the block (a render, or one cached picture)."""
    marks: list[TextMark] = []
    token = _recorder.set(marks)
    try:
        yield marks
    finally:
        _recorder.reset(token)


def note(text: str, size: float, x: float, y: float, w: float, h: float) -> None:
    """Note a line written at (x, y) with ink box w x h, at font size `size`."""
    marks = _recorder.get()
    if marks is not None and text.strip():
        marks.append(TextMark(text, size, int(x), int(y), int(w), int(h)))


def keep(im: PILImage.Image, marks: Iterable[TextMark]) -> PILImage.Image:
    """`im` holding `marks` (a cached picture: noted again wherever it is pasted)."""
    im.info[INFO_KEY] = tuple(marks)
    return im


def held(im: PILImage.Image) -> tuple[TextMark, ...]:
    return tuple(im.info.get(INFO_KEY, ()))


def paste(
    dest: PILImage.Image,
    src: PILImage.Image,
    xy: tuple[int, int],
    mask: PILImage.Image | None = None,
) -> None:
    """`dest.paste(src, xy, mask)`, noting the text `src` holds where it lands."""
    x, y = int(xy[0]), int(xy[1])
    dest.paste(src, (x, y), mask)
    if _recorder.get() is not None:
        for m in held(src):
            note(m.text, m.size, m.x + x, m.y + y, m.w, m.h)


def smallest(marks: Iterable[TextMark]) -> TextMark | None:
    """The smallest line of `marks` (ties: the first drawn), or None when nothing was written."""
    return min(marks, key=lambda m: m.size, default=None)
