"""The browser protocol: every message of the server's three WebSockets, in both directions, with
its fields.  ``docs/WEB_PROTOCOL.md`` is written from these tables (``scripts/web_protocol.py``; a
test keeps the two equal), ``dispatch.py`` routes each page message to its handler, and the tests'
client checks every server message it receives against them.

Every message is a JSON object with a text ``type``.  A page message is checked here before its
handler sees it: its type must be one of its socket's, and each field it gives (``null`` counts as
not given) of the declared kind; the handler then checks values (ranges, names, whose turn).  Any
refusal is one ``{"type": "error", "message"}`` reply and changes nothing.  Fields not declared
are ignored."""
from typing import Any, Dict, NamedTuple, Tuple

from .wire import BadMessage

SOCKETS = {"lobby": "/ws/lobby", "game": "/ws/g/SLUG", "tournament": "/ws/t/SLUG"}

# A field's kind: the JSON values it accepts, and how a refusal names them.
KINDS: Dict[str, Tuple[Tuple[type, ...], str]] = {
    "text": ((str,), "text"),
    "integer": ((int,), "a whole number"),
    "number": ((int, float), "a number"),
    "boolean": ((bool,), "true or false"),
    "list": ((list,), "a list"),
    "object": ((dict,), "an object"),
    "any": ((object,), "anything"),
}


class Field(NamedTuple):
    name: str
    kind: str           # a key of KINDS (server fields: what the value is, not checked here)
    about: str


class Message(NamedTuple):
    type: str
    about: str
    fields: Tuple[Field, ...] = ()
    locked: bool = False      # a game page's message that changes the room: run under its lock


def _m(type_: str, about: str, *fields: Tuple[str, str, str], locked: bool = False) -> Message:
    return Message(type_, about, tuple(Field(*f) for f in fields), locked)


SEAT = ("seat", "integer", "the seat acting (a person playing several seats); default: the one to move")
NAME = _m("name", "choose a name; answered by `you`", ("name", "text", "the new name"))

