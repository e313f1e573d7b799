"""Play in the browser: the lobby, live tables over WebSockets, bots, replays, on a database."""
