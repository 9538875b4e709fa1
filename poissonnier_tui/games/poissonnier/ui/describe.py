"""Words for the table: log sentences, deal terms, client cards, the status line.

Pure functions from a :class:`~poissonnier_tui.games.poissonnier.ui.snapshot.TableSnapshot`
(and an event or proposal map) to markup. They are the one place that turns
the view's codes into sentences, so that the log, the offers pane and the
status line speak the same language. The markup uses only the subset that
Textual content markup and Rich markup share (``[b]``, ``[dim]``, ``[reverse]``,
``[#fff on #000]``), because the log is a ``RichLog``. Player names come from
the lobby frame and are escaped: a name is data, never markup.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from textual.markup import escape

from poissonnier_tui.games.poissonnier.rules.cards import CLIENTS, ClientKind
from poissonnier_tui.games.poissonnier.ui.palette import NAMES, chip, chips
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.i18n import _, ngettext

Event = Mapping[str, Any]
"""A public log event from the view (``{"t": type, "turn": n, ...}``, see engine)."""


def who(snap: TableSnapshot, seat: int) -> str:
    """The bold, escaped name of ``seat`` for use in markup ("You" for this client)."""
    return f"[b]{escape(snap.who(seat))}[/b]"


def whom(snap: TableSnapshot, seat: int) -> str:
    """Like :func:`who`, for an object mid-sentence: "you" rather than "You"."""
    return f"[b]{escape('you' if seat == snap.me else snap.name(seat))}[/b]"


def verb(snap: TableSnapshot, seat: int, third_person: str) -> str:
    """Agree a present-tense verb with its subject: ``asks`` for others, ``ask`` for You."""
    # Our verbs (asks, offers) only need their final "s" dropped for "You".
    return third_person[:-1] if seat == snap.me and third_person.endswith("s") else third_person


def plural(n: int, word: str) -> str:
    """``"1 coin"``, ``"3 coins"``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# --- clients ------------------------------------------------------------------


def client_summary(client_id: str) -> str:
    """One line for a client card, e.g. ``C23 T F M · 6 coins · 3 stamps`` (RULES.md §1).

    Undecided clients read ``any 3 fish (rotten ok)`` (§5).
    """
    card = CLIENTS[client_id]
    if card.kind is ClientKind.UNDECIDED:
        order = f"any {card.size} fish (rotten ok)"
    elif card.kind is ClientKind.INSPECTOR:
        return f"{client_id} inspector"
    else:
        order = chips(card.order)
    return f"{client_id} {order} · {plural(card.coins, 'coin')} · {plural(card.stamps, 'stamp')}"


# --- deals (RULES.md §4) ----------------------------------------------------------


def goods(proposal: Mapping[str, Any]) -> str:
    """What the seller gives: fish from named crates and special cards."""
    parts = [
        f"{chips(str(code) * int(n))} from crate {int(k) + 1}" for k, n, code in proposal["fish"]
    ]
    if proposal.get("seller_glacons"):
        parts.append(plural(int(proposal["seller_glacons"]), "glaçon"))
    if proposal.get("seller_arrivages"):
        parts.append(plural(int(proposal["seller_arrivages"]), "arrivage"))
    return " + ".join(parts) if parts else "nothing"


def price(proposal: Mapping[str, Any]) -> str:
    """What the buyer (always the active player) gives: coins and special cards."""
    parts = []
    if proposal.get("coins"):
        parts.append(f"[b]{plural(int(proposal['coins']), 'coin')}[/b]")
    if proposal.get("buyer_glacons"):
        parts.append(plural(int(proposal["buyer_glacons"]), "glaçon"))
    if proposal.get("buyer_arrivages"):
        parts.append(plural(int(proposal["buyer_arrivages"]), "arrivage"))
    return " + ".join(parts) if parts else "nothing"


def proposal_text(
    snap: TableSnapshot, proposal: Mapping[str, Any], buyer: int | None = None
) -> str:
    """A proposal as a sentence: who offers what to whom, at what price (RULES.md §4).

    The buyer is the player active when it was made: ``buyer`` (a logged
    event's ``"buyer"``), or the active player now for an open proposal. The
    proposer is either side.
    """
    seller = int(proposal["seller"])
    buyer = snap.active if buyer is None else buyer
    if int(proposal["proposer"]) == seller:
        return (
            f"{who(snap, seller)} {verb(snap, seller, 'offers')} {whom(snap, buyer)} "
            f"{goods(proposal)} for {price(proposal)}"
        )
    return (
        f"{who(snap, buyer)} {verb(snap, buyer, 'asks')} {whom(snap, seller)} "
        f"for {goods(proposal)}, paying {price(proposal)}"
    )