# ------------------------------------------------------------------ what pages send
PAGE: Dict[str, Dict[str, Message]] = {
    "lobby": {m.type: m for m in (
        NAME,
        _m("create", "a new game (a challenge, a game with bots, an analysis board); answered by `created`",
           ("kind", "text", '"two" (a two-player variant) or "eight" (8 Player Chess); default two'),
           ("variant", "text", "two-player: the variant's name (the `hello`'s variants)"),
           ("tc", "text", 'the clock: two-player SECONDS+INCREMENT, 8 Player MINUTES+SECONDS, or "none"'),
           ("number", "integer", "two-player: the random setup's number"),
           ("fen", "text", "two-player: the start position"),
           ("pgn", "text", "two-player: a game whose moves are played before the game begins"),
           ("mode", "text", "8 Player: singles, pairs or teams"),
           ("options", "object", "8 Player: its rule options by name"),
           ("seats", "list", 'one entry per seat: {kind: "me", "open", "invite", "bot" or "account", '
                             'level, engine, name}'),
           ("rated", "boolean", "a rated game (default false)"),
           ("botsAfter", "number", "8 Player: seconds before bots take the seats still free (10-3600, 0: never)")),
        _m("cancel", "withdraw a challenge of yours", ("gameId", "text", "the challenge's game")),
        _m("seek", "look for an opponent; answered by `seeking`, then `paired` when one is found",
           ("variant", "text", "the variant"), ("tc", "text", "SECONDS+INCREMENT"),
           ("rated", "boolean", "a rated game"), ("min", "number", "the opponent's lowest rating"),
           ("max", "number", "the opponent's highest rating")),
        _m("challenges", "the open challenges filtered and paged; answered by `challenges`",
           ("variant", "text", 'a variant, or "8 Player Chess" (none: any)'),
           ("speed", "text", "bullet, blitz, rapid, classical or untimed (none: any)"),
           ("rated", "text", '"rated" or "casual" (none: both)'), ("page", "integer", "from 0")),
        _m("accept", "take a seek shown in the lobby", ("seek", "text", "the seek's id")),
        _m("unseek", "withdraw a seek of yours, or all of them", ("seek", "text", "the seek's id (none: all)")),
        _m("tournament", "a new tournament; answered by `tournamentCreated`",
           ("kind", "text", "arena, swiss or eight (8 Player Chess rounds)"),
           ("name", "text", "up to 40 characters"), ("variant", "text", "two-player: the variant"),
           ("mode", "text", "eight: singles, pairs or teams"), ("tc", "text", "the clock"),
           ("rated", "boolean", "rated games"), ("minutes", "number", "arena: how long it lasts, 1-360"),
           ("rounds", "integer", "swiss and eight: 1-20"), ("startsIn", "number", "minutes from now, 0 to a week")),
        _m("bot", "this connection plays for its player as a bot account (docs/BOT_PROTOCOL.md); "
                  "answered by `botReady`",
           ("variants", "list", "the variants it plays"), ("minTc", "number", "the shortest clock, seconds"),
           ("maxTc", "number", "the longest clock, seconds"), ("rated", "text", '"rated", "casual" or "both"'),
           ("maxGames", "integer", "games at once"), ("engine", "text", "the engine's name and version")),
        _m("decline", "a bot account says no to a challenge", ("gameId", "text", "the challenge's game"),
           ("reason", "text", "why, shown to the challenger")),
    )},
    "game": {m.type: m for m in (
        NAME,
        _m("take", "take a seat", ("seat", "integer", "the seat"),
           ("secret", "text", "an invite seat's secret (the link's #invite=)"), locked=True),
        _m("cancel", "withdraw your challenge", locked=True),
        _m("move", "play a move", ("move", "text", "the move, e.g. e2e4 (SAN too)"), SEAT, locked=True),
        _m("resign", "resign", SEAT, locked=True),
        _m("claim", "two-player: claim the game, the opponent away past the grace time; "
                    "8 Player: the 26-point claim", SEAT, locked=True),
        _m("abort", "abort the game before its first moves", locked=True),
        _m("offer", "two-player: offer a draw", locked=True),
        _m("draw", "two-player: accept the draw offered", locked=True),
        _m("takeback", "ask for a takeback, or accept the one asked", locked=True),
        _m("rematch", "ask for a rematch, or accept the one asked", locked=True),
        _m("decline", "say no to an offer", ("what", "text", "draw, takeback or rematch"), locked=True),
        _m("chat", "a chat line", ("text", "text", "1-300 characters"),
           ("channel", "text", "all (default) or team"), locked=True),
        _m("arrows", "a player's arrows, to the partner or team", ("arrows", "list", "at most 32 [from, to] pairs")),
        _m("analyse", "a finished game: ask for the computer analysis; answered by `analysis`"),
        _m("lines", "the engine's lines on a position, streamed as `lines`",
           ("ply", "integer", "the position: that many plies into the game")),
        _m("board", "a finished game: your own analysis board from a position; answered by `created`",
           ("ply", "integer", "the position")),
        _m("position", "8 Player: the board after that many actions; answered by `position`",
           ("ply", "integer", "actions into the game")),
    )},
    "tournament": {m.type: m for m in (
        NAME,
        _m("join", "enter the tournament"),
        _m("withdraw", "leave it"),
        _m("start", "its creator starts it before the start time"),
        _m("cancel", "its creator (or a moderator) cancels it: no more pairings"),
    )},
}

# ------------------------------------------------------------------ what the server sends
ERROR = _m("error", "a message refused (nothing changed)", ("message", "text", "why"))
YOU = _m("you", "who you are now", ("you", "object", "id, name and account (signed in, or a guest)"))
CREATED = _m("created", "the game made", ("gameId", "text", "its address, /g/GAMEID"), ("path", "text", "its page"),
             ("invites", "list", "seat, label and path (with #seat=N&invite=SECRET) of each invite seat"))
PAIRED = _m("paired", "a game found for you", ("gameId", "text", "the game"), ("path", "text", "its page"),
            ("tournament", "text", "the tournament it is of"))
