"""`[web]` in config, and the terminal table printing its links (issue 28 §1)."""

from __future__ import annotations

import asyncio

import pytest

from bot.config import ConfigError, load_config
from bot.local import Terminal
from tests.bot.conftest import GAMES


def config(tmp_path, text: str, env: dict | None = None):
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return load_config(path, env=env or {})


def test_the_web_table_listens_on_the_loopback_by_default_and_can_be_turned_off(tmp_path):
    plain = config(tmp_path, "")
    assert (plain.web_listen, plain.web_public_url, plain.web_secret, plain.web_link_days) == (
        "127.0.0.1:8765",
        "",
        "",
        30,
    )
    assert config(tmp_path, '[web]\nlisten = ""\n').web_listen == ""
    given = config(
        tmp_path, '[web]\nlisten = "0.0.0.0:80"\npublic_url = "https://e.example/"\nsecret = "s"\nlink_days = 7\n'
    )
    assert (given.web_listen, given.web_public_url, given.web_secret, given.web_link_days) == (
        "0.0.0.0:80",
        "https://e.example",
        "s",
        7,
    )
    assert config(tmp_path, '[web]\nsecret = "file"\n', {"EPOCHS_WEB_SECRET": "env"}).web_secret == "env"
    assert (plain.web_view_cache_mb, config(tmp_path, "[web]\nview_cache_mb = 8\n").web_view_cache_mb) == (64, 8)
    assert plain.web_proxies == ()
    assert config(tmp_path, '[web]\nproxies = ["127.0.0.1", "0::1"]\n').web_proxies == ("127.0.0.1", "::1")


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('[web]\nlisten = "8765"\n', "host:port"),
        ('[web]\nlisten = "localhost:99999"\n', "port from 1 to 65535"),
        ("[web]\nlisten = 8765\n", "host:port"),
        ('[web]\npublic_url = "epochs.example"\n', "http://"),
        ("[web]\nlink_days = 0\n", "web.link_days"),
        ('[web]\nview_cache_mb = "lots"\n', "web.view_cache_mb"),
        ('[web]\nproxies = "127.0.0.1"\n', "web.proxies must be a list of IP addresses"),
        ('[web]\nproxies = ["nginx"]\n', "web.proxies must be a list of IP addresses"),
    ],
)
def test_a_web_setting_that_cannot_work_is_refused_saying_why(tmp_path, text, says):
    with pytest.raises(ConfigError) as err:
        config(tmp_path, text)
    assert says in str(err.value)


async def test_the_terminal_prints_the_tables_link_and_each_seats_once(web):
    out: list[str] = []
    terminal = Terminal(web.service, out=out.append, images_dir=web.service.storage.path.parent / "images", channel=100)
    assert "fake-race" in GAMES
    await terminal.run_script(["ann game new fake-race seed=3 pile=9", "bob game join", "ann game start fixed"])
    table, by_user = await web.links_of()
    rec = await web.storage.open_table(100)
    seats = {p.name: by_user[p.user] for p in rec.players}
    links = [line for line in out if "on the web" in line]
    assert links == [
        f"The table on the web (anyone with the link can watch): http://table.test{table}",
        f"ann's seat on the web (private: it acts for ann): http://table.test{seats['ann']}",
    ]
    await terminal.run_script(["ann take 1"])
    assert f"bob's seat on the web (private: it acts for bob): http://table.test{seats['bob']}" in out
    assert sum("The table on the web" in line for line in out) == 1


async def test_the_terminal_reads_the_keyboard_later_and_prints_moves_made_on_the_web(web):
    await web.started()
    _, seats = await web.links_of()
    out: list[str] = []
    terminal = Terminal(web.service, out=out.append, images_dir=web.service.storage.path.parent / "images", channel=100)
    answers = iter(["quit"])

    async def ask(prompt: str) -> str:
        status, _ = await web.move(seats[1], "take 2")  # meanwhile, ann plays on the web
        assert status == 200
        await asyncio.sleep(0.3)  # the terminal prints what came in
        return next(answers)

    await terminal.run_interactive(ask, follow=0.05)
    assert any("take 2" in line or "took 2" in line for line in out), out
