"""The table's own refusals and goodbyes, said in the player's language.

``net/`` says each refusal in English and as data (:mod:`net.wording`); the
client's table (:mod:`poissonnier_tui.refusals`) holds the same English
sentences, marked for the catalogue, and says them in the current language —
only when they are what the server said.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from net.chat import clean_chat
from net.schema import BadMessage, Int, Record
from net.table import Refused
from net.wording import SENTENCES, then, worded
from poissonnier_tui import i18n
from poissonnier_tui.refusals import (
    GOODBYES,
    TABLE_REFUSALS,
    goodbye_text,
    refusal_or_message,
    table_refusal_text,
)


@pytest.fixture
def french() -> Iterator[None]:
    i18n.set_language("fr")
    yield
    i18n.set_language("en")


def test_the_client_knows_every_sentence_of_the_table_in_the_same_english() -> None:
    assert dict(TABLE_REFUSALS) == dict(SENTENCES)


def test_every_table_sentence_and_goodbye_has_a_french_translation(french: None) -> None:
    for english in [*TABLE_REFUSALS.values(), *GOODBYES.values()]:
        assert i18n._(english) != english, english


def test_a_refusal_travels_as_a_key_and_values_and_reads_in_french(french: None) -> None:
    exc = Refused("busy", *worded("busy_spectators", n=20))
    assert exc.message == "This table has 20 spectators, its most."
    assert exc.params == {"key": "busy_spectators", "n": 20}
    assert table_refusal_text(exc.params, exc.message) == (
        "Cette table a 20 spectateurs, son maximum."
    )


def test_a_second_sentence_follows_the_first_in_both_languages(french: None) -> None:
    message, params = then(worded("code_wrong"), "code_wait", wait=30)
    assert message == (
        "This table's join code is wrong; ask the host for it. Wait 30 s before trying again."
    )
    assert params == {"key": "code_wrong", "then": "code_wait", "wait": 30}
    assert table_refusal_text(params, message) == (
        "Ce code d'accès est faux\u00a0; demandez le bon à l'hôte. "
        "Attendez 30\u00a0s avant de réessayer."
    )


def test_a_schema_refusal_names_the_field_in_french(french: None) -> None:
    with pytest.raises(BadMessage) as caught:
        Record({"seq": Int(0, 10)}).check({"seq": "3"}, "action")
    exc = caught.value
    assert exc.message == "Field 'action.seq' must be an integer from 0 to 10."
    assert refusal_or_message(exc.params, exc.message) == (
        "Le champ «\u00a0action.seq\u00a0» doit être un entier de 0 à 10."
    )
    with pytest.raises(BadMessage) as caught:
        clean_chat("\x1b[31m")
    assert refusal_or_message(caught.value.params, caught.value.message) == (
        "Un message ne peut pas contenir de caractères de contrôle\u00a0; rien n'a été envoyé."
    )


@pytest.mark.parametrize(
    ("params", "message"),
    [
        (None, "Seat 2 is held by Ana."),  # an old server: no parameters
        ({"key": "seat_held", "seat": 2}, "Seat 2 is held by Ana."),  # a value missing
        ({"key": "new_in_v9", "seat": 2}, "Something new."),  # a newer server's key
        ({"key": "seat_held", "seat": 2, "name": "Ana"}, "Seat 2 is held by Ana (host)."),
        ({"key": "game_over", "rule": "§9"}, "the game is over (§9)"),  # a game's own key
        ({"key": "code_wrong", "then": "nope"}, "This table's join code is wrong; ask."),
    ],
)
def test_what_is_not_the_tables_sentence_is_shown_as_the_server_said_it(
    params: dict[str, str | int] | None, message: str, french: None
) -> None:
    assert table_refusal_text(params, message) is None
    assert refusal_or_message(params, message) == message


def test_a_goodbye_reads_in_french_and_an_unknown_one_names_its_reason(french: None) -> None:
    assert goodbye_text("too_many_errors") == (
        "La table a coupé la connexion après trop de messages refusés."
    )
    assert goodbye_text("maintenance") == "La table a dit au revoir (maintenance)."
    assert goodbye_text(None) == "La table a dit au revoir (sans raison donnée)."
    i18n.set_language("en")
    assert goodbye_text("replaced") == "Your seat was taken back from another connection."
