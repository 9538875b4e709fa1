"""The game-agnostic Textual shell: a client that renders views and sends actions.

The app never touches a game state: everything it shows comes from the view
maps the table server sends to its seat, and every move goes back to the
server as an action wire map. Solo play is the same path:
:class:`~poissonnier_tui.shell.app.PoissonnierApp` starts an in-process table
server on 127.0.0.1 and connects to it over TCP like any other client.

Entry point::

    from poissonnier_tui.shell.app import PoissonnierApp
    from poissonnier_tui.shell.session import JoinSession, SoloSession

    PoissonnierApp(SoloSession(bots=2, seed=7, name="Ana")).run()
    PoissonnierApp(JoinSession("192.168.1.20", 7777, name="Ben")).run()
"""
