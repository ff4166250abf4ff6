"""What every game's renderer shares: fonts, palette, icons, layout, encoding, the package shape."""
from .cache import cached_layer, cached_sprite
from .encode import Image, encode_png, png_bytes
from .fonts import MIN_TEXT, font, measure, text_width
from .icons import ICONS, MILITARY, RESOURCES, icon, paste_icon, register_icon
from .layout import (MARGIN, WIDTH, Box, Canvas, Header, LegendItem, alt_lines, draw_header,
                     draw_legend, ellipsize, fill_pattern, fit_size, header_height, join_alt, legend_height,
                     line_height, player_badge, seat_names, view_header, wrap)
from .package import render_view
from .palette import (GOOD, HIGHLIGHT, HIGHLIGHT_EDGE, INK, MUTED, PANEL, PANEL_ALT, PAPER, PLAYER_COLORS,
                      PLAYER_LETTERS, PLAYER_PATTERNS, RESOURCE_COLORS, RULE, SHORT, COVERED, contrast, ink_on,
                      player_color, player_letter, player_pattern, tint)

__all__ = [
    "Box", "COVERED", "Canvas", "GOOD", "HIGHLIGHT", "HIGHLIGHT_EDGE", "Header", "ICONS", "INK", "Image",
    "LegendItem", "MARGIN", "MILITARY", "MIN_TEXT", "MUTED", "PANEL", "PANEL_ALT", "PAPER", "PLAYER_COLORS",
    "PLAYER_LETTERS", "PLAYER_PATTERNS", "RESOURCES", "RESOURCE_COLORS", "RULE", "SHORT", "WIDTH", "alt_lines",
    "cached_layer", "cached_sprite", "contrast", "draw_header", "draw_legend", "ellipsize", "encode_png", "fill_pattern",
    "fit_size", "font", "header_height", "icon", "ink_on", "join_alt", "legend_height", "line_height",
    "measure", "paste_icon", "player_badge", "player_color", "player_letter", "player_pattern", "png_bytes",
    "register_icon", "render_view", "seat_names", "text_width", "tint", "view_header", "wrap",
]
