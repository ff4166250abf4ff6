"""Lobby commands and every authorization refusal (issue 3 §2)."""

from __future__ import annotations

from bot.service import Actor

from .conftest import CHANNEL, GUILD


async def test_new_join_start_seats_everyone_in_fixed_order(table):
    await table.ok(1, "game new fake-race seed=7")
    await table.ok(2, "game join")
    await table.ok(3, "game join")
    reply = await table.ok(1, "game start fixed")
    rec, _ = await table.state()
    assert rec.status == "active"
    assert [(s.name, s.seat) for s in rec.players] == [("ann", 0), ("bob", 1), ("cy", 2)]
    # ann acts first; she started the game and reads this reply, so she is not pinged (issue 12)
    assert reply.mentions == [] and reply.choices == {1: ["take 1", "take 2", "draw", "roll"]}
    assert reply.text.splitlines()[0] == "ann — your turn · Fake Race"
    assert reply.headline.acting == [Actor("ann", 0, 1)] and reply.headline.players == ["ann", "bob", "cy"]
    # her panel: what she decides (the choices themselves are data, for the menu)
    assert [(p.user, p.text) for p in reply.private] == [(1, "Now: Take from the pile, draw a card or roll the die.")]


async def test_start_randomises_seat_order_from_the_seed(table):
    orders = set()
    for channel, seed in ((201, 1), (202, 2), (203, 3), (204, 4), (205, 5)):
        await table.ok(1, f"game new fake-race seed={seed}", channel=channel)
        await table.ok(2, "game join", channel=channel)
        await table.ok(3, "game join", channel=channel)
        await table.ok(1, "game start", channel=channel)
        rec = await table.storage.open_table(channel)
        orders.add(tuple(s.user for s in rec.players))
    assert len(orders) > 1  # not always the joining order


async def test_one_open_game_per_channel_many_per_server(table):
    await table.ok(1, "game new fake-race")
    await table.refused(2, "game new fake-race", contains="already has")
    await table.ok(2, "game new fake-race", channel=CHANNEL + 1)
    await table.ok(3, "game new rising-cultures", channel=CHANNEL + 2, guild=GUILD + 1)
    listing = await table.ok(1, "games")
    assert listing.text.count("Fake Race") == 2 and "Rising Cultures" not in listing.text


async def test_unknown_game_and_bad_options_are_refused(table):
    await table.refused(1, "game new chess", contains="no game")
    await table.refused(1, "game new", contains="which game")
    await table.refused(1, "game new fake-race pile", contains="name=value")
    await table.ok(1, "game new fake-race pile=zero")
    await table.ok(2, "game join")
    await table.refused(1, "game start", contains="cannot start")
    (rec,) = [await table.storage.open_table(CHANNEL)]
    assert rec.status == "lobby"


async def test_join_refusals(table):
    await table.refused(2, "game join", contains="no game in this channel")
    await table.ok(1, "game new fake-race")
    await table.refused(1, "game join", contains="already joined")
    await table.ok(2, "game join")
    await table.ok(3, "game join")
    await table.refused(4, "game join", contains="at most 3")
    await table.ok(1, "game start")
    await table.refused(4, "game join", contains="game is active")


async def test_start_refusals(table):
    await table.ok(1, "game new fake-race")
    await table.refused(1, "game start", contains="needs 2-3 players")
    await table.ok(2, "game join")
    await table.refused(2, "game start", contains="only the table's creator")
    await table.refused(1, "game start backwards", contains="fixed")


async def test_leave_in_lobby_passes_the_table_on_and_is_refused_after_start(table):
    await table.ok(1, "game new fake-race")
    await table.ok(2, "game join")
    await table.ok(3, "game join")
    await table.refused(4, "game leave", contains="not joined")
    reply = await table.ok(1, "game leave")
    assert "bob now starts" in reply.text
    await table.ok(4, "game join")
    reply = await table.ok(2, "game leave")  # the new creator leaves too: the next one takes over
    assert "cy now starts" in reply.text
    await table.refused(2, "game start", contains="only the table's creator (cy)")
    await table.ok(2, "game join")
    await table.refused(4, "game start", contains="only the table's creator (cy)")
    await table.ok(3, "game start")
    await table.refused(2, "game leave", contains="resign")


async def test_last_player_leaving_closes_the_lobby(table):
    await table.ok(1, "game new fake-race")
    await table.ok(1, "game leave")
    assert await table.storage.open_table(CHANNEL) is None


async def test_cancel_only_by_creator_or_admin(table):
    await table.started()
    await table.refused(2, "game cancel", contains="creator or a server admin")
    await table.ok(2, "game cancel", admin=True)
    assert await table.storage.open_table(CHANNEL) is None
    await table.started()
    await table.ok(1, "game cancel")
    status = await table.ok(1, "game status")
    assert "no game" in status.text.lower()


async def test_play_refusals_name_the_reason(table):
    await table.ok(1, "game new fake-race")
    await table.refused(1, "play take 1", contains="not started yet")
    await table.ok(2, "game join")
    await table.ok(1, "game start fixed")
    await table.refused(3, "play take 1", contains="not a player")
    await table.refused(2, "play take 1", contains="not your turn; waiting for ann")
    bad = await table.refused(1, "play take 3", contains="not legal now")
    assert "`take 1`" in bad.text and bad.choices == {1: ["take 1", "take 2", "draw", "roll"]}
    await table.refused(1, "play dance", contains="not an action of this game")
    shown = await table.ok(1, "play")  # no action: the player's turn panel, to them alone
    assert shown.panel and not shown.text and shown.private[0].text.startswith("Now: ")
    assert (
        shown.choices == {1: ["take 1", "take 2", "draw", "roll"]}
        and shown.decisions[1].prompt in shown.private[0].text
    )
    await table.refused(3, "hand", contains="not a player")
    await table.refused(3, "undo", contains="not a player")
    await table.refused(3, "resign", contains="not a player")
    await table.refused(3, "vote skip", contains="not a player")
    await table.refused(2, "vote skip", contains="nobody is absent")
    await table.refused(2, "settings remind 3", contains="only the table's creator")
    await table.refused(1, "dance", contains="unknown command")
    rec, state = await table.state()
    assert rec.version == 3 and state.pile == 10  # nothing changed


async def test_resigned_player_cannot_act_and_paused_game_refuses_play(table):
    await table.started(users=(1, 2, 3))
    await table.ok(2, "resign")
    await table.refused(2, "play take 1", contains="resigned")
    await table.refused(1, "resume", contains="game is active")


async def test_names_never_become_mentions(table):
    reply = await table.service.handle(CHANNEL, 9, "@everyone <@&55>", "game new fake-race", guild=GUILD)
    assert "@everyone" not in reply.text and "<@&" not in reply.text


async def test_status_shows_lobby_then_turn_and_scores(table):
    await table.ok(1, "game new fake-race")
    assert "waiting to start: ann" in (await table.ok(1, "game status")).text
    await table.ok(2, "game join")
    await table.ok(1, "game start fixed")
    text = (await table.ok(2, "status")).text
    assert "Scores: ann (A) 0, bob (B) 0" in text and "waiting for ann (A)" in text and "version" not in text
