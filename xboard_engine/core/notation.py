"""Move text: the protocol's coordinate form and SAN for PGN (docs/RULES.md lists every form)."""
import re
from typing import TYPE_CHECKING, Dict, List, Optional

from .errors import IllegalMoveError
from .moves import CASTLE, EDGE, EP, JUMP, PASS, PUSH, Move
from .pieces import FACING_LETTERS, FACING_NAMES, LANCER, PAWN

if TYPE_CHECKING:
    from .position import Position  # noqa: F401

_AMBIGUOUS = object()
_SQUARE = r"[a-z][0-9]{1,2}"
_COORD = re.compile(rf"^({_SQUARE})({_SQUARE})([a-z]?)$")
_TWO_LEGS = re.compile(rf"^({_SQUARE})({_SQUARE})([a-z]?),({_SQUARE})({_SQUARE})([a-z]?)$")


def _kind_letter(pos: "Position", code: int) -> str:
    """Upper-case letter of a unit's kind (lancers: L, whatever their facing)."""
    kind = pos.v.kind_of[code]
    assert kind is not None
    return kind.letter


def _facing_letter(pos: "Position", code: int) -> str:
    return FACING_LETTERS[pos.v.facing[code]].lower()


def _is_kingside(m: Move) -> bool:
    return m.square2 > m.frm


# ====================================================================== coordinate text
def move_text(pos: "Position", m: Move) -> str:
    """The coordinate text of legal move ``m`` (as sent over the XBoard protocol)."""
    v = pos.v
    n = v.names
    frm, to, placed, flag = m.frm, m.to, m.placed, m.kind
    if flag == PASS:
        return "@@@@"
    if flag == CASTLE:
        rfrm, rto, rplaced = m.square2, m.to2, m.placed2
        if v.castling == "flexible":
            return f"{n[frm]}{n[to]},{n[to]}{n[to]}" if to == rfrm else n[frm] + n[to]
        if v.setup == "chess960":
            return "O-O" if _is_kingside(m) else "O-O-O"
        if v.chess960_style:
            return n[frm] + n[rfrm]       # king takes its partner: how XBoard reads a 960-style castle
        if rplaced != pos.board[rfrm]:
            return f"{n[rfrm]}{n[rto]}{_facing_letter(pos, rplaced)},{n[frm]}{n[to]}"
        return n[frm] + n[to]
    if flag == PUSH:
        return f"{n[frm]}{n[m.to2]},{n[m.to2]}{n[to]}"
    if flag == JUMP:
        return f"{n[frm]}{n[m.square2]},{n[m.square2]}{n[to]}"
    text = n[frm] + n[to]
    moved = pos.board[frm]
    if flag != EDGE and placed != moved:
        if v.behaviour[placed] == LANCER:
            text += _facing_letter(pos, placed)
        else:
            text += v.letter[placed].lower()
    return text


def uci_text(pos: "Position", m: Move) -> str:
    """The UCI token of legal move ``m``: its coordinate text, except that a Chess960 castle is
    king takes own rook (``e1h1``), as UCI GUIs write it."""
    if m.kind == CASTLE and pos.v.setup == "chess960":
        return pos.v.names[m.frm] + pos.v.names[m.square2]
    return move_text(pos, m)


def parse_uci(pos: "Position", text: str) -> Move:
    """The legal move a UCI token names: any coordinate text, and ``0000`` (UCI's null move) for a
    pass."""
    return parse_move(pos, "@@@@" if text == "0000" else text)


def _text_table(pos: "Position", legal: List[Move]) -> Dict[str, object]:
    """Canonical texts of the legal moves plus the accepted alternative forms."""
    v = pos.v
    n = v.names
    table: Dict[str, object] = {}
    aliases: Dict[str, object] = {}

    def alias(text: str, m: Move) -> None:
        if aliases.get(text, m) != m:
            aliases[text] = _AMBIGUOUS
        else:
            aliases[text] = m

    for m in legal:
        table[move_text(pos, m)] = m
    for m in legal:
        frm, to, placed, flag = m.frm, m.to, m.placed, m.kind
        if flag == CASTLE:
            rfrm, rto = m.square2, m.to2
            if v.castling == "flexible":
                if to == rfrm:
                    alias(f"{n[frm]}{n[to]},{n[to]}{n[rto]}", m)           # as XBoard relays it
                if v.file_of[to] == (v.files - 2 if _is_kingside(m) else 2):
                    # King takes its own rook (a human's drag or typed e1a1/e1j1): XBoard shows the
                    # Chess960 castle, king on the c- or second-to-last file (K c1 R d1, K i1 R h1).
                    alias(n[frm] + n[rfrm], m)
            else:
                if _partner_keeps_facing(pos, m):
                    castle = "O-O" if _is_kingside(m) else "O-O-O"
                    alias(castle, m)
                    alias(castle.replace("O", "0"), m)
                    alias(n[frm] + n[rfrm], m)                             # king takes partner
                    alias(n[frm] + n[to], m)
                    alias(f"{n[rfrm]}{n[rto]},{n[frm]}{n[to]}", m)         # XBoard drops the turn letter
                else:
                    alias(f"{n[rfrm]}{n[rto]}{_facing_letter(pos, m.placed2)},{n[frm]}{n[to]}", m)
        elif flag == PUSH:
            alias(n[frm] + n[to], m)                                       # only if unique
            alias(f"{n[frm]}{n[to]},{n[to]}{n[m.to2]}", m)                 # a human's two legs in XBoard
        elif flag == EDGE:
            alias(f"{n[frm]}{n[to]},{n[to]}{n[to]}", m)
        elif v.behaviour[placed] == LANCER and placed == pos.board[frm]:
            alias(n[frm] + n[to] + _facing_letter(pos, placed), m)         # explicit unchanged facing
    for text, m in aliases.items():
        if text not in table:
            table[text] = m
    return table


