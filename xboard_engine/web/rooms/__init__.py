"""The games being played, without the network: the hall (``hall``) routes every page's message to
the rooms, each game a ``Room`` with its course and timer, who sits where, offers, chat, the lobby's
lists, the messages' checked format (``wire``) and several ``serve --shared`` processes (``shared``)."""
