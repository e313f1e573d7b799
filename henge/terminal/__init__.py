"""Terminal drawings of each game, built only from a seat's observation dict."""
