"""Everyone hears who is away, for how long, and when the table will play for them.

The ``lobby`` frame's seats carry ``away_ms`` and ``defaults_in_ms`` for a
disconnected human (public facts, the same for every recipient), sent again
whenever the seat's countdown starts or moves.
"""

from __future__ import annotations

from test_net_server import FAST, join
from test_net_toygame import CountGame

from net.messages import Lobby, SeatInfo, parse_server_message
from net.server import TableServer


def _seat(msg: object, seat: int) -> SeatInfo:
    assert isinstance(msg, Lobby)
    return msg.seats[seat]


async def test_an_absent_seat_is_shown_away_with_the_tables_countdown() -> None:
    server = TableServer(
        CountGame(), name="T", seats=2, seed=7, app_version="1.0", bot_delay=0.0,
        absent_grace=30.0, timing=FAST,
    )  # fmt: skip
    async with server:
        a, a_w = await join(server, "A")
        b, b_w = await join(server, "B")
        await server.start()
        await b_w.view()
        to_play = min(server._table.waiting_on())
        away, stays = (a, b) if to_play == 1 else (b, a)  # away: the one not to play
        gone, watch = (0, b_w) if away is a else (1, a_w)
        await away.close()
        left = await watch.until(
            lambda m: (
                isinstance(m, Lobby)
                and m.phase == "playing"
                and m.seats[gone].kind == "human"
                and not m.seats[gone].connected
            )
        )
        info = _seat(left, gone)
        assert info.away_ms is not None and 0 <= info.away_ms < 2000
        assert info.defaults_in_ms is None  # not waited on: nothing will be played for it
        assert _seat(left, 1 - gone).away_ms is None  # the connected seat is not away
        # The other seat moves: now the table waits on the absent one, 30 s of grace.
        await stays.send_action({"add": 1})
        due = await watch.until(
            lambda m: isinstance(m, Lobby) and m.seats[gone].defaults_in_ms is not None
        )
        info = _seat(due, gone)
        assert info.defaults_in_ms is not None and 28_000 < info.defaults_in_ms <= 30_000
        assert info.away_ms is not None and info.away_ms >= 0
        await stays.close()


def test_seat_info_wire_is_backwards_compatible() -> None:
    """Old frames (no away fields) still read; new fields round-trip."""
    old = {"type": "lobby", "seats": [{"name": "A", "kind": "human", "connected": True}],
           "started": True, "phase": "playing"}  # fmt: skip
    assert _seat(parse_server_message(old), 0) == SeatInfo("A", "human", True)
    new = Lobby((SeatInfo("B", "human", False, 1500, 58_000),), True, "playing").to_wire()
    assert new["seats"][0] == {
        "name": "B", "kind": "human", "connected": False, "away_ms": 1500,
        "defaults_in_ms": 58_000,
    }  # fmt: skip
    assert _seat(parse_server_message(new), 0) == SeatInfo("B", "human", False, 1500, 58_000)
