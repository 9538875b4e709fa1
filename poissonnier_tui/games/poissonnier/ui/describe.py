"""Words for the table: log sentences, deal terms, client cards, the status line.

Pure functions from a :class:`~poissonnier_tui.games.poissonnier.ui.snapshot.TableSnapshot`
(and an event or proposal map) to markup. They are the one place that turns
the view's codes into sentences, so that the log, the offers pane and the
status line speak the same language. The markup uses only the subset that
Textual content markup and Rich markup share (``[b]``, ``[dim]``, ``[reverse]``,
``[#fff on #000]``), because the log is a ``RichLog``. Player names come from
the lobby frame and are escaped: a name is data, never markup.

Every sentence comes from the message catalogue in the language chosen now
(poissonnier_tui/i18n.py), whole: a sentence about this client's own seat is
a message of its own ("[b]You[/b] ended the turn.", not "{name} ended the
turn." with "You" put in), counts go through ``ngettext``, and placeholders
are named. The log keeps events as codes and parameters, so a replay reads in
the viewer's language; the result's steps are read as codes and parameters
(``rules/scoring.explain``) and worded from the catalogue (:func:`step_reason`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from textual.markup import escape

from poissonnier_tui.games.poissonnier.rules.cards import CLIENTS, ClientKind
from poissonnier_tui.games.poissonnier.rules.scoring import Reason, Step
from poissonnier_tui.games.poissonnier.ui.palette import chip, chips
from poissonnier_tui.games.poissonnier.ui.reasons import decline_text
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.i18n import N_, _, ngettext

Event = Mapping[str, Any]
"""A public log event from the view (``{"t": type, "turn": n, ...}``, see engine)."""


def who(snap: TableSnapshot, seat: int) -> str:
    """The bold, escaped name of ``seat`` for use in markup, in the third person.

    Sentences about this client's own seat are whole sentences of their own
    ("You ended the turn.", never "{name} ended the turn." with "You" put in),
    because other languages conjugate differently (docs/GLOSSARY.md).
    """
    return f"[b]{escape(snap.name(seat))}[/b]"


def person(snap: TableSnapshot, seat: int, mine: str, theirs: str, **params: object) -> str:
    """``mine`` (already translated) if ``seat`` is this client's, else ``theirs`` with
    ``{name}`` the seat's bold name; both formatted with ``params``."""
    if seat == snap.me:
        return mine.format(**params)
    return theirs.format(name=who(snap, seat), **params)


def coins(n: int) -> str:
    """``"1 coin"``, ``"3 coins"`` in the current language."""
    return ngettext("{n} coin", "{n} coins", n).format(n=n)


def stamps(n: int) -> str:
    """``"1 stamp"``, ``"3 stamps"`` in the current language."""
    return ngettext("{n} stamp", "{n} stamps", n).format(n=n)


def glacons(n: int) -> str:
    """``"1 glaçon"``, ``"2 glaçons"`` (the game's own word in both languages)."""
    return ngettext("{n} glaçon", "{n} glaçons", n).format(n=n)


def arrivages(n: int) -> str:
    """``"1 arrivage"``, ``"2 arrivages"`` (the game's own word in both languages)."""
    return ngettext("{n} arrivage", "{n} arrivages", n).format(n=n)


