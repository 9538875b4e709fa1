"""The host screen lists this computer's addresses and marks likely container/VPN ones."""

from __future__ import annotations

import pytest
from pilot import until

from net.discovery import HostAddress
from poissonnier_tui.hosting.tables import TableSettings
from poissonnier_tui.shell import host_controls
from poissonnier_tui.shell.app import HostSession, PoissonnierApp
from poissonnier_tui.shell.host_controls import addresses_text

LAPTOP = [
    HostAddress("192.168.1.20", "wlan0", True),
    HostAddress("fd00::20", "wlan0", True),
    HostAddress("172.17.0.1", "docker0", False, "container bridge"),
    HostAddress("10.8.0.2", "tun0", False, "VPN"),
]


def test_addresses_are_listed_with_unlikely_ones_marked() -> None:
    assert addresses_text(LAPTOP) == (
        "This computer: 192.168.1.20 (wlan0) · fd00::20 (wlan0) · "
        "172.17.0.1 (docker0: container bridge, friends likely cannot reach it) · "
        "10.8.0.2 (tun0: VPN, friends likely cannot reach it)"
    )


async def test_the_host_screen_shows_every_address(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str | None] = []

    def fake(interface: str | None = None) -> list[HostAddress]:
        asked.append(interface)
        return LAPTOP

    monkeypatch.setattr(host_controls, "host_addresses", fake)
    settings = TableSettings(
        name="Home", seats=3, bots=1, bot_delay=0.0, interface="127.0.0.1", port=0,
        advertise=False, seed=8,
    )  # fmt: skip
    app = PoissonnierApp(HostSession(settings, name="Ana"))
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.seat == 0 and app.connecting_screen is not None
                    and "This computer" in app.connecting_screen.message)  # fmt: skip
        screen = app.connecting_screen
        assert screen is not None
        assert "172.17.0.1 (docker0: container bridge, friends likely cannot reach it)" in (
            screen.message
        )
        assert asked and asked[-1] == "127.0.0.1"
