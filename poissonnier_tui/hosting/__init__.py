"""Running tables: table servers with bots, LAN advertising, table logs, seat tokens, replays."""
