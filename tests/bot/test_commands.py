"""The command table (issue 47 §2): one explicit table finds every command, and `help` lists
the very commands of the table."""

from __future__ import annotations

import re

from bot.service.commands import HELP, command_table, parse, verb

CHANNEL, ANN = 1, 1


def help_phrases() -> list[str]:
    """Each command `help` shows, as its leading words (`settings quiet <22-7>` -> `settings quiet`)."""
    phrases = []
    for span in re.findall(r"`([^`]+)`", HELP):
        words = []
        for word in span.split():
            if not re.fullmatch(r"[a-z][a-z-]*", word):
                break
            words.append(word)
        phrases.append(" ".join(words))
    return phrases


def the_table(service) -> dict:
    return service.commands


def test_help_and_the_table_list_the_same_commands(table):
    """Every command `help` shows is one of the table's (or one of its words, `undo approve`),
    and every command of the table is in `help` (but `help` itself)."""
    commands = the_table(table.service)
    shown = set()
    for phrase in help_phrases():
        named = [c for c in commands if phrase == c or phrase.startswith(c + " ")]
        assert named, f"help shows `{phrase}`, which is no command of the table"
        shown.add(max(named, key=len))
    assert shown == set(commands) - {"help"}


def test_each_command_has_its_own_verb_and_the_table_is_the_service_s(table):
    commands = the_table(table.service)
    assert len({verb(phrase) for phrase in commands}) == len(commands)
    built = command_table(
        help=commands["help"],
        lobby=table.service.lobby,
        moves=table.service.moves,
        undo=table.service.undo,
        absence=table.service.absence,
        bots=table.service.bots,
        prefs=table.service.prefs,
        records=table.service.records,
        pages=table.service.pages,
        away=table.service.away,
        plans=table.service.plans,
    )
    assert built.keys() == commands.keys()


def test_the_words_of_a_command_name_its_verb():
    assert parse(["game", "new", "cradle"]) == ("new", ["cradle"])
    assert parse(["/Game"]) == ("status", [])
    assert parse(["games"]) == ("list", [])
    assert parse(["games", "History", "5"]) == ("history", ["5"])
    assert parse(["games", "cradle"]) == ("list", ["cradle"])  # not a `games` command: the list
    assert parse(["export", "3"]) == ("export", ["3"])  # the Discord commands send the bare verb


async def test_every_command_of_the_table_is_found_and_no_other(table):
    """Each command reaches its code (whatever it answers, never "Unknown command"); a word that
    is no command is refused with the list of commands."""
    for phrase in the_table(table.service):
        reply = await table.service.handle(CHANNEL, ANN, "ann", phrase)
        assert not reply.text.startswith("Unknown command"), phrase
    reply = await table.service.handle(CHANNEL, ANN, "ann", "game frobnicate")
    assert reply.error and reply.text.startswith("Unknown command `frobnicate`.\nCommands:")
