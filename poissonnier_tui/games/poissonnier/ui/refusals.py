"""Refused moves of Le Poissonnier, said in the player's language.

The server refuses a move as data (:class:`net.messages.ErrorReply`): a
``code``, ``params`` naming which sentence it is (``key``, the code itself
when a code has one sentence) with the values to put in it and the rule
broken (``rule``, e.g. ``"§3.2"``), and its own English sentence. Each client
says the refusal in its own language from :data:`REFUSALS`; a key it does not
know (a newer server, a table-level refusal such as ``seat_taken``) or
parameters that do not fit the sentence fall back on the server's sentence.

The sentences say in English exactly what
:class:`~poissonnier_tui.games.poissonnier.rules.errors.IllegalAction` says,
so an English client shows the same words whether it renders the refusal
itself or not (a test holds them together).
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from typing import Final

from poissonnier_tui.i18n import N_, _

REFUSALS: Final[Mapping[str, str]] = {
    # i18n: a refused move; "§3" etc. is added after it. Lower case first, as in the rules engine.
    "bad_seat": N_("there is no seat {seat}"),
    "game_over": N_("the game is over"),
    "not_fill": N_("crates can be filled only in the fill step"),
    "fill_over": N_("the fill step is over"),
    "already_ready": N_("you have declared ready; take it back first to change your crates"),
    "bad_crate": N_("you have no crate {crate}"),
    "too_many_moves": N_("you have rearranged {n} times this fill step; declare ready"),
    "bad_place": N_("choose at least one fish to place"),
    "card_twice": N_("a card is named twice"),
    "not_in_hand": N_("{card} is not in your hand"),
    "special_in_crate": N_("special cards stay in the hand; they never go in a crate"),
    "mixed_crate": N_("a crate holds fish of one freshness only"),
    "empty_crate": N_("crate {crate} is already empty"),
    "not_ready": N_("you have not declared ready"),
    "max_crates": N_("a stall has at most {n} crates"),
    "deck_empty": N_("no crate can be bought once the fish deck is empty"),
    "crate_price": N_("the next crate costs {price} coins; you have {coins}"),
    "not_serve_serve": N_("serve only after the fill step and the call"),
    "not_serve_end_the_turn": N_("end the turn only after the fill step and the call"),
    "not_active_serve": N_("only the active player can serve"),
    "not_active_end_the_turn": N_("only the active player can end the turn"),
    "not_servable": N_("{client} is not among the first 3 clients of the queue"),
    "fish_twice": N_("a fish is named twice"),
    "fish_in_hand": N_("{fish} is in your hand: only crate or bought fish can serve"),
    "fish_not_usable": N_(
        "{fish} is in neither your crates nor bought this turn: only crate or bought fish can serve"
    ),
    "few_glacons": N_("you do not hold that many glaçons"),
    "few_arrivages": N_("you do not hold that many arrivages"),
    "deal_not_serve": N_("deals are made only while the active player serves"),
    "deal_party": N_("you can only deal with the active player, as seller"),
    "too_many_proposals": N_("you have {n} proposals open; wait for answers or withdraw one"),
    "bad_seller": N_("the seller must be another player than the active one"),
    "empty_deal": N_("a deal gives the buyer at least one fish or card"),
    "bad_deal": N_("a crate is named twice"),
    "fish_not_in_crate": N_(
        "the seller's crate does not hold that many fish; only crate fish are sold"
    ),
    "buyer_coins": N_("the buyer holds only {coins} coins"),
    "offer_specials": N_("you do not hold the special cards you offer"),
    "bad_counter": N_("you can counter only a proposal made to you"),
    "no_proposal": N_("there is no open proposal #{proposal}"),
    "accept_party": N_("only the other side of a proposal can accept it"),
    "asked_specials": N_("you do not hold the special cards this deal asks of you"),
    "decline_party": N_("only the other side of a proposal can decline it"),
    "reason_price_alone": N_("a counter-price needs a reason"),
    "reason_unknown": N_("{reason} is not a reason to decline"),
    "reason_side": N_("{reason} is not a reason for your side of this deal"),
    "reason_price": N_(
        "a counter-price goes with too_cheap (more than the {coins} offered) or too_dear (fewer)"
    ),
    "not_proposer": N_("only the proposer can withdraw a proposal"),
    "serve_inspector": N_("an inspector is not a client to serve"),
    "arrivage_pourri": N_(
        "an arrivage stands for très frais, frais, mangeable or douteux fish, never pourri"
    ),
    "glacon_twice": N_("each glaçon must ice a different fish"),
    "glacon_elsewhere": N_("a glaçon must ice a fish of this order, not {fish}"),
    "ice_rotten": N_("a rotten fish cannot be iced"),
    "ice_tres_frais": N_("a très frais fish cannot get fresher"),
    "undecided_glacon": N_("an undecided client takes any fish: a glaçon would be wasted"),
    "undecided_size": N_("this undecided client takes exactly {size} fish, not {given}"),
    "order_mismatch": N_("{client} asks for {asks}; this gives {gives}"),
}
"""Each refusal's sentence by its key, marked for the catalogue (English here)."""


def refusal_text(code: str, params: Mapping[str, str | int] | None, fallback: str) -> str:
    """A refused move in the current language, e.g. ``"T03 n'est pas dans votre main (§3.2)"``.

    Args:
        code: the refusal's code (``ErrorReply.code``), the key when
            ``params`` names none.
        params: ``ErrorReply.params`` (``key``, ``rule`` and the sentence's
            values), or ``None`` from a server that sends none (then its own
            sentence is shown: without the rule, the words alone would say less).
        fallback: the server's own sentence (``ErrorReply.message``), returned
            as it is when the key is unknown or the values do not fit.

    Returns:
        The sentence with the rule cited after it in brackets, when there is one.
    """
    if not params:
        return fallback
    key = params.get("key", code)
    template = REFUSALS.get(key) if isinstance(key, str) else None
    if template is None:
        return fallback
    text = _(template)
    names = {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name}
    if not names <= params.keys():
        return fallback
    try:
        sentence = text.format(**{name: params[name] for name in names})
    except (ValueError, IndexError, KeyError):  # a translation broken by hand
        return fallback
    rule = params.get("rule")
    return f"{sentence} ({rule})" if isinstance(rule, str) and rule else sentence
