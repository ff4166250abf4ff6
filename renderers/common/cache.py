"""Bounded caches for drawn pictures: static layers and sprites, each within a byte budget.

A board is a cached static layer (frames, maps, legends) with pieces pasted on
top, and the pieces are small cached sprites (a card, a chip, a label). Both
caches are bounded by the bytes they hold, shared by every game's renderer in
the process, least recently used out first: Pillow keeps an RGB image at 4 bytes
a pixel, so one full-width layer is 3-7 MB, and caches bounded only by a count
per function (16 layers here, 256 sprites there) reached hundreds of MB.

A layer or an opaque sprite is kept as a palette image (1 byte a pixel instead
of 4): its 128 most frequent colours exactly — the flat fills, lines and ink —
and 128 more that cover the anti-aliasing shades; a render converts a layer back
to RGB (about what copying it cost) and pastes a sprite as it is (Pillow converts
it on the way). Sprites with transparency (icons, badges, labels) stay RGBA. The board is reduced to 128 colours when it
is encoded anyway (encode.py).

Keys are what the picture depends on — a layout, a player count, an era, the
regions in play, a card's printed face — never player names or table ids
(those are drawn on top each time): a key that names the table never hits
again at the next table, it only fills memory. The renderer tests check that
boards of tables with other names reuse the same layers.

Budgets (per process; a worker process draws every game): `EPOCHS_LAYER_CACHE_MB`
(default 6: a game's layers at every player count, or each game's common
ones) and `EPOCHS_SPRITE_CACHE_MB` (default 2: some 300 cards, chips and icons).
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from functools import wraps
from typing import Any, NamedTuple

from PIL import Image as PILImage

from .marks import keep, recording

MB = 1 << 20


def _budget(variable: str, default_mb: float) -> int:
    try:
        return int(float(os.environ.get(variable, default_mb)) * MB)
    except ValueError:
        raise ValueError(f"{variable} is a number of megabytes, not {os.environ[variable]!r}") from None


def image_bytes(im: PILImage.Image) -> int:
    """Memory Pillow holds for `im` (RGB is stored as 4 bytes a pixel)."""
    per_pixel = 4 if im.mode in ("RGB", "RGBA", "RGBX", "CMYK", "I", "F") else len(im.getbands())
    return im.width * im.height * per_pixel


class CacheInfo(NamedTuple):
    """Like functools' cache_info, per decorated function (currsize: its entries now)."""

    hits: int
    misses: int
    maxsize: int
    currsize: int