SERVER: Dict[str, Dict[str, Message]] = {
    "lobby": {m.type: m for m in (
        ERROR, YOU, CREATED, PAIRED,
        _m("hello", "first, on opening",
           ("you", "object", "id, name and account (none yet: null)"), ("variants", "list", "the two-player variants"),
           ("engines", "list", "the engines a seat may have"), ("twoLevels", "list", "two-player bot levels"),
           ("eightLevels", "list", "8 Player bot levels"), ("twoClocks", "list", "two-player clocks offered"),
           ("eightClocks", "list", "8 Player clocks offered"), ("modes", "list", "8 Player modes"),
           ("options", "list", "8 Player options"), ("maxBotGames", "integer", "games with bots a person keeps"),
           ("setups", "object", "each random-setup variant's setup count"),
           ("eightSeats", "list", "the 8 Player seats' colour, letter, fill, partner, team"),
           ("local", "boolean", "one person's server"), ("limits", "object", "the per-person limits")),
        _m("lobby", "the lists, again when they change",
           ("challenges", "list", "the open challenges' first page (accounts in good standing first, "
                                  "each address's newest before anyone's second)"),
           ("challengeCount", "integer", "their total"),
           ("playing", "list", "games being played"), ("playingCount", "integer", "their total"),
           ("finished", "list", "games just over"), ("mine", "list", "your unfinished games"),
           ("seeks", "list", "the seeks"), ("seekCount", "integer", "their total"),
           ("seekCounts", "object", 'seeks per "variant tc rated|casual"'), ("quickClocks", "list", "the quick-pairing clocks"),
           ("tournaments", "list", "tournaments not over"), ("bots", "list", "the bot accounts online")),
        _m("challenges", "a page of the open challenges, as asked",
           ("challenges", "list", "the page's challenges"), ("count", "integer", "how many match"),
           ("page", "integer", "this page"), ("pages", "integer", "the pages"), ("filter", "object", "as asked")),
        _m("seeking", "your seek is listed", ("seek", "text", "its id")),
        _m("tournamentCreated", "the tournament made", ("id", "text", "its address, /t/ID"), ("path", "text", "its page")),
        _m("botReady", "a bot account is online", ("you", "object", "its player"), ("bot", "object", "its rules")),
        _m("challenge", "a bot account is challenged (docs/BOT_PROTOCOL.md)", ("gameId", "text", "the game"),
           ("seat", "integer", "the bot's seat"), ("secret", "text", "its seat's secret"),
           ("variant", "text", "the variant"), ("tc", "text", "the clock"), ("rated", "boolean", "rated"),
           ("fen", "text", "the start position"), ("number", "integer", "the random setup's number"),
           ("moves", "integer", "moves played before the game begins"), ("from", "text", "the challenger's name"),
           ("fromPlayer", "integer", "the challenger's id"), ("fromBot", "boolean", "the challenger is a bot account")),
        _m("gameStart", "a bot account's game began (docs/BOT_PROTOCOL.md)", ("gameId", "text", "the game"),
           ("variant", "text", "the variant"), ("tc", "text", "the clock"), ("rated", "boolean", "rated"),
           ("seats", "list", "the bot's seats")),
    )},
    "game": {m.type: m for m in (
        ERROR, YOU, CREATED, PAIRED,
        _m("hello", "first, on opening",
           ("gameId", "text", "the game"), ("kind", "text", "two or eight"), ("config", "object", "its settings"),
           ("info", "object", "the board's geometry and pictures"), ("you", "object", "id and name"),
           ("yourSeats", "list", "your seats"), ("openSeats", "list", "seats still free"),
           ("seatLabels", "list", "each seat's name"), ("grace", "number", "seconds an absent player is waited for"),
           ("firstMove", "number", "seconds for the first move"), ("creator", "boolean", "you made it"),
           ("solo", "boolean", "you play every person's seat"), ("local", "boolean", "one person's server"),
           ("teams", "list", "each seat's team")),
        _m("state", "the game, again after every change; the first whole, the later with `history`",
           ("gameId", "text", "the game"), ("status", "text", "open, playing, over or aborted"),
           ("online", "list", "each seat's label, kind, name, player, connected"),
           ("watchers", "list", "the people looking"), ("clockValues", "list", "each seat's clock, seconds"),
           ("offers", "object", "takeback (the asking seat), rematch (seats asking), next (the rematch's game)"),
           ("abortable", "list", "seats that may still abort"), ("outcome", "text", "why an aborted game ended"),
           ("rated", "boolean", "a rated game"), ("ratingChanges", "object", "seats: [before, after], or unrated: why"),
           ("history", "object", "per list, the entries kept and those after them"),
           ("id", "integer", "the table's game number"), ("variant", "text", "two-player: the variant"),
           ("mode", "text", "8 Player: the mode"), ("options", "object", "8 Player: the options"),
           ("tc", "text", "the clock"), ("hasClock", "boolean", "timed"), ("version", "integer", "the state's number"),
           ("players", "list", "each seat's player kind (human or an engine)"), ("names", "list", "two-player: each seat's name"),
           ("seats", "list", "8 Player: each seat's player, name, score, status, credit, pairScore and clock"),
           ("clocks", "list", "two-player: each side's clock, seconds"), ("running", "any", "the clock running"),
           ("turn", "any", "the seat to move"), ("result", "any", "the result, once over"), ("reason", "text", "why it ended"),
           ("fens", "list", "two-player: each position"), ("sans", "list", "two-player: each move"),
           ("lastSquares", "list", "two-player: each move's squares"), ("lastMove", "any", "the last move"),
           ("check", "any", "the king in check"), ("pieces", "any", "8 Player: the board"),
           ("moves", "list", "8 Player: the moves"), ("log", "list", "8 Player: the game's events"),
           ("teamScores", "any", "8 Player: the teams' scores"), ("targets", "any", "8 Player: legal targets"),
           ("forbidden", "any", "8 Player: squares forbidden"), ("held", "any", "8 Player: what each seat holds"),
           ("canPass", "boolean", "8 Player: the side to move may pass"),
           ("claimAllowed", "boolean", "8 Player: the 26-point claim is open"),
           ("humanToMove", "boolean", "a person is to move"), ("drawOffer", "any", "two-player: the seat offering a draw"),
           ("note", "text", "a line under the board")),
        _m("thinking", "an engine's line, to watchers and to a person playing only engines",
           ("gameId", "text", "the game"), ("seat", "integer", "the engine's seat"), ("depth", "integer", "its depth"),
           ("score", "text", "its score"), ("pv", "list", "its line"), ("engine", "text", "which engine")),
        _m("chat", "a chat line", ("id", "integer", "its number"), ("channel", "text", "all or team"),
           ("name", "text", "who"), ("player", "integer", "their id"), ("seat", "integer", "their seat"),
           ("text", "text", "the line"), ("at", "number", "when (Unix time)")),
        _m("arrows", "a player's arrows", ("seat", "integer", "whose"), ("arrows", "list", "[from, to] pairs")),
        _m("analysis", "the computer analysis", ("status", "text", "queued, running or done"),
           ("ahead", "integer", "queued: analyses before it"), ("done", "integer", "running: positions done"),
           ("total", "integer", "running: positions in all"), ("data", "object", "the analysis, once done")),
        _m("lines", "the engine's line on a position, deeper as it searches, then its last one with done",
           ("ply", "integer", "the position"), ("depth", "integer", "the depth"), ("score", "text", "the score shown"),
           ("cp", "integer", "the score in centipawns"), ("mate", "integer", "mate in so many moves"),
           ("pv", "list", "the line"), ("best", "text", "the best move"), ("done", "boolean", "the search ended"),
           ("seat", "integer", "8 Player: the seat to move"), ("eight", "any", "8 Player: the line's scores"),
           ("message", "text", "why there is no line")),
        _m("position", "8 Player: a past board", ("ply", "integer", "actions into the game"),
           ("pieces", "any", "the board"), ("lastMove", "any", "the move before"), ("check", "any", "kings in check"),
           ("turn", "any", "the seat to move"), ("scores", "any", "the scores")),
    )},
    "tournament": {m.type: m for m in (
        ERROR, YOU, PAIRED,
        _m("tournament", "the tournament, again when it changes",
           ("id", "text", "its address, /t/ID"), ("kind", "text", "arena, swiss or eight"),
           ("config", "object", "its settings"), ("status", "text", "waiting, running, over or cancelled"),
           ("creator", "boolean", "you made it"), ("you", "object", "who you are"),
           ("now", "number", "the server's time (Unix)"), ("starts", "number", "its start (Unix time)"),
           ("ends", "number", "an arena's end"), ("ended", "number", "when it ended"),
           ("round", "integer", "the round"), ("rounds", "integer", "its rounds"), ("standings", "list", "the standings"),
           ("playing", "list", "games being played"), ("games", "list", "its games"), ("byes", "list", "byes"),
           ("entered", "boolean", "you are in it"), ("joinable", "boolean", "you may join"),
           ("yourGame", "any", "your game being played")),
    )},
}


