"""The live server (``xboard-engine serve``): games between people over the network, every variant
and 8 Player Chess, kept in a database.  Rooms by concern: ``store`` (the database behind one small
interface), ``tables`` (one adapter per kind of game over the rules core), ``bots`` (the worker
processes that think for bot seats), ``engines`` (outside engines at a seat), ``room`` (a game as the
hall holds it, and a page's connection), ``hall`` (games, seats, invites, clocks: the server's logic,
no network), ``talk`` (chat and arrows), ``lobby`` (challenges and lists), ``wire`` (messages in and
out: parsing, limits; the protocol), ``routes`` (HTTP pages, cookies, WebSockets; the only room that
knows aiohttp) and ``cli``."""
