"""The web app: one server for ``xboard-engine serve`` (people over the network) and ``xboard-engine
web`` (one person at this computer), every variant and 8 Player Chess, kept in a database, and its
pages (``static/``).  Rooms by concern: ``store`` (the database behind one small interface),
``tables`` (one adapter per kind of game over the rules core, on ``game`` and ``eight_game``),
``room`` (a game as the hall holds it, and a page's connection), ``hall`` (the rooms, players and
messages: the server's logic, no network), ``seating`` (new games, seats, limits), ``course``
(turns, clocks, bots' and engines' moves), ``offers`` (draw, takeback, rematch, abort), ``talk``
(chat and arrows), ``lobby`` (the lists, player pages and leaderboards), ``names`` (names people
can trust), ``ratings`` (Glicko-2 and OpenSkill: the numbers) and ``rated`` (which games count and
what they change), ``seeks`` (quick pairing), ``tournaments`` (arena, Swiss and 8 Player rounds, on
``pairing``'s rules), ``analysis`` (finished games' computer analysis and engine lines),
``bot_accounts`` (engines playing as accounts through ``xboard-engine bot``),
``wire`` (messages in and out: parsing, limits; the protocol), ``bots`` (the worker processes that
think for bot seats), ``engines`` (outside engines at a seat), ``importer`` (the owner of one
person's server and the old local board's files), ``routes`` (HTTP pages, cookies, WebSockets; the
only room that knows aiohttp), ``pictures`` and ``cli``."""
