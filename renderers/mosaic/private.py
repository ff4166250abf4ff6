"""A seat's private image in Mosaic: its face-down technologies, the leaders to choose from,
its draft hand and drafted cards, and a Republic's look at the deck tops."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image as PILImage

from engine.mosaic.data import load
from renderers.common import HIGHLIGHT_EDGE, INK, MARGIN, PANEL_ALT, WIDTH, Canvas, Header, draw_header, header_height

from .labels import card_text, header_for, leader_text
from .parts import wrap_text


def private_header(view: Mapping[str, Any], seat: int) -> Header:
    """The header, naming the viewer."""
    name = next((p["name"] for p in view["players"] if p["seat"] == seat), f"seat {seat}")
    return header_for(view, subtitle=f"Private: {name}")


def body(view: Mapping[str, Any], seat: int) -> list[tuple[str, bool]]:
    """The image's lines below the header, wrapped: (text, True) for a section title, (text, False) under it."""
    d = load()
    priv = view.get("private") or {}
    sections: list[tuple[str, list[str]]] = []

    me: dict[str, Any] = next((p for p in view["players"] if p["seat"] == seat), {})
    have = me.get("pillars", {})

    def tech_lines(ids, status: bool = False, numbered: bool = False):
        out = []
        for k, t in enumerate(ids, 1):
            c = d.technologies[t]
            need = ", ".join(f"{k} {v}" for k, v in c.requires.items()) or "nothing"
            line = (f"{k}. " if numbered else "") + f"{c.name} — needs {need}; gives {', '.join(c.provides)}. {c.text}"
            if status:
                lack = [f"{k} {v - have.get(k, 0)}" for k, v in c.requires.items() if have.get(k, 0) < v]
                line += f" [missing: {', '.join(lack)}]" if lack else " [ready: you may flip it on any of your turns]"
            out.append(line)
        return out or ["none"]

    if priv.get("face_down") or view["phase"] not in ("leaders", "draft"):
        sections.append(
            ("Face-down technologies", tech_lines(priv.get("face_down", []), status=view["phase"] == "play"))
        )
    if view["phase"] == "leaders" and view.get("leaders_left"):
        # Setup: the leader choice comes first; a player needs each leader's benefits to pick.
        sections.append(
            (
                "Leaders to choose from" if seat in view["to_act"] else "Leaders still available",
                [leader_text(d.leaders[x]) for x in view["leaders_left"]],
            )
        )
    if view["phase"] == "leaders" and priv.get("hand"):
        sections.append(
            (
                "Starting technologies dealt to you (the draft begins once every leader is chosen)",
                tech_lines(priv.get("hand", []), numbered=True),
            )
        )
    elif priv.get("hand") or view["phase"] == "draft":
        title = (
            "Draft hand (pick one to keep; the rest go to your left)"
            if seat in view["to_act"]
            else "Draft hand (you have picked; these go to your left once everyone has)"
        )
        sections.append((title, tech_lines(priv.get("hand", []), numbered=True)))
    if priv.get("drafted"):
        sections.append(("Drafted (played at the end of setup)", tech_lines(priv.get("drafted", []))))
    peek = priv.get("peek")
    if peek:
        for deck, top in peek.items():
            sections.append((f"Republic: top of the {deck} deck", [card_text(top[0] if top else "")]))
    body = []
    for title, lines in sections:
        body.append((title, True))
        for ln in lines:
            for w in wrap_text(ln, WIDTH - 2 * MARGIN - 20):
                body.append((w, False))
    return body


def draw(view: Mapping[str, Any], seat: int) -> PILImage.Image:
    header = private_header(view, seat)
    hh = header_height(header)
    lines = body(view, seat)
    height = hh + MARGIN + sum(32 if b else 24 for _, b in lines) + 2 * MARGIN
    c = Canvas.blank(WIDTH, height, PANEL_ALT)
    draw_header(c, header)
    y = hh + MARGIN
    for text, bold in lines:
        c.text(
            MARGIN + (0 if bold else 16),
            y,
            text,
            22 if bold else 18,
            bold=bold,
            fill=HIGHLIGHT_EDGE if bold else INK,
            max_width=WIDTH - 2 * MARGIN - 16,
        )
        y += 32 if bold else 24
    return c.im
