"""The seat page is where you play (issue 52 §1): a seat that must act reads its decision
before the board ("since your last turn" folded above the question, the choices after it);
a seat not to act, and the public page, read the board first. The browser test measures
the first choice inside a phone's first screen (test_browser.py); this one the page's order.
"""

from __future__ import annotations


def order(html: str, *marks: str) -> list[int]:
    return [html.index(mark) for mark in marks]


async def test_a_seat_to_act_reads_its_decision_before_the_board(web):
    await web.started()
    table, seats = await web.links_of()
    await web.move(seats[1], "take 1")
    await web.move(seats[2], "take 1")  # ann to act again: something happened since her last turn
    _, html = await web.get(seats[1])
    news, prompt, choice, board, log = order(
        html, '<details class="news">', 'class="prompt"', 'name="action"', 'id="board"', 'id="log-heading"'
    )
    assert news < prompt < choice < board < log
    assert html.index('id="live-top"') < prompt and html.index('id="live-top"') < board


async def test_a_seat_not_to_act_and_the_public_page_read_the_board_first(web):
    await web.started()
    table, seats = await web.links_of()
    for path in (seats[2], table):
        _, html = await web.get(path)
        assert 'class="prompt"' not in html
        board, whose = order(html, 'id="board"', 'id="turn-heading"')
        assert board < whose
    _, html = await web.get(seats[2])
    assert html.index('id="board"') < html.index("Not your turn: waiting for ann.")


async def test_the_live_part_carries_the_decision_and_the_rest_in_their_slots(web):
    await web.started()
    _, seats = await web.links_of()
    _, part = await web.get(seats[1] + "/live")
    top, prompt, whose = order(part, '<div class="live-top">', 'class="prompt"', 'id="turn-heading"')
    assert part.startswith('<div class="live"') and top < prompt < whose
    _, page = await web.get(seats[1])
    assert page.count('class="prompt"') == 1  # the page holds the decision once, in its slot
