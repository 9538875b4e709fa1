"""Joining a LAN table without the TUI: find it, reclaim a saved seat, play or watch headless.

``poissonnier join --headless`` and ``poissonnier spectate --headless`` run
:func:`join_headless`: find the table (by address, or through zeroconf),
present the seat token saved for it (:mod:`poissonnier_tui.hosting.tokens`), then
let a bot play the seat in the client (:func:`poissonnier_tui.client.headless.play_seat`)
or just watch, printing plain lines and the final result as JSON. Used by
the multi-process tests and by anyone who wants a bot at a friend's table.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from net.client import JoinError, TableClient
from net.dial import Dialled, dial
from net.discovery import Browser, TableAd, sort_key
from net.frames import ConnectionLost
from net.messages import Ack, Bye, Role, ServerMessage, View
from net.reconnect import (
    GIVE_UP_AFTER,
    Attempt,
    GaveUp,
    TableTarget,
    known_hosts,
    reconnect_table,
)
from poissonnier_tui import __version__
from poissonnier_tui.games import GameEntry, game_entry, game_names
from poissonnier_tui.hosting.lan import format_address, incompatibility, parse_address
from poissonnier_tui.hosting.tokens import TokenStore
from poissonnier_tui.i18n import _, decimal, ngettext
from poissonnier_tui.refusals import refusal_or_message

FIND_TIMEOUT = 5.0
"""Seconds to look for a table on the LAN before giving up."""


@dataclass(frozen=True)
class Target:
    """Where to join: an address, and the table's name when known (keys saved tokens).

    ``hosts``: every address to try (an advert's ``addresses``), ``host`` first.
    """

    host: str
    port: int
    table: str | None = None
    hosts: tuple[str, ...] = ()
    game: str | None = None
    """The game the table advertised (its TXT ``game``), when found on the LAN."""

    @property
    def address(self) -> str:
        """``host:port``."""
        return format_address(self.host, self.port)


async def connect_table(
    hosts: Sequence[str],
    port: int,
    *,
    name: str,
    role: Role = "player",
    token: str | None = None,
    code: str | None = None,
    game: str | None = None,
) -> tuple[Dialled, GameEntry]:
    """Join the table at ``port`` on whichever of ``hosts`` answers first
    (:func:`net.dial.dial`), whichever registered game it plays.

    ``hello`` names a game and a table refuses another one (``wrong_game``)
    before it seats anyone; so the games of the registry are offered in turn,
    ``game`` first (the TXT record's ``game`` when the table was found on the
    LAN), until the table accepts one.

    Returns:
        ``(dialled, entry)``: the joined client with the address that worked, and
        the game played there.

    Raises:
        JoinError: refused (version, code, full...) or unreachable; ``wrong_game``
            when the table plays a game this app does not have.
    """
    names = [game] if game is not None else []
    names += [n for n in game_names() if n not in names]
    refused: JoinError | None = None
    for candidate in names:
        try:
            dialled = await dial(
                hosts, port, name=name, role=role, token=token, code=code,
                app_version=__version__, game=candidate,
            )  # fmt: skip
        except JoinError as exc:
            if exc.code != "wrong_game":
                raise
            refused = exc
            continue
        return dialled, game_entry(candidate)
    said = (
        refusal_or_message(refused.params, refused.message)
        if refused
        else _("The table plays another game.")
    )
    raise JoinError(
        "wrong_game",
        said + " " + _("This app plays {games}.").format(games=", ".join(game_names())),
    )


def advice(code: str, address: str, spectators: bool = True) -> str:
    """What a person can do about a refused join (``""`` when there is nothing to add)."""
    if code in ("already_started", "table_full") and spectators:
        return _("To watch instead: poissonnier spectate {address}").format(address=address)
    if code == "bad_code":
        return _("Ask the host for the code, then: poissonnier join {address} --code CODE").format(
            address=address
        )
    if code == "version_mismatch":
        return _("Install the host's version (or ask the host to install yours).")
    if code in ("unreachable", "timeout", "closed"):
        return _("Is the table still running? See what is around with: poissonnier tables")
    return ""


async def find_table(
    *,
    table: str | None,
    interface: str | None,
    timeout: float = FIND_TIMEOUT,
    role: Role = "player",
    say: Callable[[str], None] | None = None,
    ours: Callable[[TableAd], bool] | None = None,
) -> TableAd:
    """Browse the LAN until a table this app can join shows up.

    Args:
        table: only a table with this name; ``None``: the first compatible one
            (a lobby, or a table where ``ours`` says we hold a seat, for a
            player; any state for a spectator).
        interface: IPv4 address to browse on, or ``None`` for all.
        timeout: seconds to look.
        role: ``"player"`` or ``"spectator"``.
        say: progress sentences.
        ours: whether we hold a seat at this table (a saved token), so a
            player finds it again once its game has started.

    Raises:
        JoinError: ``not_found`` (nothing suitable in time; the message lists
            incompatible tables seen, naming their versions).
        OSError: no usable interface.
    """
    found = asyncio.Event()

    def suitable(ad: TableAd) -> bool:
        if table is not None and ad.name != table:
            return False
        if incompatibility(ad) is not None:
            return False
        if role == "spectator" or table is not None or ad.state == "lobby":
            return True
        return ours is not None and ours(ad)

    def changed(_name: str, ad: TableAd | None) -> None:
        if ad is not None and suitable(ad):
            found.set()

    browsers = [Browser(game, changed, interface) for game in game_names()]
    if say is not None:
        say(
            _("Looking for table {name} on the LAN…").format(name=repr(table))
            if table
            else _("Looking for tables on the LAN…")
        )
    try:
        for browser in browsers:
            await browser.start()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(found.wait(), timeout)
        ads = sort_key([ad for browser in browsers for ad in browser.tables.values()])
    finally:
        for browser in browsers:
            await browser.close()
    for ad in ads:
        if suitable(ad):
            return ad
    others = [f"{ad.name!r} ({why})" for ad in ads if (why := incompatibility(ad))]
    found_none = (
        _("Found no table named {name} on the LAN in {timeout} s.")
        if table
        else _("Found no table to join on the LAN in {timeout} s.")
    ).format(name=repr(table), timeout=decimal(timeout))
    detail = " " + _("Seen but not joinable: {tables}.").format(tables="; ".join(others))
    raise JoinError("not_found", found_none + (detail if others else ""))


class Recorder:
    """Appends every ``view`` frame to a JSON-lines file: ``{"rev": int, "view": map}``;
    and this seat's moves to :func:`moves_path` of it: ``{"sent": action, "seq": int,
    "conn": int}`` when sent, ``{"ack": int, "conn": int}`` when the table accepted one
    (``conn`` counts connections from 0: a reconnect starts a new one, whose ``seq``
    start again).

    Flushed line by line, so a client killed mid-game leaves whole lines
    (tests read these to check what crossed the wire and who made which move).
    """

    def __init__(self, path: Path) -> None:
        self._out: IO[str] = path.open("a", encoding="utf-8")
        self._moves: IO[str] = moves_path(path).open("a", encoding="utf-8")
        self.conn = 0
        """The connection being recorded, from 0."""

    @staticmethod
    def _write(out: IO[str], record: dict[str, Any]) -> None:
        out.write(json.dumps(record) + "\n")
        out.flush()

    def __call__(self, msg: ServerMessage) -> None:
        """Record ``msg`` if it is a view or an ack."""
        if isinstance(msg, View):
            self._write(self._out, {"rev": msg.rev, "view": msg.view})
        elif isinstance(msg, Ack):
            self._write(self._moves, {"ack": msg.seq, "conn": self.conn})

    def sent(self, seq: int, action: dict[str, Any]) -> None:
        """Record a move this seat sent."""
        self._write(self._moves, {"sent": action, "seq": seq, "conn": self.conn})

    def close(self) -> None:
        """Close the files."""
        self._out.close()
        self._moves.close()


def moves_path(record: Path) -> Path:
    """Where :class:`Recorder` writes a seat's moves beside ``record``:
    ``ana.jsonl`` -> ``ana.moves.jsonl``."""
    return record.with_name(record.stem + ".moves.jsonl")


async def join_headless(
    address: str | None,
    *,
    name: str,
    role: Role = "player",
    code: str | None = None,
    table: str | None = None,
    interface: str | None = None,
    bot: str | None = None,
    seed: int = 0,
    tokens: TokenStore | None = None,
    record: Path | None = None,
    find_timeout: float = FIND_TIMEOUT,
    reconnect_for: float = GIVE_UP_AFTER,
    out: Callable[[str], None] = print,
    err: Callable[[str], None] = print,
) -> int:
    """Join a table with no UI: a bot plays the seat (or we watch) until the game ends.

    Prints ``Joined …``, ``Result: <json>`` at the end, and errors with advice
    to ``err``. The seat's token is saved in ``tokens`` on joining (so a
    restart reclaims the seat) and forgotten once the game is over.

    Args:
        address: ``HOST:PORT``, or ``None`` to find the table with zeroconf.
        name: display name.
        role: ``"player"`` or ``"spectator"``.
        code: the table's join code.
        table: with no address, join the table with this name.
        interface: IPv4 address to browse on.
        bot: the level of the bot that plays the seat, one of the table's game's
            ``bot_kinds`` (``None``: the game's default level).
        seed: seeds the bot.
        tokens: where seat tokens are kept; ``None`` keeps none.
        record: append every view frame to this JSON-lines file.
        find_timeout: seconds to look for the table.
        reconnect_for: when the table vanishes without a goodbye (a crash, the
            network), seconds to keep trying to rejoin with the seat's token
            (:mod:`net.reconnect`; 0: give up at once). A goodbye is final.
        out / err: where lines go.

    Returns:
        0 when the game ended and the result was printed; 1 when the table
        could not be joined or was lost before the end (and did not come back),
        or ``bot`` is not a level of its game; 2 on a bad address.
    """
    from poissonnier_tui.client.headless import play_seat

    try:
        if address is not None:
            host, port = parse_address(address)
            target = Target(host, port, table)
        else:

            def ours(ad: TableAd) -> bool:
                address = format_address(ad.address, ad.port)
                return tokens is not None and tokens.find(address, ad.name, name) is not None

            ad = await find_table(
                table=table, interface=interface, timeout=find_timeout, role=role, say=out,
                ours=ours,
            )  # fmt: skip
            target = Target(ad.address, ad.port, ad.name, ad.addresses, ad.game)
            out(
                _("Found table {name} at {address} ({taken}/{seats}, {state}).").format(
                    name=repr(ad.name), address=target.address, taken=ad.taken, seats=ad.seats,
                    state=ad.state,
                )
            )  # fmt: skip
    except ValueError as exc:
        err(f"poissonnier: {exc}")
        return 2
    except JoinError as exc:
        err(f"poissonnier: {refusal_or_message(exc.params, exc.message)}")
        return 1
    saved = tokens.find(target.address, target.table, name) if tokens and role == "player" else None
    started = time.monotonic()
    try:
        dialled, entry = await connect_table(
            target.hosts or (target.host,),
            target.port,
            name=name,
            role=role,
            token=saved.token if saved else None,
            code=code,
            game=target.game,
        )
    except JoinError as exc:
        why = refusal_or_message(exc.params, exc.message)
        err(
            "poissonnier: "
            + _("could not join {address}: {why}").format(address=target.address, why=why)
        )
        if tip := advice(exc.code, target.address):
            err(tip)
        return 1
    client = dialled.client
    address_text = dialled.address  # the address that worked: keys the saved token
    level = bot or entry.default_level
    if client.seat is not None and level not in entry.bot_kinds:
        await client.close()
        err(
            "poissonnier: "
            + _("{game} has no bot level {level}; choose from {levels}").format(
                game=entry.title, level=repr(level), levels=", ".join(entry.bot_kinds)
            )
        )
        return 1
    if tokens is not None and client.token is not None and client.seat is not None:
        tokens.save(address_text, client.table.name, client.seat, client.token, name)
    if client.seat is None:
        joined = _("Joined {table} ({game}) at {address} as a spectator in {seconds} s.")
    elif saved and client.token == saved.token:
        joined = _(
            "Joined {table} ({game}) at {address} in seat {n} (seat reclaimed) in {seconds} s."
        )
    else:
        joined = _("Joined {table} ({game}) at {address} in seat {n} in {seconds} s.")
    out(
        joined.format(
            table=repr(client.table.name), game=entry.title, address=address_text,
            n=(client.seat or 0) + 1, seconds=decimal(time.monotonic() - started, 3),
        )
    )  # fmt: skip
    recorder = Recorder(record) if record else None
    agent = entry.seated_bot(level, seed) if client.seat is not None else None
    result: dict[str, Any] | None = None
    try:
        while True:
            try:
                if agent is not None:
                    result = await play_seat(
                        client, agent, observe=recorder, game=entry,
                        on_send=recorder.sent if recorder is not None else None,
                    )  # fmt: skip
                else:
                    result = await _watch(client, recorder)
            except ConnectionLost:  # the table went away while we were sending a move
                result = None
            said_bye = client.bye_reason is not None
            reason = client.lost_reason
            if reason is not None:  # in the player's language (a goodbye names its reason)
                reason = refusal_or_message(client.lost_params, reason)
            await client.close()
            if result is not None or said_bye or reconnect_for <= 0:
                break  # over, or the table said goodbye: nothing to come back to
            back = await _come_back(
                client, dialled, target, entry, name=name, role=role, code=code,
                interface=interface, reconnect_for=reconnect_for, seed=seed, reason=reason,
                out=out,
            )  # fmt: skip
            if back is None:
                break
            dialled, client = back, back.client
            if recorder is not None:
                recorder.conn += 1
            if tokens is not None and client.token is not None and client.seat is not None:
                tokens.forget(address_text, name)  # the seat now lives where we got back to
                address_text = dialled.address
                tokens.save(address_text, client.table.name, client.seat, client.token, name)
    finally:
        if recorder is not None:
            recorder.close()
    if result is None:
        why = reason or _("connection closed")
        err("poissonnier: " + _("lost the table before the end: {why}").format(why=why))
        return 1
    if tokens is not None and client.seat is not None:
        tokens.forget(address_text, name)
    out(_("Result: {json}").format(json=json.dumps(result, sort_keys=True)))
    return 0


def attempt_text(attempt: Attempt) -> str:
    """The line printed for a reconnect attempt, in the player's language, e.g.
    ``"Host lost — reconnecting… (attempt 3 failed, next in 2.1 s)"``
    (:func:`net.reconnect.describe` says the same in English)."""
    if attempt.state == "trying":
        return _("Host lost — reconnecting… (attempt {n})").format(n=attempt.number)
    if attempt.state == "waiting":
        return _("Host lost — reconnecting… (attempt {n} failed, next in {s} s)").format(
            n=attempt.number, s=decimal(attempt.next_in or 0, 1)
        )
    if attempt.state == "back":
        return _("Reconnected after {s} s (attempt {n}).").format(
            s=decimal(attempt.elapsed, 2), n=attempt.number
        )
    return ngettext(
        "Gave up reconnecting after {n} attempt: {why}",
        "Gave up reconnecting after {n} attempts: {why}",
        attempt.number,
    ).format(n=attempt.number, why=attempt.error)


async def _come_back(
    lost: TableClient,
    dialled: Dialled,
    target: Target,
    entry: GameEntry,
    *,
    name: str,
    role: Role,
    code: str | None,
    interface: str | None,
    reconnect_for: float,
    seed: int,
    reason: str | None,
    out: Callable[[str], None],
) -> Dialled | None:
    """The table vanished without a goodbye (a crash, the network): rejoin with the seat's
    token until it is back (:func:`net.reconnect.reconnect_table`), printing each attempt;
    ``None`` if it does not come back in ``reconnect_for`` seconds."""
    out(_("Lost the table: {why}").format(why=reason or _("connection closed")))
    browser: Browser | None = None
    if target.table is not None:  # found by name on the LAN: look for it there again
        browser = Browser(entry.name, None, interface)
        try:
            await browser.start()
        except OSError:
            browser = None
    started = time.monotonic()
    try:
        back = await reconnect_table(
            TableTarget(known_hosts((dialled.host,), target.hosts), dialled.port, target.table),
            name=name, app_version=__version__, game=entry.name, role=role, token=lost.token,
            code=code, browser=browser, on_attempt=lambda a: out(attempt_text(a)),
            rng=random.Random(seed), give_up_after=reconnect_for,
        )  # fmt: skip
    except GaveUp as exc:
        cause = exc.__cause__
        why = (
            refusal_or_message(cause.params, cause.message)
            if isinstance(cause, JoinError)
            else exc.message
        )
        out(_("The table did not come back: {why}").format(why=why))
        return None
    finally:
        if browser is not None:
            await browser.close()
    back_at = (
        _("Back at {address} as a spectator after {seconds} s.")
        if back.client.seat is None
        else _("Back at {address} in seat {n} after {seconds} s.")
    )
    out(
        back_at.format(
            address=back.address, n=(back.client.seat or 0) + 1,
            seconds=decimal(time.monotonic() - started, 2),
        )
    )  # fmt: skip
    return back


async def _watch(
    client: TableClient, observe: Callable[[ServerMessage], None] | None
) -> dict[str, Any] | None:
    """Read a spectator's frames until a view carries the result."""
    async for msg in client.messages():
        if observe is not None:
            observe(msg)
        if isinstance(msg, View) and msg.view.get("result") is not None:
            return dict(msg.view["result"])
        if isinstance(msg, Bye):
            break
    return None
