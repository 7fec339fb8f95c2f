"""``xboard-engine bot``: any CECP (XBoard) or UCI engine plays on an ``xboard-engine serve`` server
as a bot account.

It keeps the engine connected to the server (reconnecting, 1 s to 30 s apart, when the server goes
away), accepts the challenges its owner's rules allow (variants, the range of clocks, rated or
casual games, games at once), declines the others with the reason, and plays each game on the
server's clocks with an engine process of its own (at most --max-games at once).  Draw offers and
takebacks are declined; an engine that resigns, fails or breaks the rules resigns the game.  One
line is printed per event.  Ctrl-C closes everything and resigns nothing.

The player the bot plays as is a token kept in --token-file (made at the first start; keep it:
it is the account).  A player who has played as a person cannot become a bot account, and games
between people and bots are never rated; bot accounts may play rated games with each other.
Clocks are counted as base + 40 increments, in seconds (300+3 is 420 s).  The protocol is in
docs/BOT_PROTOCOL.md."""
