"""The table's refusals and goodbyes, said in the player's language.

A table refuses a request as data (:mod:`net.wording`): a code, an English
sentence, and parameters whose ``key`` names the sentence (``then`` a second
one) and whose other entries fill it. :data:`TABLE_REFUSALS` holds the same
sentences as :data:`net.wording.SENTENCES`, marked for the catalogue (``net/``
knows no catalogue); :func:`table_refusal_text` says one in the current
language. A game's own refusals are said by its UI; this module says those
every game shares (a bad message, a full table, a chat too long...).

The table's sentence is used only when, said in English, it is the server's
sentence: a refusal from a newer or older server, or a game's refusal that
happens to use the same key, is shown as the server said it.

Usage::

    from poissonnier_tui.refusals import table_refusal_text

    text = table_refusal_text(reply.params, reply.message) or reply.message
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from typing import Final

from poissonnier_tui.i18n import N_, _

TABLE_REFUSALS: Final[Mapping[str, str]] = {
    # i18n: the table refuses a message that does not fit the protocol ('{field}': its name).
    "field_int": N_("Field '{field}' must be an integer from {lo} to {hi}."),
    "field_bool": N_("Field '{field}' must be true or false."),
    "field_text": N_("Field '{field}' must be text of {lo} to {hi} characters."),
    "field_printable": N_("Field '{field}' must be text of {lo} to {hi} printable characters."),
    "field_choice": N_("Field '{field}' must be one of {choices}."),
    "field_list": N_("Field '{field}' must be a list of at most {hi} items."),
    "field_map": N_("Field '{field}' must be a map."),
    "field_params": N_(
        "Field '{field}' must be a map of at most {hi} names (1 to 32 characters) to text "
        "(at most 256 characters) or integers."
    ),
    "field_plain": N_(
        "Field '{field}' must be plain data (maps with text keys, lists, text, integers, "
        "booleans, null) nested at most {depth} deep, with at most {nodes} values and "
        "{chars}-character text."
    ),
    "field_missing": N_("Field '{field}' is missing."),
    "field_unknown": N_("'{field}' has unknown field(s): {fields}."),
    "no_type": N_("Every message needs a 'type' field holding text."),
    "unknown_type": N_("Unknown message type {type}; expected {expected}."),
    "first_hello": N_("The first message must be 'hello'."),
    "hello_twice": N_("This connection has already said hello."),
    "no_hello": N_("No hello arrived in time."),
    "version_mismatch": N_(
        "This table runs protocol {protocol} (app {app}); your client runs protocol "
        "{their_protocol} (app {their_app}). Use the same version as the host."
    ),
    "wrong_game": N_("This table plays {game}, not {asked}."),
    "no_spectators": N_("This table does not allow spectators."),
    "code_needed": N_("This table's join code is needed; ask the host for it."),
    "code_wrong": N_("This table's join code is wrong; ask the host for it."),
    "code_wait": N_("Wait {wait} s before trying again."),
    "code_slow": N_("Too many wrong join codes from your address; try again in {wait} s."),
    "code_busy": N_("Too many wrong join codes at this table; try again in {wait} s."),
    "busy_waiting": N_("Too many connections are waiting; try again."),
    "busy_spectators": N_("This table has {n} spectators, its most."),
    "busy_address": N_("Your address already has {n} spectators here, the most."),
    "watch_instead": N_("Join as a spectator to watch."),
    "unreachable": N_("Cannot reach a table at {address}."),
    "unreachable_any": N_("Cannot reach the table at any of its addresses: {addresses}."),
    "no_welcome": N_("The table did not answer with a welcome."),
    "no_answer": N_("The table at {address} did not answer."),
    "closed_early": N_("The table closed the connection before answering."),
    "nonsense": N_("The table answered nonsense: {why}"),
    "table_closed": N_("The host closed the table; nothing of it remains."),
    "goodbye": N_("The table said goodbye ({reason})."),
    "silent": N_("The table was silent for {seconds} s."),
    "garbled": N_("The table sent a garbled frame: {why}"),
    "connection_closed": N_("The table closed the connection."),
    "game_over": N_("The game is over."),
    "seat_held": N_("Seat {seat} is held by {name}."),
    "seat_held_connected": N_("Seat {seat} is held by {name}, who is connected."),
    "seat_not_opened": N_("A seat cannot be opened once the game has started."),
    "already_started": N_("This game has already started."),
    "started": N_("The game has already started."),
    "not_started": N_("The game has not started yet."),
    "table_full": N_("All {seats} seats at this table are taken."),
    "seat_open": N_("Seat {seat} is still open; wait for a player or give it to a bot."),
    "not_over": N_("A rematch can follow only a finished game."),
    "no_such_seat": N_("There is no seat {seat} at this table."),
    "internal_error": N_("The server could not apply that action."),
    "not_host": N_("Only the host (seat 0) can start the game."),
    "slow_messages": N_("Too many messages; slow down."),
    "slow_moves": N_("Too many moves; slow down."),
    "spectator_plays": N_("Spectators cannot play."),
    "spectator_drafts": N_("Only a seated player in a game drafts."),
    "chat_control": N_("A chat message cannot hold control characters; nothing was sent."),
    "chat_empty": N_("A chat message needs some text; nothing was sent."),
    "chat_too_long": N_(
        "A chat message holds at most {most} characters, not {n}; nothing was sent."
    ),
    "chat_fast": N_("You are chatting too fast; wait a moment."),
    "drafts_off": N_("This table does not hold its bots for drafts."),
    "drafts_not_now": N_("There is no deal to prepare now; the table does not wait."),
    "drafts_used": N_(
        "You have held the table {n} times already; the bots carry on until the next turn."
    ),    "price_fast": N_("Too many price questions; wait a moment."),
    "price_asker": N_("Only a seated player in a game asks prices."),
    "price_seat": N_("Ask the price of another seat, not {seat}."),
    "no_prices": N_("This game has no prices to ask."),
    "price_namer": N_("Only a seated player names a price."),
    "price_unasked": N_("Nobody asked you that price, or you answered it."),
    "price_not_now": N_("That seat cannot name a price now."),
    "no_rematch": N_("No rematch is proposed."),
    "rematch_not_seated": N_("Only the seated players answer a rematch."),
    "rematch_already": N_("You have already answered this rematch."),
    "seat_settled": N_("The host has already given your seat away."),
    "rematch_proposed": N_("A rematch is already proposed."),
    "rematch_waiting": N_(
        "Waiting for {names}: wait for them, or give their seats to bots or open them."
    ),
    "rematch_answered": N_("{name} plays the rematch; only other seats can be given away."),
}
"""Each table refusal's sentence by key (the English of :data:`net.wording.SENTENCES`)."""