def _partner_keeps_facing(pos: "Position", m: Move) -> bool:
    return m.placed2 == pos.board[m.square2]


def parse_move(pos: "Position", text: str, legal: Optional[List[Move]] = None) -> Move:
    """The legal move that coordinate ``text`` names (raises IllegalMoveError)."""
    if not isinstance(text, str):
        raise IllegalMoveError(f"move text must be a string, not {type(text).__name__}")
    raw = text.strip()
    t = raw if raw.startswith(("O-", "0-")) else raw.lower()
    if legal is None:
        legal = pos.legal_moves()
    well_formed = t in ("@@@@", "o-o", "o-o-o") or t.startswith(("O-O", "0-0")) \
        or _COORD.match(t) or _TWO_LEGS.match(t)
    if not well_formed:
        raise IllegalMoveError(f"malformed move text {raw!r}")
    table = _text_table(pos, legal)
    found = table.get(t)
    if found is None and t in ("o-o", "o-o-o"):
        found = table.get(t.upper())
    if found is None:
        found = _match_reordered_push(pos, t, legal)
    if found is _AMBIGUOUS:
        raise IllegalMoveError(f"ambiguous move text {raw!r}")
    if found is None:
        raise IllegalMoveError(f"illegal move {raw!r} in {pos.fen()}")
    return found  # type: ignore[return-value]


def _match_reordered_push(pos: "Position", t: str, legal: List[Move]) -> object:
    """XBoard master relays a black push `A B, C D` with B the sentry's landing and C the pushed
    unit's destination (XBOARD.md); accept that order when it names exactly one push."""
    match = _TWO_LEGS.match(t)
    if not match:
        return None
    by_name = pos.v.by_name
    a, b, c = (by_name.get(match.group(i)) for i in (1, 2, 4))
    found = [m for m in legal if m.kind == PUSH and m.frm == a and m.to == b and m.to2 == c]
    if len(found) > 1:
        return _AMBIGUOUS
    return found[0] if found else None


# ====================================================================== SAN
def san(pos: "Position", m: Move, legal: Optional[List[Move]] = None) -> str:
    """Standard algebraic notation of legal move ``m`` with the R11.1 additions."""
    if legal is None:
        legal = pos.legal_moves()
    body = _san_body(pos, m, legal)
    pos.push(m)
    try:
        if pos.is_check():
            body += "#" if not pos.legal_moves() else "+"
    finally:
        pos.pop()
    return body


def _san_body(pos: "Position", m: Move, legal: List[Move]) -> str:
    v = pos.v
    n = v.names
    B = pos.board
    frm, to, placed, flag = m.frm, m.to, m.placed, m.kind
    if flag == PASS:
        return "--"
    if flag == CASTLE:
        rfrm, rplaced = m.square2, m.placed2
        if v.castling == "flexible":
            k = abs(v.file_of[to] - v.file_of[frm])
            return f"{k}-{k}" if rfrm < frm else f"{k}-{k}-{k}"
        text = "O-O" if _is_kingside(m) else "O-O-O"
        if rplaced != B[rfrm]:
            text += "=" + FACING_NAMES[v.facing[rplaced]]
        return text
    moved = B[frm]
    letter = _kind_letter(pos, moved)
    if flag == PUSH:
        uto = m.to2
        unit = B[to]
        others = [o for o in legal if o.kind == PUSH and o.to == to and o.to2 == uto and o.frm != frm]
        victim = B[uto] if uto != frm else 0
        unit_letter = "" if v.behaviour[unit] == PAWN else _kind_letter(pos, unit)
        return (f"S{_disambiguation(pos, frm, [o.frm for o in others])}{n[to]}>"
                f"{unit_letter}{'x' if victim else ''}{n[uto]}")
    if flag in (JUMP, EDGE):
        victim = m.square2 if flag == JUMP else to
        others = [o.frm for o in legal if o.frm != frm and
                  ((o.kind == JUMP and o.square2 == victim) or (o.kind == EDGE and o.to == victim))]
        return f"S{_disambiguation(pos, frm, others)}x{n[victim]}"
    capture = B[to] != 0 or flag == EP
    if v.behaviour[moved] == PAWN:
        text = (n[frm][0] + "x" if capture else "") + n[to]
        if placed != moved:
            text += "=" + _kind_letter(pos, placed)
            if v.behaviour[placed] == LANCER:
                text += "=" + FACING_NAMES[v.facing[placed]]
        return text
    others = [o.frm for o in legal if o.to == to and o.frm != frm and o.kind < CASTLE
              and B[o.frm] and _kind_letter(pos, B[o.frm]) == letter]
    text = letter + _disambiguation(pos, frm, others) + ("x" if capture else "") + n[to]
    if v.behaviour[moved] == LANCER and placed != moved:
        text += "=" + FACING_NAMES[v.facing[placed]]
    return text