def check(socket: str, data: Dict[str, Any]) -> Message:
    """The declared message a page's parsed message is; ``BadMessage`` when its type is not one of
    the socket's or a field it gives is not of its kind."""
    message = PAGE[socket].get(data["type"])
    if message is None:
        raise BadMessage(f"unknown message type {data['type']!r}")
    for field in message.fields:
        value = data.get(field.name)
        if value is None or field.kind == "any":
            continue
        accepted, words = KINDS[field.kind]
        if not isinstance(value, accepted) or (isinstance(value, bool) and bool not in accepted):
            raise BadMessage(f"{message.type}: {field.name} must be {words}")
    return message


def undeclared(socket: str, data: Dict[str, Any]) -> str:
    """What a server message sent on ``socket`` has that the tables do not declare ("" if nothing):
    the tests' client asks this of every message it receives."""
    message = SERVER[socket].get(data.get("type"))
    if message is None:
        return f"the server sent an undeclared {data.get('type')!r} on the {socket} socket"
    extra = sorted(set(data) - {"type"} - {f.name for f in message.fields})
    return f"the server's {message.type!r} on the {socket} socket has undeclared fields {extra}" if extra else ""


def socket_of(path: str) -> str:
    """The socket a WebSocket address is (``/ws/g/SLUG``: "game")."""
    return {"/ws/lobby": "lobby", "/ws/g/": "game", "/ws/t/": "tournament"}.get(
        path if path == "/ws/lobby" else path[:6], "")