def and_list(words: list[str]) -> str:
    """``"a, b and c"`` in the current language (``""`` for none)."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + _(" and ") + words[-1]


# --- clients ------------------------------------------------------------------


def client_summary(client_id: str) -> str:
    """One line for a client card, e.g. ``C23 T F M · 6 coins · 3 stamps`` (RULES.md §1).

    Undecided clients read ``any 3 fish (rotten ok)`` (§5).
    """
    card = CLIENTS[client_id]
    if card.kind is ClientKind.UNDECIDED:
        order = ngettext("any {n} fish (rotten ok)", "any {n} fish (rotten ok)", card.size).format(
            n=card.size
        )
    elif card.kind is ClientKind.INSPECTOR:
        return _("{client} inspector").format(client=client_id)
    else:
        order = chips(card.order)
    return f"{client_id} {order} · {coins(card.coins)} · {stamps(card.stamps)}"


# --- deals (RULES.md §4) ----------------------------------------------------------


def goods(proposal: Mapping[str, Any]) -> str:
    """What the seller gives: fish from named crates and special cards."""
    parts = [
        _("{fish} from crate {crate}").format(fish=chips(str(code) * int(n)), crate=int(k) + 1)
        for k, n, code in proposal["fish"]
    ]
    if proposal.get("seller_glacons"):
        parts.append(glacons(int(proposal["seller_glacons"])))
    if proposal.get("seller_arrivages"):
        parts.append(arrivages(int(proposal["seller_arrivages"])))
    return " + ".join(parts) if parts else _("nothing")


def price(proposal: Mapping[str, Any]) -> str:
    """What the buyer (always the active player) gives: coins and special cards."""
    parts = []
    if proposal.get("coins"):
        parts.append(f"[b]{coins(int(proposal['coins']))}[/b]")
    if proposal.get("buyer_glacons"):
        parts.append(glacons(int(proposal["buyer_glacons"])))
    if proposal.get("buyer_arrivages"):
        parts.append(arrivages(int(proposal["buyer_arrivages"])))
    return " + ".join(parts) if parts else _("nothing")


def proposal_text(
    snap: TableSnapshot, proposal: Mapping[str, Any], buyer: int | None = None
) -> str:
    """A proposal as a sentence: who offers what to whom, at what price (RULES.md §4).

    The buyer is the player active when it was made: ``buyer`` (a logged
    event's ``"buyer"``), or the active player now for an open proposal. The
    proposer is either side. One whole sentence for each grammatical person
    (you offer / offers you / offers someone), never one built from pieces.
    """
    seller = int(proposal["seller"])
    buyer = snap.active if buyer is None else buyer
    if int(proposal["proposer"]) == seller:
        return _between(
            snap,
            seller,
            buyer,
            _("[b]You[/b] offer {buyer} {goods} for {price}"),
            _("{seller} offers [b]you[/b] {goods} for {price}"),
            _("{seller} offers {buyer} {goods} for {price}"),
            proposal,
        )
    return _between(
        snap,
        seller,
        buyer,
        _("{buyer} asks [b]you[/b] for {goods}, paying {price}"),
        _("[b]You[/b] ask {seller} for {goods}, paying {price}"),
        _("{buyer} asks {seller} for {goods}, paying {price}"),
        proposal,
    )


def deal_text(snap: TableSnapshot, proposal: Mapping[str, Any], buyer: int) -> str:
    """A carried-out deal: who sold what to whom, at what price (RULES.md §4, R8)."""
    return _between(
        snap,
        int(proposal["seller"]),
        buyer,
        _("[b]You[/b] sold {goods} to {buyer} for {price} (R8)."),
        _("{seller} sold [b]you[/b] {goods} for {price} (R8)."),
        _("{seller} sold {goods} to {buyer} for {price} (R8)."),
        proposal,
    )


def _between(
    snap: TableSnapshot,
    seller: int,
    buyer: int,
    as_seller: str,
    as_buyer: str,
    neither: str,
    proposal: Mapping[str, Any],
) -> str:
    """The sentence about a deal between ``seller`` and ``buyer`` for this client: the one
    where it is the seller, the buyer, or neither (all translated already), with the
    names (``{seller}``, ``{buyer}``), ``{goods}`` and ``{price}`` put in."""
    text = as_seller if seller == snap.me else as_buyer if buyer == snap.me else neither
    return text.format(
        seller=who(snap, seller),
        buyer=who(snap, buyer),
        goods=goods(proposal),
        price=price(proposal),
    )


# --- the log -------------------------------------------------------------------------


def won_text(snap: TableSnapshot, winners: list[int]) -> str:
    """Who won, as a clause: ``"you won"``, ``"Ana and Bot 2 won"``, ``"nobody won"``."""
    others = [escape(snap.name(w)) for w in winners if w != snap.me]
    if snap.me is not None and snap.me in winners:
        if not others:
            return _("you won")
        return ngettext("you and {names} won", "you and {names} won", len(others)).format(
            names=and_list(others)
        )
    if not others:
        return _("nobody won")
    return ngettext("{names} won", "{names} won", len(others)).format(names=and_list(others))


def _inspected(snap: TableSnapshot, fined: Mapping[str, Any]) -> str:
    """What the inspector did to one seat: rotten fish thrown away, maybe a fine (§5)."""
    seat = int(fined["seat"])
    fish = ngettext("{n} pourri fish", "{n} pourri fish", int(fined["fish"])).format(
        n=int(fined["fish"])
    )
    if fined.get("paid"):
        paid = coins(int(fined["paid"]))
        return person(
            snap,
            seat,
            _("[b]You[/b] threw away {fish} and paid {coins}"),
            _("{name} threw away {fish} and paid {coins}"),
            fish=fish,
            coins=paid,
        )
    return person(
        snap, seat, _("[b]You[/b] threw away {fish}"), _("{name} threw away {fish}"), fish=fish
    )


def event_text(snap: TableSnapshot, event: Event) -> str | None:
    """One public event as a past-tense sentence, or ``None`` for events not worth a line.

    The log keeps codes and parameters (the event), so each viewer reads it in
    the language chosen now (a replay too).

    Args:
        snap: for player names.
        event: a log event (see ``engine._log`` calls for every type).
    """
    t = event.get("t")
    seat = int(event.get("seat", -1))
    if event.get("by") == "table":
        done = table_move_text(snap, event)
        if done is not None:
            return done
    if t == "setup":
        n, first = int(event["players"]), int(event["first"])
        if first == snap.me:
            text = ngettext(
                "New game for {n} player; [b]you[/b] play first (R4).",
                "New game for {n} players; [b]you[/b] play first (R4).",
                n,
            )
        else:
            text = ngettext(
                "New game for {n} player; {name} plays first (R4).",
                "New game for {n} players; {name} plays first (R4).",
                n,
            )
        return text.format(n=n, name=who(snap, first))
    if t == "inspector_setup":
        return _("An inspector turned up while the queue was laid out: set aside (§2).")
    if t == "turn":
        turn = event.get("turn", "?")
        line = person(snap, seat, _("Turn {turn}: You"), _("Turn {turn}: {name}"), turn=turn)
        return f"[reverse] {line} [/reverse]"
    if t == "draw":
        counts = ", ".join(f"{escape(snap.who(int(s)))} {n}" for s, n in event["counts"])
        return _("Cards drawn (§3.1): {counts}.").format(counts=counts)
    if t == "last_turn":
        return "[b]" + _("The fish deck is empty: this is the last turn (R13).") + "[/b]"
    if t == "reveal":
        return _("Everyone is ready: crates revealed (R15).")
    if t == "reshuffle":
        return _("The client discard pile was shuffled into a new client deck (R7).")
    if t == "drop":
        return _("{client} got tired of waiting and left the queue (§3.3).").format(
            client=event["client"]
        )
    if t == "call":
        return _("{client} joined the queue.").format(client=client_summary(str(event["client"])))
    if t == "inspector":
        fined = [_inspected(snap, f) for f in event.get("fined", [])]
        detail = "; ".join(fined) if fined else _("nobody had rotten fish")
        return _("{alert} {detail} (§5).").format(alert=chip("P", _("Inspector!")), detail=detail)
    if t == "bought_to_hand":
        n = int(event["count"])
        return person(
            snap,
            seat,
            ngettext(
                "[b]You[/b] took {n} unused bought fish into your hand (R9).",
                "[b]You[/b] took {n} unused bought fish into your hand (R9).",
                n,
            ),
            ngettext(
                "{name} took {n} unused bought fish into their hand (R9).",
                "{name} took {n} unused bought fish into their hand (R9).",
                n,
            ),
            n=n,
        )
    if t == "end_turn":
        return person(snap, seat, _("[b]You[/b] ended the turn."), _("{name} ended the turn."))
    if t == "game_over":
        winners = [int(w) for w in event.get("winners", [])]
        return "[b]" + _("Game over: {result}.").format(result=won_text(snap, winners)) + "[/b]"
    if t == "ready":
        return person(snap, seat, _("[b]You[/b] declared ready."), _("{name} declared ready."))
    if t == "unready":
        return person(
            snap, seat, _("[b]You[/b] took back your ready."), _("{name} took back their ready.")
        )
    if t == "buy_crate":
        return person(
            snap,
            seat,
            _("[b]You[/b] bought crate {crate} for {price} (§7)."),
            _("{name} bought crate {crate} for {price} (§7)."),
            crate=event["crates"],
            price=coins(int(event["price"])),
        )
    if t == "serve":
        parts = [chips(str(event["fish"]))] if event.get("fish") else []
        if event.get("glacons"):
            parts.append(glacons(int(event["glacons"])))
        for code in str(event.get("arrivages") or ""):
            parts.append(_("arrivage as {fish}").format(fish=chip(code)))
        used = " + ".join(parts)
        return person(
            snap,
            seat,
            _("[b]You[/b] served {client} with {used}: +{coins}, +{stamps}."),
            _("{name} served {client} with {used}: +{coins}, +{stamps}."),
            client=event["client"],
            used=used,
            coins=coins(int(event["coins"])),
            stamps=stamps(int(event["stamps"])),
        )
    if t == "propose":
        p = event["proposal"]
        text = proposal_text(snap, p, _buyer(snap, event))
        if event.get("counter") is not None:
            return _("Counter-offer #{id}: {proposal}.").format(id=p["id"], proposal=text)
        return _("Offer #{id}: {proposal}.").format(id=p["id"], proposal=text)
    if t == "deal":
        p = event["proposal"]
        head = "[b]" + _("Deal #{id}!").format(id=p["id"]) + "[/b]"
        return f"{head} {deal_text(snap, p, _buyer(snap, event))}"
    if t == "lapse":
        return _("Offer #{id} lapsed: it can no longer be carried out (§4).").format(
            id=event["proposal"]
        )
    if t == "decline" and event.get("reason"):
        return decline_text(snap, event)  # with its reason and counter-price (§4)
    if t == "decline":
        return person(
            snap,
            seat,
            _("[b]You[/b] declined offer #{id}."),
            _("{name} declined offer #{id}."),
            id=event["proposal"],
        )
    if t == "withdraw":
        return person(
            snap,
            seat,
            _("[b]You[/b] withdrew offer #{id}."),
            _("{name} withdrew offer #{id}."),
            id=event["proposal"],
        )
    return None


def table_move_text(snap: TableSnapshot, event: Event) -> str | None:
    """What the table did itself for a seat (an event with ``"by": "table"``: its
    player was away past the grace, or out of time, RULES.md R6 and R20), naming
    the table, never the player; ``None`` for an event without such a sentence.
    """
    seat = int(event.get("seat", -1))
    why = _("away") if event.get("why") == "away" else _("out of time")
    t = event.get("t")
    if t == "ready":
        return person(
            snap,
            seat,
            _("The table declared [b]you[/b] ready ({why}, R6)."),
            _("The table declared {name} ready ({why}, R6)."),
            why=why,
        )
    if t == "decline":
        return person(
            snap,
            seat,
            _("The table declined offer #{id} for [b]you[/b] ({why}, R20)."),
            _("The table declined offer #{id} for {name} ({why}, R20)."),
            id=event.get("proposal", "?"),
            why=why,
        )
    if t == "end_turn":
        return person(
            snap,
            seat,
            _("The table ended your turn ({why}, R20)."),
            _("The table ended the turn for {name} ({why}, R20)."),
            why=why,
        )
    if t == "withdraw":
        return person(
            snap,
            seat,
            _("[b]Your[/b] offer #{id} was not answered in time: the table withdrew it (R25)."),
            _("Offer #{id} by {name} was not answered in time: the table withdrew it (R25)."),
            id=event.get("proposal", "?"),
        )
    if t == "bought_to_hand":
        count = int(event.get("count", 0))
        return person(
            snap,
            seat,
            ngettext(
                "The table put {n} unused bought fish into [b]your[/b] hand (R9).",
                "The table put {n} unused bought fish into [b]your[/b] hand (R9).",
                count,
            ),
            ngettext(
                "The table put {n} unused bought fish into the hand of {name} (R9).",
                "The table put {n} unused bought fish into the hand of {name} (R9).",
                count,
            ),
            n=count,
        )
    return None


def _buyer(snap: TableSnapshot, event: Event) -> int:
    """The buyer of a logged proposal or deal: what the event records (view.py adds
    ``"buyer"``); the active seat only for events from before it did."""
    buyer = event.get("buyer")
    return snap.active if buyer is None else int(buyer)


# --- the status line ---------------------------------------------------------------------


def names_list(snap: TableSnapshot, seats: list[int]) -> str:
    """``"you, Bot 1 and Bot 2"``: the seats, with this client's own seat first as "you"."""
    ordered = sorted(seats, key=lambda s: (s != snap.me, s))
    return and_list([_("you") if s == snap.me else escape(snap.name(s)) for s in ordered])


def status_text(
    snap: TableSnapshot | None, prompt: str | None = None, offer: int | None = None
) -> str:
    """What the game waits for now, and from whom. Always a full sentence.

    Args:
        snap: the table, or ``None`` before the first view.
        prompt: a pending two-key command (e.g. "Take back which crate?"), shown first.
        offer: the id of the offer made to this player that ``a``/``x``/``c`` act on
            (the highlighted one); by default the newest.
    """
    if prompt:
        return f"[b]{prompt}[/b]  " + _("(Esc cancels)")
    if snap is None:
        return _("Waiting for the game to start…")
    waiting = snap.waiting_on
    if snap.over:
        winners = [int(w) for w in (snap.view.get("result") or {}).get("winners", [])]
        return _("[b]Game over[/b]: {result}. Press Enter for the results.").format(
            result=won_text(snap, winners)
        )
    if snap.phase == "fill":
        if snap.me is not None and snap.me in waiting:
            # Count the others rather than name them: the line must fit, and the stalls
            # pane shows who is ready.
            n = len(waiting) - 1
            if not n:
                return _(
                    "[b]Fill step[/b]: place fish in your crates (↑↓ pick a freshness, "
                    "←→ how many, 1–6 crate), then press [b]r[/b] — waiting for you"
                )
            return ngettext(
                "[b]Fill step[/b]: place fish in your crates (↑↓ pick a freshness, "
                "←→ how many, 1–6 crate), then press [b]r[/b] — waiting for you and "
                "{n} other player",
                "[b]Fill step[/b]: place fish in your crates (↑↓ pick a freshness, "
                "←→ how many, 1–6 crate), then press [b]r[/b] — waiting for you and "
                "{n} other players",
                n,
            ).format(n=n)
        names = names_list(snap, waiting)
        if snap.me is not None:
            return _(
                "You are ready. Fill step: waiting for {names} (r to change your mind)…"
            ).format(names=names)
        return _("Fill step: waiting for {names}…").format(names=names)
    # Serve step (§3.4, §4).
    answer = snap.offers_for_me()
    if answer:
        p = next((p for p in answer if int(p["id"]) == offer), answer[-1])
        terms = {"id": p["id"], "proposal": proposal_text(snap, p)}
        if len(answer) == 1:
            return _(
                "[b]Offer #{id} awaits your answer[/b]: {proposal} — "
                "[b]a[/b] accept, [b]x[/b] decline, [b]c[/b] counter"
            ).format(**terms)
        more = len(answer) - 1
        return ngettext(
            "[b]Offer #{id} awaits your answer[/b]: {proposal} — [b]a[/b] accept, "
            "[b]x[/b] decline, [b]c[/b] counter ({n} more for you: Tab, then ↑↓ in Offers)",
            "[b]Offer #{id} awaits your answer[/b]: {proposal} — [b]a[/b] accept, "
            "[b]x[/b] decline, [b]c[/b] counter ({n} more for you: Tab, then ↑↓ in Offers)",
            more,
        ).format(n=more, **terms)
    if snap.my_turn:
        pending = [p for p in snap.proposals if int(p["proposer"]) == snap.me]
        if pending:
            return _(
                "[b]Your turn[/b]: serve a client ([b]s[/b]), make a deal ([b]d[/b]) "
                "or end your turn ([b]e[/b]) — waiting for {names} to answer"
            ).format(names=names_list(snap, [snap.answerer(p) for p in pending]))
        return _(
            "[b]Your turn[/b]: serve a client ([b]s[/b]), make a deal ([b]d[/b]) "
            "or end your turn ([b]e[/b])"
        )
    active = escape(snap.name(snap.active))
    others = [s for s in waiting if s != snap.active and s != snap.me]
    if others:
        line = _("[b]{active}[/b] is serving; waiting for {names} to answer an offer…").format(
            active=active, names=names_list(snap, others)
        )
    else:
        line = _("[b]{active}[/b] is serving…").format(active=active)
    if snap.me is None:
        return line
    return line + " " + _("You may offer them fish from your crates ([b]d[/b]).")


# --- the result (RULES.md §8) --------------------------------------------------------------

STEP_NAMES: Final[Mapping[str, str]] = {
    "two_player": N_("2-player rule"),
    "fallback": N_("2-player fallback (R14)"),
    "fewest_coins": N_("1. fewest coins"),
    "fewest_clients": N_("3. fewest clients"),
    "most_stamps": N_("4. most stamps"),
}
"""The scorer's step codes (``rules/scoring.py`` ``STEP_NAMES``) -> the catalogue's message
for each."""

TALLIES: Final[Mapping[str, str]] = {
    "coins": N_("coins"),
    "clients": N_("clients"),
    "stamps": N_("stamps"),
}
"""The scorer's tally names -> their messages (plural nouns: "the most {what}")."""

REASONS: Final[Mapping[str, str]] = {
    "fewest": N_("fewest {what} ({n})"),
    "fewest_then": N_("tied on fewest {what} ({n}) with {names}; fewest {then} ({m})"),
    "all_tied": N_("{names} tied on fewest {what} ({n}) and {then} ({m}): nobody eliminated"),
    "leads": N_("{names} leads in {n} of coins, clients, stamps"),
    "no_lead": N_("nobody leads in 2 of coins, clients, stamps"),
    "most": N_("{names} has the most {what} ({n})"),
    "shared": N_("tied on stamps, clients and coins: shared victory"),
}
"""Each reason code of the scorer (:class:`~poissonnier_tui.games.poissonnier.rules.scoring.Reason`)
-> its message; the placeholders are the reason's parameters, ``{names}`` its seats."""


def step_name(step: Step) -> str:
    """A result step's name in the current language (RULES.md §8)."""
    return _(STEP_NAMES[step.code]) if step.code in STEP_NAMES else escape(step.code)


def step_reason(snap: TableSnapshot, reason: Reason) -> str:
    """A result step's reason in the current language (escaped markup), with player names
    (third person: the sentences are the scorer's) for its seat numbers (RULES.md §8)."""
    message = REASONS.get(reason.code)
    if message is None:
        return escape(reason.code)

    def tally(name: str) -> str:
        return _(TALLIES[name]) if name in TALLIES else escape(name)

    return _(message).format(
        names=and_list([escape(snap.name(seat)) for seat in reason.seats]),
        what=tally(reason.what),
        then=tally(reason.then),
        n=reason.n,
        m=reason.m,
    )