GOODBYES: Final[Mapping[str, str]] = {
    # i18n: why the table ended a connection (the reason of its goodbye).
    "closing": N_("The table closed."),
    "table_closed": N_("The host closed the table; nothing of it remains."),
    "replaced": N_("Your seat was taken back from another connection."),
    "timeout": N_("The table heard nothing from you for too long."),
    "too_many_errors": N_("The table ended the connection after too many refused messages."),
    "busy": N_("The table is too busy; try again."),
    "bad_frame": N_("The table could not read what was sent."),
    "record_failed": N_("The table could not save a move and stopped."),
}
"""What each goodbye reason of a table means (:class:`net.messages.Bye`)."""


def _say(key: object, params: Mapping[str, object]) -> tuple[str, str] | None:
    """``key``'s sentence filled from ``params``, in English and in the current language;
    ``None`` if the key is unknown or the parameters do not fit its placeholders."""
    if not isinstance(key, str) or key not in TABLE_REFUSALS:
        return None
    english = TABLE_REFUSALS[key]
    names = {name for _t, name, _s, _c in string.Formatter().parse(english) if name}
    if not names <= params.keys():
        return None
    values = {name: params[name] for name in names}
    return english.format(**values), _(english).format(**values)


def table_refusal_text(params: Mapping[str, object] | None, message: str) -> str | None:
    """A table's refusal in the current language, or ``None`` when it is not one of the
    table's sentences (then show the server's ``message``, or let the game say it).

    Args:
        params: the refusal's parameters (``ErrorReply.params``): ``key``, optionally
            ``then``, and the sentences' values.
        message: the server's English sentence; the table's sentence is used only if,
            said in English, it is the same (see the module's notes).
    """
    if not params:
        return None
    first = _say(params.get("key"), params)
    if first is None:
        return None
    english, text = first
    if "then" in params:
        second = _say(params["then"], params)
        if second is None:
            return None
        english, text = f"{english} {second[0]}", f"{text} {second[1]}"
    return text if english == message else None


def refusal_or_message(params: Mapping[str, object] | None, message: str) -> str:
    """:func:`table_refusal_text`, or the server's ``message`` when it gives ``None``."""
    return table_refusal_text(params, message) or message


def goodbye_text(reason: str | None) -> str:
    """Why the table said goodbye, in the current language (its reason code when it is
    not one we know: a newer server's)."""
    said = GOODBYES.get(reason or "")
    if said is not None:
        return _(said)
    return _("The table said goodbye ({reason}).").format(reason=reason or _("no reason given"))
