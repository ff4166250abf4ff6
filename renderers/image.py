"""The rendered image as it leaves a renderer: PNG bytes, alt text and size.

Kept apart from the drawing code (and from Pillow), so a process that only
passes images on — the bot's main process, receiving them from its drawing
workers — can unpickle one without importing Pillow or any renderer.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The images a view is drawn as (renderers/common/package.py): the map, the tables, a seat's image.
PARTS = ("map", "tables", "private")


@dataclass(frozen=True)
class Image:
    """A rendered image: PNG bytes plus its alt text (a text summary of the same view)."""

    png: bytes
    alt: str
    width: int
    height: int

    def __repr__(self) -> str:
        return f"Image({self.width}x{self.height}, {len(self.png)} bytes PNG)"
