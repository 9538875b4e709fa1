"""``parse_pieces`` (widgets/redraw.py): markup cut in whole pieces, each parsed once and
kept, draws exactly what the same markup parsed in one go draws — the hand's chips
(with their ``@click`` actions) included."""

from __future__ import annotations

from pilot import until
from tablekit import TableApp, midgame
from textual.content import Content
from textual.style import Style

from poissonnier_tui.games.poissonnier.ui.widgets.hand import HandView
from poissonnier_tui.games.poissonnier.ui.widgets.redraw import CUT, _piece, parse_pieces


def cells(content: Content) -> list[tuple[str, Style | None, object]]:
    """Each character with its style and its click action."""
    out: list[tuple[str, Style | None, object]] = []
    for segment in content.render_segments():
        style = segment.style
        meta = style.meta if style is not None else None
        out += [(char, style, meta) for char in segment.text]
    return out


def test_pieces_parse_as_the_whole() -> None:
    text = (
        f"[b]▶[/b]{CUT} [b #ffd000]Frais [/] {CUT}[#000 on #a6d63a @click=pick('F',1)] F [/]"
        f"{CUT} {CUT}[dim]none selected[/]\n{CUT}plain [b]end[/b]"
    )
    whole = Content.from_markup(text.replace(CUT, ""))
    assert parse_pieces(text).plain == whole.plain
    assert cells(parse_pieces(text)) == cells(whole)
    assert any(meta for _char, _style, meta in cells(whole))  # the click came through


async def test_the_hand_draws_the_same_and_parses_a_chip_once() -> None:
    app = TableApp(midgame())
    async with app.run_test(size=(160, 50)) as pilot:
        await until(pilot, lambda: app.table.snapshot is not None)
        hand = app.table.query_one(HandView)
        markup = hand.markup()
        assert CUT in markup
        assert cells(hand.render()) == cells(Content.from_markup(markup.replace(CUT, "")))
        _piece.cache_clear()
        parse_pieces(markup)
        first = _piece.cache_info()
        parse_pieces(markup)
        again = _piece.cache_info()
        assert first.misses > 0 and again.misses == first.misses  # nothing parsed twice