# --- the log -------------------------------------------------------------------------


def event_text(snap: TableSnapshot, event: Event) -> str | None:
    """One public event as a past-tense sentence, or ``None`` for events not worth a line.

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
        return (
            f"New game for {event['players']} players; "
            f"{who(snap, int(event['first']))} {'play' if snap.me == event['first'] else 'plays'} "
            "first (R4)."
        )
    if t == "inspector_setup":
        return "An inspector turned up while the queue was laid out: set aside (§2)."
    if t == "turn":
        return f"[reverse] Turn {event.get('turn', '?')}: {escape(snap.who(seat))} [/reverse]"
    if t == "draw":
        counts = ", ".join(f"{escape(snap.who(int(s)))} {n}" for s, n in event["counts"])
        return f"Cards drawn (§3.1): {counts}."
    if t == "last_turn":
        return "[b]The fish deck is empty: this is the last turn (R13).[/b]"
    if t == "reveal":
        return "Everyone is ready: crates revealed (R15)."
    if t == "reshuffle":
        return "The client discard pile was shuffled into a new client deck (R7)."
    if t == "drop":
        return f"{event['client']} got tired of waiting and left the queue (§3.3)."
    if t == "call":
        return f"{client_summary(str(event['client']))} joined the queue."
    if t == "inspector":
        fined = [
            f"{who(snap, int(f['seat']))} threw away {int(f['fish'])} {NAMES['P']}"
            + (f" and paid {int(f['paid'])} coin" if f.get("paid") else "")
            for f in event.get("fined", [])
        ]
        detail = "; ".join(fined) if fined else "nobody had rotten fish"
        return f"{chip('P', 'Inspector!')} {detail} (§5)."
    if t == "bought_to_hand":
        return (
            f"{who(snap, seat)} took {plural(int(event['count']), 'unused bought fish')} "
            "into their hand (R9)."
        ).replace("fishs", "fish")
    if t == "end_turn":
        return f"{who(snap, seat)} ended the turn."
    if t == "game_over":
        winners = [escape(snap.who(int(w))) for w in event.get("winners", [])]
        return f"[b]Game over: {' and '.join(winners) or 'nobody'} won.[/b]"
    if t == "ready":
        return f"{who(snap, seat)} declared ready."
    if t == "unready":
        return f"{who(snap, seat)} took back their ready."
    if t == "buy_crate":
        return (
            f"{who(snap, seat)} bought crate {event['crates']} "
            f"for {plural(int(event['price']), 'coin')} (§7)."
        )
    if t == "serve":
        extras = []
        if event.get("glacons"):
            extras.append(plural(int(event["glacons"]), "glaçon"))
        if event.get("arrivages"):
            extras.append(f"arrivage as {chips(str(event['arrivages']))}")
        used = chips(str(event.get("fish", ""))) + (f" + {', '.join(extras)}" if extras else "")
        return (
            f"{who(snap, seat)} served {event['client']} with {used}: "
            f"+{plural(int(event['coins']), 'coin')}, +{plural(int(event['stamps']), 'stamp')}."
        )
    if t == "propose":
        p = event["proposal"]
        head = (
            f"Counter-offer #{p['id']}" if event.get("counter") is not None else f"Offer #{p['id']}"
        )
        return f"{head}: {proposal_text(snap, p, _buyer(snap, event))}."
    if t == "deal":
        p = event["proposal"]
        return (
            f"[b]Deal #{p['id']}![/b] {who(snap, int(p['seller']))} sold {goods(p)} to "
            f"{whom(snap, _buyer(snap, event))} for {price(p)} (R8)."
        )
    if t == "lapse":
        return f"Offer #{event['proposal']} lapsed: it can no longer be carried out (§4)."
    if t == "decline":
        return f"{who(snap, seat)} declined offer #{event['proposal']}."
    if t == "withdraw":
        return f"{who(snap, seat)} withdrew offer #{event['proposal']}."
    return None


def table_move_text(snap: TableSnapshot, event: Event) -> str | None:
    """What the table did itself for a seat (an event with ``"by": "table"``: its
    player was away past the grace, or out of time, RULES.md R6 and R20), naming
    the table, never the player; ``None`` for an event without such a sentence.
    """
    seat = int(event.get("seat", -1))
    name = whom(snap, seat)
    why = _("away") if event.get("why") == "away" else _("out of time")
    t = event.get("t")
    if t == "ready":
        return _("The table declared {name} ready ({why}, R6).").format(name=name, why=why)
    if t == "decline":
        return _("The table declined offer #{id} for {name} ({why}, R20).").format(
            id=event.get("proposal", "?"), name=name, why=why
        )
    if t == "end_turn":
        return _("The table ended the turn for {name} ({why}, R20).").format(name=name, why=why)
    if t == "withdraw":
        text = _("Offer #{id} by {name} was not answered in time: the table withdrew it (R25).")
        return text.format(id=event.get("proposal", "?"), name=name)
    if t == "bought_to_hand":
        count = int(event.get("count", 0))
        return ngettext(
            "The table put {n} unused bought fish into the hand of {name} (R9).",
            "The table put {n} unused bought fish into the hand of {name} (R9).",
            count,
        ).format(n=count, name=name)
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
    words = ["you" if s == snap.me else escape(snap.name(s)) for s in ordered]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


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
        return f"[b]{prompt}[/b]  (Esc cancels)"
    if snap is None:
        return "Waiting for the game to start…"
    waiting = snap.waiting_on
    if snap.over:
        winners = (snap.view.get("result") or {}).get("winners", [])
        who_won = names_list(snap, winners) or "nobody"
        return f"[b]Game over[/b]: {who_won} won. Press Enter for the results."
    if snap.phase == "fill":
        if snap.me is not None and snap.me in waiting:
            # Count the others rather than name them: the line must fit, and the stalls
            # pane shows who is ready.
            n = len(waiting) - 1
            tail = " — waiting for you" + (f" and {plural(n, 'other player')}" if n else "")
            return (
                "[b]Fill step[/b]: place fish in your crates "
                "(↑↓ pick a freshness, ←→ how many, 1–6 crate), then press [b]r[/b]" + tail
            )
        mine = "You are ready. " if snap.me is not None else ""
        undo = " (r to change your mind)" if snap.me is not None else ""
        return f"{mine}Fill step: waiting for {names_list(snap, waiting)}{undo}…"
    # Serve step (§3.4, §4).
    answer = snap.offers_for_me()
    if answer:
        p = next((p for p in answer if int(p["id"]) == offer), answer[-1])
        more = (
            f" ({len(answer) - 1} more for you: Tab, then ↑↓ in Offers)" if len(answer) > 1 else ""
        )
        return (
            f"[b]Offer #{p['id']} awaits your answer[/b]: {proposal_text(snap, p)} — "
            f"[b]a[/b] accept, [b]x[/b] decline, [b]c[/b] counter{more}"
        )
    if snap.my_turn:
        pending = [p for p in snap.proposals if int(p["proposer"]) == snap.me]
        tail = ""
        if pending:
            tail = (
                f" — waiting for {names_list(snap, [snap.answerer(p) for p in pending])} to answer"
            )
        return (
            "[b]Your turn[/b]: serve a client ([b]s[/b]), make a deal ([b]d[/b]) "
            f"or end your turn ([b]e[/b]){tail}"
        )
    active = escape(snap.name(snap.active))
    others = [s for s in waiting if s != snap.active and s != snap.me]
    tail = f"; waiting for {names_list(snap, others)} to answer an offer" if others else ""
    hint = " You may offer them fish from your crates ([b]d[/b])." if snap.me is not None else ""
    return f"[b]{active}[/b] is serving{tail}…{hint}"


# --- the result (RULES.md §8) --------------------------------------------------------------

_SEATS = re.compile(r"\bseats? (\d+(?:, \d+)*)")


def humanize(snap: TableSnapshot, why: str) -> str:
    """Put player names for the scorer's seat numbers: ``"seat 2 leads"`` -> ``"Bot 2 leads"``.

    Names, not "you": the sentences are the scorer's, in the third person.
    """

    def names(match: re.Match[str]) -> str:
        seats = [escape(snap.name(int(s))) for s in match.group(1).split(", ")]
        return seats[0] if len(seats) == 1 else ", ".join(seats[:-1]) + " and " + seats[-1]

    return _SEATS.sub(names, escape(why))
