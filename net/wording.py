"""The table's own refusals, as data: a key naming the sentence, and its values.

The server says every refusal in English (``ErrorReply.message``) and also as
parameters: ``key`` names one of :data:`SENTENCES` and the other entries fill
its ``{placeholders}``; ``then`` names an optional second sentence said after
it (e.g. "Join as a spectator to watch."). A client that knows the key says the
refusal in its player's language from its own table of the same sentences; one
that does not shows the English. This module knows no language but English and
imports no catalogue: the translations live with each client's UI.

A game's refusals (:class:`~net.game.ActionRejected`) carry their own keys and
parameters; these are the table's, shared by every game.

Usage::

    raise Refused("busy", *worded("busy_spectators", n=3))
    # Refused("busy", "This table has 3 spectators, its most.",
    #         {"key": "busy_spectators", "n": 3})
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, TypeAlias

WordedParams: TypeAlias = dict[str, str | int]
"""A refusal's parameters: ``key`` (and ``then``) and the values of its sentences."""

SENTENCES: Final[Mapping[str, str]] = {
    # Messages that do not fit the protocol (code bad_message).
    "field_int": "Field '{field}' must be an integer from {lo} to {hi}.",
    "field_bool": "Field '{field}' must be true or false.",
    "field_text": "Field '{field}' must be text of {lo} to {hi} characters.",
    "field_printable": "Field '{field}' must be text of {lo} to {hi} printable characters.",
    "field_choice": "Field '{field}' must be one of {choices}.",
    "field_list": "Field '{field}' must be a list of at most {hi} items.",
    "field_map": "Field '{field}' must be a map.",
    "field_params": (
        "Field '{field}' must be a map of at most {hi} names (1 to 32 characters) to text "
        "(at most 256 characters) or integers."
    ),
    "field_plain": (
        "Field '{field}' must be plain data (maps with text keys, lists, text, integers, "
        "booleans, null) nested at most {depth} deep, with at most {nodes} values and "
        "{chars}-character text."
    ),
    "field_missing": "Field '{field}' is missing.",
    "field_unknown": "'{field}' has unknown field(s): {fields}.",
    "no_type": "Every message needs a 'type' field holding text.",
    "unknown_type": "Unknown message type {type}; expected {expected}.",
    "first_hello": "The first message must be 'hello'.",
    "hello_twice": "This connection has already said hello.",
    "no_hello": "No hello arrived in time.",
    # Joining (the hello's answer).
    "version_mismatch": (
        "This table runs protocol {protocol} (app {app}); your client runs protocol "
        "{their_protocol} (app {their_app}). Use the same version as the host."
    ),
    "wrong_game": "This table plays {game}, not {asked}.",
    "no_spectators": "This table does not allow spectators.",
    "code_needed": "This table's join code is needed; ask the host for it.",
    "code_wrong": "This table's join code is wrong; ask the host for it.",
    "code_wait": "Wait {wait} s before trying again.",
    "code_slow": "Too many wrong join codes from your address; try again in {wait} s.",
    "code_busy": "Too many wrong join codes at this table; try again in {wait} s.",
    "busy_waiting": "Too many connections are waiting; try again.",
    "busy_spectators": "This table has {n} spectators, its most.",
    "busy_address": "Your address already has {n} spectators here, the most.",
    "watch_instead": "Join as a spectator to watch.",
    # The client's own (net/client.py, net/dial.py): joining, and why a connection ended.
    "unreachable": "Cannot reach a table at {address}.",
    "unreachable_any": "Cannot reach the table at any of its addresses: {addresses}.",
    "no_welcome": "The table did not answer with a welcome.",
    "no_answer": "The table at {address} did not answer.",
    "closed_early": "The table closed the connection before answering.",
    "nonsense": "The table answered nonsense: {why}",
    "table_closed": "The host closed the table; nothing of it remains.",
    "goodbye": "The table said goodbye ({reason}).",
    "silent": "The table was silent for {seconds} s.",
    "garbled": "The table sent a garbled frame: {why}",
    "connection_closed": "The table closed the connection.",
    # Seats and the game's course.
    "game_over": "The game is over.",
    "seat_held": "Seat {seat} is held by {name}.",
    "seat_held_connected": "Seat {seat} is held by {name}, who is connected.",
    "seat_not_opened": "A seat cannot be opened once the game has started.",
    "already_started": "This game has already started.",
    "started": "The game has already started.",
    "not_started": "The game has not started yet.",
    "table_full": "All {seats} seats at this table are taken.",
    "seat_open": "Seat {seat} is still open; wait for a player or give it to a bot.",
    "not_over": "A rematch can follow only a finished game.",
    "no_such_seat": "There is no seat {seat} at this table.",
    "internal_error": "The server could not apply that action.",
    "not_host": "Only the host (seat 0) can start the game.",
    # A seated connection's requests.
    "slow_messages": "Too many messages; slow down.",
    "slow_moves": "Too many moves; slow down.",
    "spectator_plays": "Spectators cannot play.",
    "spectator_drafts": "Only a seated player in a game drafts.",
    "chat_control": "A chat message cannot hold control characters; nothing was sent.",
    "chat_empty": "A chat message needs some text; nothing was sent.",
    "chat_too_long": "A chat message holds at most {most} characters, not {n}; nothing was sent.",
    "chat_fast": "You are chatting too fast; wait a moment.",
    "drafts_off": "This table does not hold its bots for drafts.",
    "drafts_not_now": "There is no deal to prepare now; the table does not wait.",
    "drafts_used": (
        "You have held the table {n} times already; the bots carry on until the next turn."
    ),    "price_fast": "Too many price questions; wait a moment.",
    "price_asker": "Only a seated player in a game asks prices.",
    "price_seat": "Ask the price of another seat, not {seat}.",
    "no_prices": "This game has no prices to ask.",
    "price_namer": "Only a seated player names a price.",
    "price_unasked": "Nobody asked you that price, or you answered it.",
    "price_not_now": "That seat cannot name a price now.",
    "no_rematch": "No rematch is proposed.",
    "rematch_not_seated": "Only the seated players answer a rematch.",
    "rematch_already": "You have already answered this rematch.",
    "seat_settled": "The host has already given your seat away.",
    "rematch_proposed": "A rematch is already proposed.",
    "rematch_waiting": (
        "Waiting for {names}: wait for them, or give their seats to bots or open them."
    ),
    "rematch_answered": "{name} plays the rematch; only other seats can be given away.",
}
"""Each table refusal's English sentence by key, with its ``{placeholders}``."""


def worded(key: str, **values: str | int) -> tuple[str, WordedParams]:
    """The English sentence :data:`SENTENCES` ``[key]`` with ``values`` filled in, and the
    parameters a client says it with in its own language (``{"key": key, **values}``).

    Raises:
        KeyError: ``key`` is not one of :data:`SENTENCES` or a placeholder has no value.
    """
    return SENTENCES[key].format(**values), {"key": key, **values}


def then(
    said: tuple[str, Mapping[str, str | int]], key: str, **values: str | int
) -> tuple[str, WordedParams]:
    """``said`` (a sentence and its parameters) followed by the sentence of ``key``:
    the parameters name it ``then`` and add its values.

    Raises:
        KeyError: as :func:`worded`.
    """
    message, params = said
    return f"{message} {SENTENCES[key].format(**values)}", {**params, "then": key, **values}