class ImageCache:
    """An LRU of images bounded by total bytes, shared by several cached functions
    (owners), each also bounded by a count of its own; thread-safe (renders may run
    on threads). Keys are `(owner, arguments)`."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self._items: OrderedDict[tuple[str, Hashable], tuple[Any, int]] = OrderedDict()
        self._counts: dict[str, int] = {}
        self._bytes = 0
        self._lock = threading.Lock()

    @property
    def used(self) -> int:
        """Bytes held now."""
        return self._bytes

    def __len__(self) -> int:
        return len(self._items)

    def count(self, owner: str) -> int:
        return self._counts.get(owner, 0)

    def get(self, key: tuple[str, Hashable]) -> Any | None:
        with self._lock:
            hit = self._items.get(key)
            if hit is None:
                return None
            self._items.move_to_end(key)
            return hit[0]

    def put(self, key: tuple[str, Hashable], value: Any, size: int, limit: int) -> None:
        """Keep `value`, dropping the least recently used until the budget holds and the
        owner has at most `limit` entries (a value larger than the whole budget is not kept)."""
        owner = key[0]
        with self._lock:
            self._pop(key)
            if size > self.budget:
                return
            self._items[key] = (value, size)
            self._counts[owner] = self._counts.get(owner, 0) + 1
            self._bytes += size
            while self._bytes > self.budget:
                self._pop(next(iter(self._items)))
            if self._counts[owner] > limit:
                self._pop(next(k for k in self._items if k[0] == owner))

    def clear(self, owner: str | None = None) -> None:
        with self._lock:
            for key in [k for k in self._items if owner is None or k[0] == owner]:
                self._pop(key)

    def _pop(self, key: tuple[str, Hashable]) -> None:
        old = self._items.pop(key, None)
        if old is not None:
            self._bytes -= old[1]
            self._counts[key[0]] -= 1


LAYERS = ImageCache(_budget("EPOCHS_LAYER_CACHE_MB", 6))
SPRITES = ImageCache(_budget("EPOCHS_SPRITE_CACHE_MB", 1))
TEXTS = ImageCache(_budget("EPOCHS_TEXT_CACHE_MB", 1))


def compact(im: Any) -> Any:
    """`im` as a palette image: exact when it has at most 256 colours; otherwise its
    128 most frequent colours exactly (the flat fills, lines and ink) plus 128 that
    cover the rest (anti-aliasing shades: fast octree of a half-size sample), each
    pixel mapped to the nearest of them. Anything but an RGB image is kept as it is,
    and so is an image of more than 65,536 colours (a photograph, not a board)."""
    if not isinstance(im, PILImage.Image) or im.mode != "RGB":
        return im
    colours = im.getcolors(1 << 16)
    if colours is None:
        return im
    colours.sort(reverse=True)
    # an RGB image's colours are (r, g, b) tuples (a single band would give plain numbers)
    keep: list[tuple[int, ...]] = [rgb for _, rgb in colours[:256] if isinstance(rgb, tuple)]
    if len(colours) > 256:
        keep = keep[:128]
        sample = im.resize((max(1, im.width // 2), max(1, im.height // 2)), PILImage.Resampling.NEAREST)
        spread = sample.quantize(128, method=PILImage.Quantize.FASTOCTREE).getpalette() or []
        known = set(keep)
        for i in range(0, len(spread), 3):
            rgb = tuple(spread[i : i + 3])
            if len(keep) < 256 and rgb not in known:
                keep.append(rgb)
                known.add(rgb)
    keep += [keep[-1]] * (256 - len(keep))  # no stray black for a colour to be matched to
    palette = PILImage.new("P", (1, 1))
    palette.putpalette([v for rgb in keep for v in rgb])
    return im.quantize(palette=palette, dither=PILImage.Dither.NONE)


def _cached(store: ImageCache, maxsize: int, copy: bool) -> Callable:
    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        owner = f"{fn.__module__}.{fn.__qualname__}"
        stats = {"hits": 0, "misses": 0}

        @wraps(fn)
        def cached(*args: Hashable, **kwargs: Hashable) -> Any:
            key = (owner, (args, tuple(sorted(kwargs.items()))) if kwargs else args)
            value = store.get(key)
            if value is None:
                stats["misses"] += 1
                with recording() as written:  # the text it holds goes with it (marks.paste)
                    value = compact(fn(*args, **kwargs))
                if written and isinstance(value, PILImage.Image):
                    keep(value, written)
                store.put(key, value, _size(value), maxsize)
            else:
                stats["hits"] += 1
            if not copy:
                return value
            return value.convert("RGB") if value.mode == "P" else value.copy()

        def cache_info() -> CacheInfo:
            return CacheInfo(stats["hits"], stats["misses"], maxsize, store.count(owner))

        def cache_clear() -> None:
            store.clear(owner)
            stats["hits"] = stats["misses"] = 0

        cached.cache_info = cache_info  # type: ignore[attr-defined]
        cached.cache_clear = cache_clear  # type: ignore[attr-defined]
        return cached

    return deco


def _size(value: Any) -> int:
    if isinstance(value, PILImage.Image):
        return image_bytes(value)
    if isinstance(value, tuple):  # e.g. (image, offset)
        return sum(_size(v) for v in value) + 64
    return 64


def cached_layer(maxsize: int = 32) -> Callable:
    """Decorator for a function (hashable args) -> PIL image: draw once, hand out copies.

    The copy (RGB, from the compact palette image kept) is what each render
    draws on, so the cached original is never changed. Use it for backgrounds, frames, fixed labels and legends; the
    arguments are the cache key, so pass only what the picture depends on.
    """
    return _cached(LAYERS, maxsize, copy=True)


def cached_sprite(maxsize: int = 256) -> Callable:
    """Decorator for a function (hashable args) -> a small image that is only ever
    pasted, never drawn on (a card, a chip, a label): kept and handed out as it is
    (an opaque one as a palette image)."""
    return _cached(SPRITES, maxsize, copy=False)


def cached_text(maxsize: int = 4096) -> Callable:
    """Decorator for a function (hashable args) -> (glyph mask, dx, dy) of a line of
    text: rasterising glyphs was a quarter of a board's drawing, and most lines (labels,
    numbers, names at the same table) recur from one board to the next."""
    return _cached(TEXTS, maxsize, copy=False)


def usage() -> dict[str, tuple[int, int]]:
    """(entries, bytes) held by each cache (for the memory benchmark)."""
    return {
        name: (len(store), store.used) for name, store in (("layers", LAYERS), ("sprites", SPRITES), ("texts", TEXTS))
    }