def _disambiguation(pos: "Position", frm: int, others: List[int]) -> str:
    if not others:
        return ""
    v = pos.v
    name = v.names[frm]
    if all(v.file_of[o] != v.file_of[frm] for o in others):
        return name[0]
    if all(v.rank_of[o] != v.rank_of[frm] for o in others):
        return name[1:]
    return name


_SAN_CLEAN = re.compile(r"[+#!?]+$")
_LANCER_DIR = re.compile(r"=?(nw|ne|sw|se|n|e|s|w)$", re.IGNORECASE)
_PIECE_SAN = re.compile(rf"^([A-Z])([a-z]?)([0-9]{{0,2}})(x?)({_SQUARE})(=?[A-Za-z]{{1,2}})?$")


def parse_san(pos: "Position", text: str, legal: Optional[List[Move]] = None) -> Move:
    """The legal move that SAN ``text`` names; tolerant of check marks, 0-0, missing '='."""
    if not isinstance(text, str):
        raise IllegalMoveError(f"SAN must be a string, not {type(text).__name__}")
    raw = text.strip()
    t = _SAN_CLEAN.sub("", raw).replace("0-0", "O-O")
    if not t or len(t) > 20:
        raise IllegalMoveError(f"malformed SAN {raw!r}")
    if legal is None:
        legal = pos.legal_moves()
    table: Dict[str, Move] = {}
    for m in legal:
        table[_san_body(pos, m, legal)] = m
    for candidate in _san_variants(t):
        if candidate in table:
            return table[candidate]
    match = _PIECE_SAN.match(t)
    if match:
        found = _loose_piece_match(pos, match, legal)
        if found is not None:
            return found
    raise IllegalMoveError(f"illegal or malformed SAN {raw!r} in {pos.fen()}")


def _san_variants(t: str) -> List[str]:
    out = [t]
    m = _LANCER_DIR.search(t)
    if m and len(t) > len(m.group(0)) + 1:
        out.append(t[: m.start()] + "=" + m.group(1).lower())
    promo = re.match(r"^([a-z]x?[a-z]?[0-9]+)=?([A-Z])(.*)$", t)
    if promo:
        rest = promo.group(3)
        if rest:
            rest = "=" + rest.lstrip("=").lower()
        out.append(f"{promo.group(1)}={promo.group(2)}{rest}")
    return out


def _loose_piece_match(pos: "Position", match, legal: List[Move]) -> Optional[Move]:
    """Accept over-specified disambiguation, e.g. Ng1f3."""
    v = pos.v
    letter, file_hint, rank_hint, _, dest, suffix = match.groups()
    to = v.by_name.get(dest)
    found = []
    for m in legal:
        if m.to != to or m.kind >= CASTLE:
            continue
        code = pos.board[m.frm]
        if _kind_letter(pos, code) != letter:
            continue
        name = v.names[m.frm]
        if file_hint and name[0] != file_hint or rank_hint and name[1:] != rank_hint:
            continue
        body = _san_body(pos, m, legal)
        tail = body.split(v.names[to], 1)[1]
        want = ("=" + suffix.lstrip("=").lower()) if suffix else ""
        if tail == want:
            found.append(m)
    return found[0] if len(found) == 1 else None


def board_lines(pos: "Position") -> List[str]:
    """A plain-text board for people using the engine in a terminal (the `d` command of both protocols)."""
    v = pos.variant
    files = "abcdefghijklmnopqrstuvwxyz"[:v.files]
    lines = []
    for rank in range(v.ranks, 0, -1):
        cells = [pos.piece_at(f"{f}{rank}") or "." for f in files]
        lines.append(f"{rank:>2} " + " ".join(cells))
    lines.append("   " + " ".join(files))
    lines.append(f"fen {pos.fen()}")
    lines.append(f"variant {v.name}, {'white' if pos.stm == 0 else 'black'} to move")
    return lines
