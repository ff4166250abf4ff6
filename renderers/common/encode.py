"""The rendered image and its PNG encoding.

Board images are flat colours plus anti-aliased text, so a palette PNG (at most
`colors` colours, no dithering) is several times smaller than RGB and faster to
compress; level 6 is where zlib's size gain stops paying for its time.

The palette is chosen on a half-size nearest-neighbour copy (every other pixel,
so exact colours survive) and then applied to the whole image: about twice as
fast as octree quantisation of the full image, for the same error.
"""

from __future__ import annotations

import io

from PIL import Image as PILImage

from ..image import Image

COMPRESS_LEVEL = 3
COLORS = 128


def png_bytes(im: PILImage.Image, *, colors: int = COLORS, compress_level: int = COMPRESS_LEVEL) -> bytes:
    """Quantize to a palette (fast octree, no dither) and encode as PNG."""
    if im.mode != "P":
        if im.mode != "RGB":
            im = im.convert("RGB")
        sample = im.resize((max(1, im.width // 2), max(1, im.height // 2)), PILImage.Resampling.NEAREST)
        palette = sample.quantize(colors=colors, method=PILImage.Quantize.FASTOCTREE, dither=PILImage.Dither.NONE)
        im = im.quantize(palette=palette, dither=PILImage.Dither.NONE)
    buf = io.BytesIO()
    im.save(buf, "PNG", compress_level=compress_level)
    return buf.getvalue()


def encode_png(im: PILImage.Image, alt: str, *, colors: int = COLORS) -> Image:
    return Image(png=png_bytes(im, colors=colors), alt=alt, width=im.width, height=im.height)
