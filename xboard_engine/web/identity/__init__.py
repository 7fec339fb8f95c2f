"""Who people are on the server: the players behind the pages (``people``), accounts and their
sessions (``accounts``, with ``passwords``), names and their look-alikes (``names``), and
moderation: reports, sanctions and blocks (``moderation``)."""
