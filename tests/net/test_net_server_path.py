"""The server's per-action path, cut to the work it must do: each view packed once,
the idle limit one lazily pushed deadline per connection, an action checked once,
an ack leaving with its view. Same frames, same refusals, same drops as before."""

from __future__ import annotations

import msgpack
import pytest
from test_net_server import Raw, serving

from net.frames import MAX_FRAME, FrameError, encode
from net.messages import View
from net.server import encode_view


@pytest.mark.parametrize(
    "frame",
    [
        View(0, {}),
        View(1, {"total": 3, "turn": 1}, None, ()),
        View(2**40, {"a": [1, "é", None, 1.5, {"b": True}], "c": []}, 12_345, ((1, 2), (3, 4000))),
        View(7, {"deep": [[[[{"x": -(2**63)}]]]]}, 0, ((0, 0),)),
    ],
)
def test_a_view_packed_once_makes_the_frame_encode_makes(frame: View) -> None:
    packed = msgpack.packb(frame.view, use_bin_type=True)
    assert encode_view(frame, packed) == encode(frame.to_wire())


def test_a_view_over_the_frame_cap_is_refused_as_encode_refuses_it() -> None:
    frame = View(1, {"text": "y" * MAX_FRAME})
    with pytest.raises(FrameError, match="exceeds the 65536-byte frame cap") as refused:
        encode_view(frame, msgpack.packb(frame.view, use_bin_type=True))
    with pytest.raises(FrameError) as reference:
        encode(frame.to_wire())
    assert str(refused.value) == str(reference.value)


async def test_each_recipient_gets_exactly_the_frame_of_its_own_view() -> None:
    async with serving() as server:
        seats = [Raw.open(server.port), Raw.open(server.port)]
        a, b = [await s for s in seats]
        watcher = await Raw.open(server.port)
        await a.hello("A")
        await b.hello("B")
        await watcher.hello("W", role="spectator")
        await server.start()
        await a.read_until(lambda m: m.get("type") == "view")
        await a.send({"type": "action", "seq": 1, "action": {"add": 2}})
        for raw, seat in ((a, 0), (b, 1), (watcher, None)):
            start = len(raw.received)
            msg = await raw.read_until(lambda m: m.get("type") == "view" and m["rev"] == 1)
            got = bytes(raw.received[start:])
            wanted = encode(View(1, server._table.view(seat), None, ()).to_wire())
            assert got.endswith(wanted)  # the same bytes as encoding the view on its own
            assert msg["view"] == server._table.view(seat)
