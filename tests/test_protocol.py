"""Protocol transcripts: every CECP command, driven through the real engine process."""
import random
import re
from pathlib import Path
import time

import pytest

from needs import needs

from engine_driver import CACHE, EngineProcess, told
from xboard_engine import Position, __version__
from xboard_engine.core.moves import CASTLE
from xboard_engine.search.runtime import interpreter_name
from xboard_engine.engine.xboard.view import POPUP_WIDTH, tell_line
from xboard_engine.engine.options import LANCER_TURN_CASTLES, MISDRAWS
from xboard_engine.engine.cecp.session import Session
from xboard_engine.engine.xboard.view import NO_BREAK
from xboard_engine.core.variant import get_variant, variant_names

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


@pytest.fixture
def engine():
    proc = EngineProcess()
    yield proc
    proc.close()


def test_handshake_features(engine):
    engine.send("xboard")
    engine.send("protover 2")
    engine.expect(r"feature done=0")
    features = engine.expect(r"feature done=1").string
    assert "feature done=1" in features
    out = engine.child.before
    # sigterm=1: python-chess warns about and rejects sigterm=0 (the engine quits on `quit` anyway)
    for word in ("ping=1", "setboard=1", "usermove=1", "san=0", "sigint=0", "sigterm=1", "time=1",
                 "draw=1", "analyze=1", "playother=1", "exclude=1", "memory=1", "smp=1", "nps=1"):
        assert word in out
    # The name says which interpreter runs the engine (here the tests' own: tests/conftest.py).
    assert f'feature myname="xboard-variant-engine {__version__} ({interpreter_name()})" ' in out
    assert 'variants="normal,fischerandom,chess80,fullcavalry,8piece,8piece-random,8piece-2019"' in out
    # Option names without spaces: python-chess takes a name to end at its first space.
    assert 'option="Setup_Number -spin -1 -1 3839"' in out
    for option in ('option="Hash -spin 64 1 2048"', 'option="Skill_Level -spin 20 0 20"',
                   'option="Avoid_moves_XBoard_4.9.1_misdraws -check 0"', 'option="MultiPV -spin 1 1 256"',
                   'option="Nodes_per_move -spin 0 0 1000000000"', 'option="Clear_Hash -button"',
                   'option="Castle_With_Lancer_Turn -check 0"'):
        assert option in out
    assert not [line for line in out.split("option=")[1:] if " " in line.split(' -')[0].strip('"')]
    engine.send("accepted setboard")
    engine.send("rejected setscore")
    assert engine.lines(engine.sync()) == []


# How XBoard hosts each variant (docs/XBOARD.md, "Play in XBoard"): piece-to-char table, parent, extra piece lines.
# `piece` lines in XBoard's Betza: a lancer facing N is a slider forward for White (f = north) and
# backward for Black (XBoard turns Black's directions round); Betza cannot say that it jumps its own
# units, holds (jailer), pushes (sentry) or jump captures (2019 sentry): those are moves to empty
# squares only.
LANCERS = ["piece C fR", "piece c bR", "piece D frB", "piece d blB", "piece E rR", "piece e lR",
           "piece F brB", "piece f flB", "piece G bR", "piece g fR", "piece H blB", "piece h frB",
           "piece M lR", "piece m rR", "piece O flB", "piece o brB"]
EIGHT_PIECE = ["piece J& mR"] + LANCERS + ["piece S& mB"]
HOSTING = {
    "chess80": ("PNBRQ..................DKpnbrq..................dk", "fairy",
                ["piece D& WFAD", "piece K KisO2isO3isO4irO5", "piece k KisO2isO3isO4ilO5"]),
    "fullcavalry": ("PNB.QCDEFGHMOKpnb.qcdefghmok", "fairy", LANCERS),
    "8piece": ("PNBRQCDEFGHMOSJKpnbrqcdefghmosjk", "lion", EIGHT_PIECE),
    "8piece-random": ("PNBRQCDEFGHMOSJKpnbrqcdefghmosjk", "lion", EIGHT_PIECE),
    "8piece-2019": ("PNBRQCDEFGHMOSJKpnbrqcdefghmosjk", "lion", EIGHT_PIECE),
}


def test_hosting_data_comes_from_the_variant_files():
    hosted = {name: (get_variant(name).xboard_pieces, get_variant(name).xboard_parent,
                     get_variant(name).xboard_piece_lines)
              for name in variant_names() if get_variant(name).xboard_pieces}
    assert hosted == HOSTING
    assert max(get_variant(name).setup_count for name in variant_names()) == 3840


@pytest.mark.parametrize("variant", sorted(HOSTING))
def test_variant_sends_setup_before_pong(engine, variant):
    engine.send("new")
    engine.send(f"variant {variant}")
    out = engine.lines(engine.sync())
    table, parent, pieces = HOSTING[variant]
    assert out[0].startswith(f"setup ({table}) ")
    size = "10x8" if variant == "chess80" else "8x8"
    fen = out[0].split(f"{size}+0_{parent} ", 1)[1]
    assert Position.from_fen(fen, variant).fen() == fen
    assert out[1:] == pieces


@pytest.mark.parametrize("variant", ["normal", "fischerandom"])
def test_reference_variants_need_no_setup(engine, variant):
    engine.send("new")
    engine.send(f"variant {variant}")
    assert engine.lines(engine.sync()) == []


def test_unsupported_variant(engine):
    engine.send("variant crazyhouse")
    assert engine.lines(engine.sync()) == ["Error (unsupported variant): crazyhouse"]


def test_option_fixes_the_random_setup(engine):
    engine.send("option Setup_number=17")
    engine.send("new")
    engine.send("variant 8piece-random")
    line = engine.lines(engine.sync())[0]
    assert line.endswith(Position("8piece-random", number=17).fen())
    engine.send("option Setup_number=5000")
    engine.send("option Nonsense=1")
    assert engine.lines(engine.sync()) == ["Error (bad option value): Setup_number=5000",
                                           "Error (unknown option): Nonsense"]


def test_option_names_with_spaces_or_underscores_in_any_case(engine):
    """XBoard settings saved before the names lost their spaces still work (``Setup number``)."""
    for line in ("option Setup number=17", "option setup_NUMBER=17", "option Clear Hash", "option clear_hash",
                 "option Avoid moves XBoard 4.9.1 misdraws=1", "option Skill_level = 20"):
        engine.send(line)
    assert engine.lines(engine.sync()) == []
    engine.send("new")
    engine.send("variant 8piece-random")
    assert engine.lines(engine.sync())[0].endswith(Position("8piece-random", number=17).fen())


def test_search_options_reject_bad_values(engine):
    for line in ("option Hash=0", "option Hash=4096", "option Skill_level=21", "option Skill_level=x",
                 "option Nodes_per_move=-1"):
        engine.send(line)
    assert engine.lines(engine.sync()) == [
        "Error (bad option value): Hash=0", "Error (bad option value): Hash=4096",
        "Error (bad option value): Skill_level=21", "Error (bad option value): Skill_level=x",
        "Error (bad option value): Nodes_per_move=-1"]
    engine.send("option Hash=8")
    engine.send("memory 16")
    engine.send("memory lots")
    assert engine.lines(engine.sync()) == ["Error (bad memory): lots"]


def _fixed_node_game(moves: int) -> list:
    """The engine's moves in a game against itself with a fixed search size (random on)."""
    proc = EngineProcess()
    try:
        proc.send("xboard")
        proc.send("protover 2")
        proc.expect("feature done=1")
        proc.send("option Nodes_per_move=3000")
        proc.setup("8piece")
        proc.send("random")
        played = []
        for _ in range(moves):
            proc.send("go")
            played.append(proc.engine_move())
            proc.send("force")
        return played
    finally:
        proc.close()


def test_nodes_per_move_makes_games_repeatable():
    first = _fixed_node_game(6)
    assert _fixed_node_game(6) == first
    pos = Position("8piece")
    for text in first:
        pos.push_text(text)             # each was legal where it was played


def test_skill_level_still_plays_legal_moves(engine):
    engine.send("option Skill_level=0")
    engine.setup("chess80")
    pos = Position("chess80")
    for _ in range(4):
        engine.send("go")
        move = engine.engine_move()
        pos.push_text(move)
        engine.send("force")
    assert pos.ply == 4


def test_bench_prints_the_search_signature(engine):
    engine.send("bench nonsense")
    assert engine.lines(engine.sync()) == [
        "Error (bad bench argument, expected nothing or quick): nonsense"]
    engine.send("bench quick")
    assert "# bench signature" not in engine.sync(timeout=5)     # ping is answered while it runs
    engine.expect(r"# bench signature [^\r\n]*\r?\n", timeout=120)
    out = engine.lines(engine.child.before + engine.child.after)
    from xboard_engine.search.bench import SEARCH_CASES
    assert len(out) == len(SEARCH_CASES) + 1 and all(line.startswith("# bench ") for line in out)
    total = sum(int(line.split(" nodes ")[1].split()[0]) for line in out[:-1])
    assert out[-1].startswith(f"# bench signature {total} ")


def _announced_fen(engine):
    engine.send("new")
    engine.send("variant 8piece-random")
    return engine.lines(engine.sync())[0].split(" ", 3)[3]


def test_random_setup_kept_until_a_game_starts(engine):
    """XBoard sends new/variant twice before a game and keeps the first setup: repeat it until a move
    is made; afterwards the next game gets a fresh random setup."""
    first = _announced_fen(engine)
    assert _announced_fen(engine) == first
    engine.send("sd 1")
    engine.send("go")
    engine.engine_move()
    fens = {_announced_fen(engine)}
    for _ in range(3):
        engine.send("sd 1")
        engine.send("go")
        engine.engine_move()
        fens.add(_announced_fen(engine))
    assert fens - {first}


def test_lancer_castle_turn_avoided_and_accepted_without_letter(engine):
    fen = "4k3/8/8/8/8/8/3PPP2/4K2M w K - 0 1"
    engine.setup("fullcavalry", fen)
    engine.send("usermove h1f1,e1g1")       # XBoard relays a castle without the turn letter
    assert engine.fen().startswith("4k3/8/8/8/8/8/3PPP2/5MK1 b")
    pos = Position.from_fen(fen, "fullcavalry")
    turned = {t for t in pos.legal_texts() if t.startswith("h1f1") and "," in t}
    assert len(turned) == 4                 # f1 facing N, NE, NW or E (W is the kept facing)
    engine.setup("fullcavalry", fen)
    engine.send("sd 1")
    engine.send("exclude all")              # (analysis only: no effect on go)
    for _ in range(3):
        engine.send("go")
        assert engine.engine_move() not in turned
        engine.send("force")
        engine.send("undo")


def test_avoid_pushes_option_for_xboard_4_9_1(engine):
    """Option "Avoid moves XBoard 4.9.1 misdraws" (XBoard 4.9.1 cannot draw a push): the seed's push mate on a1 is played
    without it; with it the engine plays another move."""
    mate = "8/8/8/3S4/8/p1K5/k7/7R w - - 0 1"
    engine.setup("8piece", mate)
    engine.send("sd 2")
    engine.send("go")
    assert "," in engine.engine_move()              # the push (sentry's two-leg move text)
    engine.setup("8piece", mate)
    engine.send("option Avoid_moves_XBoard_4.9.1_misdraws=1")
    engine.send("sd 2")
    engine.send("go")
    move = engine.engine_move()
    pos = Position.from_fen(mate, "8piece")
    assert move in pos.legal_texts() and "," not in move
    engine.send("option Avoid_moves_XBoard_4.9.1_misdraws=2")
    assert engine.lines(engine.sync()) == ["Error (bad option value): Avoid_moves_XBoard_4.9.1_misdraws=2"]


def test_misdrawn_moves_include_random_setup_castles_with_a_jailer():
    """XBoard 4.9.1 draws an 8piece-random castle with a jailer as the king taking its jailer (and
    later forfeits the jailer's legal move): with the option the engine avoids it, not the rook's."""
    session = Session()
    session.reset("8piece-random")
    session.setboard(session.board_from_fen("jgkbsnrq/pppppppp/8/8/8/8/PPPPPPPP/J3K2R w KQkq - 0 1"))
    castles = {session.pos.move_text(m) for m in session.pos.legal_moves() if m.kind == 3}
    assert castles == {"e1h1", "e1a1"}
    assert session.avoided_moves() == ()
    session.set_option(MISDRAWS, True)
    assert [session.pos.move_text(m) for m in session.avoided_moves()] == ["e1a1"]


def test_misdrawn_moves_include_full_cavalry_castle_over_a_unit():
    """XBoard 4.9.1 castles a king's long step with the nearest unit: Full Cavalry's O-O-O with the
    knight still on b1 is drawn with the knight on d1 and the lancer left on a1 (seen in its
    screenshot, tests/test_xboard_play.py).  With the option the engine avoids that castle, not
    O-O-O over an empty b1 nor O-O.  A castle that turns the lancer (``h1f1c,e1g1``, allowed by
    option "Castle With Lancer Turn") XBoard 4.9.1 draws as the lancer's move with the king taken
    off: avoided too."""
    session = Session()
    session.reset("fullcavalry")
    session.set_option(MISDRAWS, True)
    session.set_option(LANCER_TURN_CASTLES, True)          # so that only the misdrawn are avoided
    session.setboard(session.board_from_fen("enbqkbnm/pppppppp/8/8/8/8/PPPPPPPP/EN2K2M w KQkq - 0 1"))
    avoided = {session.pos.move_text(m) for m in session.avoided_moves()}
    assert {text for text in avoided if "," not in text} == {"e1c1"}
    assert {text.split(",")[1] for text in avoided if "," in text} == {"e1c1", "e1g1"}
    assert "e1g1" not in avoided and all(m.kind == CASTLE for m in session.avoided_moves())
    session.setboard(session.board_from_fen("enbqkbnm/pppppppp/8/8/8/8/PPPPPPPP/E3K2M w KQkq - 0 1"))
    avoided = {session.pos.move_text(m) for m in session.avoided_moves()}
    assert avoided and all("," in text for text in avoided)


def test_human_move_xboard_491_misdraws_gets_the_true_position(engine):
    """With the option (XBoard 4.9.1 is the GUI), a push by the human is accepted with a message
    naming the squares XBoard now shows wrong and giving the position as XBoard reads it (six
    fields: issue 24 found a 7th, the push restriction, that XBoard's Load Position refuses) and
    where it was saved; without the option, silently."""
    fen = "jfsqkbnr/ppppppp1/7p/8/3P4/8/PPP1PPPP/JDSQKBNR w KQkq - 0 2"
    engine.setup("8piece", fen)
    engine.send("usermove c1h6,h6g7")
    assert [line for line in engine.lines(engine.sync()) if not line.startswith("setup")] == []
    engine.setup("8piece", fen)
    engine.send("option Avoid_moves_XBoard_4.9.1_misdraws=1")
    engine.send("usermove c1h6,h6g7")
    pos = Position.from_fen(fen, "8piece")
    pos.push_text("c1h6,h6g7")
    said = [told(line) for line in engine.lines(engine.sync()) if not line.startswith("setup")]
    assert len(said) == 1 and said[0][0] == "telluser"
    path = Path(CACHE) / "xboard-engine" / "position.fen"
    six = " ".join(pos.fen().split()[:6])
    assert all(len(line) <= POPUP_WIDTH or " " not in line or line == six for line in said[0][1].split("\n"))
    text = " ".join(said[0][1].split())
    assert text == ("XBoard cannot show this move: its board is now wrong on g7, h6. I will play only "
                    "moves it can show. To see the true position, choose File > New Game, then File > "
                    f"Load Position with the file {path}, then Mode > Machine Black. The position: {six}")
    assert path.read_text() == six + "\n"


C80_CASTLES = "r3k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K4R {} KQkq - 0 1"


# R5.4 as XBoard reads it (established live in XBoard 4.9.1): a human's drag or typed
# move of the king onto its own rook arrives as plain `usermove e1a1` and XBoard shows the Chess960
# castle, K c1 R d1 (towards j1: K i1 R h1). The engine must show the same board and play on from it.
@pytest.mark.parametrize("stm,text,xboard_shows", [
    ("w", "e1a1", "r3k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/2KR5R b kq - 1 1"),
    ("w", "e1j1", "r3k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/R6RK1 b kq - 1 1"),
    ("b", "e8a8", "2kr5r/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K4R w KQ - 1 2"),
    ("b", "e8j8", "r6rk1/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K4R w KQ - 1 2"),
])
def test_R5_4_usermove_king_takes_rook_is_the_castle_xboard_shows(engine, stm, text, xboard_shows):
    fen = C80_CASTLES.format(stm)
    engine.setup("chess80", fen)
    engine.send("computer")
    engine.send(f"usermove {text}")
    assert engine.fen() == xboard_shows
    engine.send("sd 2")
    engine.send("go")
    reply = engine.engine_move()
    engine.send("force")
    gui = Position.from_fen(xboard_shows, "chess80")     # XBoard's board: the reply must be legal there
    gui.push_text(reply)
    following = sorted(gui.legal_texts())[0]
    engine.send(f"usermove {following}")
    gui.push_text(following)
    assert engine.lines(engine.sync()) == []
    assert engine.fen() == gui.fen()


def test_R5_4_usermove_king_takes_rook_refused_when_xboards_castle_is_illegal(engine):
    fen = "r3k3r1/pppppppp1p/10/10/10/10/PPPPPPPP1P/R3K4R w KQ - 0 1"    # rook i8 attacks i1
    engine.setup("chess80", fen)
    engine.send("usermove e1j1")            # XBoard's reading, K i1 R h1, is illegal; K j1 passes i1
    assert engine.lines(engine.sync()) == ["Illegal move: e1j1"]
    assert engine.fen() == fen
    engine.send("usermove e1h1")
    assert engine.fen() == "r3k3r1/pppppppp1p/10/10/10/10/PPPPPPPP1P/R5RK2 b - - 1 1"


def test_usermove_force_undo_remove(engine):
    engine.setup()
    engine.send("usermove e2e4")
    engine.send("usermove e7e5")
    engine.send("usermove g1f3")
    assert engine.fen() == "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    engine.send("undo")
    assert engine.fen() == "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    engine.send("remove")
    assert engine.fen() == START
    engine.send("undo")
    assert engine.lines(engine.sync()) == ["Error (nothing to undo): undo"]


def test_bare_move_without_usermove_prefix(engine):
    engine.setup()
    engine.send("e2e4")
    assert engine.fen().startswith("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b")


@pytest.mark.parametrize("text", ["e2e5", "e7e5", "z9z9", "e2", "O-O", "@@@@", "e2e4q", "e1j1,j1i1"])
def test_illegal_move_keeps_position(engine, text):
    engine.setup()
    engine.send(f"usermove {text}")
    assert engine.lines(engine.sync()) == [f"Illegal move: {text}"]
    assert engine.fen() == START


def test_setboard_valid_and_invalid(engine):
    fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    engine.setup(fen=fen)
    assert engine.fen() == fen
    engine.send("setboard 4k3/8/8/8/8/8/4P3/4K3 w - - x 1")
    engine.send("setboard this is not a fen")
    engine.send("setboard 8/8/8/8/8/8/8/8 w - - 0 1")
    said = [told(line) for line in engine.lines(engine.sync())]
    assert [(command, " ".join(text.split())) for command, text in said] == [
        ("tellusererror", "Illegal position (move counters must be numbers); the engine keeps its position."),
        ("tellusererror", "Illegal position (board needs 8 ranks, got 1); the engine keeps its position."),
        ("tellusererror", "Illegal position (white must have exactly one king); the engine keeps its position.")]
    assert all(len(line) <= POPUP_WIDTH for _, text in said for line in text.split("\n"))
    assert engine.fen() == fen


def test_setboard_restores_rights_xboard_drops(engine):
    engine.send("new")
    engine.send("variant fullcavalry")
    engine.send("force")
    engine.send("setboard enbqkbnm/pppppppp/8/8/8/8/PPPPPPPP/ENBQKBNM w - - 0 1")
    assert engine.fen() == "enbqkbnm/pppppppp/8/8/8/8/PPPPPPPP/ENBQKBNM w KQkq - 0 1"
    engine.send("new")
    engine.send("variant 8piece")
    engine.send("force")
    engine.send("setboard jfsqkbnr/pppppppp/8/8/8/8/PPPPPPPP/JDSQKBNR w Kk - 0 1")
    assert engine.fen().split()[2] == "KQkq"
    # Edit Position or a pasted position mid-game (XBoard 4.9.1 sent this after 1.e4 e5): the
    # jailers are home, so their rights come back; a jailer that has left keeps its right lost
    engine.send("setboard jfsqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/JDSQKBNR w Kk - 0 1")
    assert engine.fen().split()[2] == "KQkq"
    engine.send("setboard 1fsqkbnr/jppp1ppp/8/4p3/4P3/8/PPPP1PPP/JDSQKBNR w Kk - 0 5")
    assert engine.fen().split()[2] == "KQk"
    engine.send("setboard jfsqkbnr/pppp1ppp/8/4p3/4P3/8/PPPPKPPP/JDSQ1BNR b k - 1 2")
    assert engine.fen().split()[2] == "kq"          # White's king is not home
    # a random setup's start array, also with units missing behind the pawns (a loaded position):
    # the full rights (XBoard drops those of the jailer a1)
    engine.send("new")
    engine.send("variant 8piece-random")
    engine.send("force")
    engine.send("setboard jkbsqngr/pppppppp/8/8/8/8/PPPPPPPP/JK2QNCR w Kk - 0 1")
    assert engine.fen().split()[2] == "KQkq"


def test_unknown_command(engine):
    engine.send("frobnicate now")
    assert engine.lines(engine.sync()) == ["Error (unknown command): frobnicate"]


def test_go_plays_a_legal_move_and_playother(engine):
    engine.setup()
    engine.send("sd 2")
    engine.send("go")
    move = engine.engine_move()
    pos = Position()
    pos.push(pos.parse_move(move))
    engine.send("force")
    engine.send("playother")        # engine plays the side not to move (White); Black to move
    engine.send("usermove e7e5")
    second = engine.engine_move()
    pos.push_text("e7e5")
    pos.push(pos.parse_move(second))
    engine.send("force")
    assert engine.fen() == pos.fen()


def test_white_black_legacy_commands(engine):
    engine.setup()
    engine.send("black")            # Black to move, engine plays White
    assert engine.fen().split()[1] == "b"
    engine.send("white")
    assert engine.fen().split()[1] == "w"


def test_st_one_second(engine):
    engine.setup()
    engine.send("st 1")
    engine.send("go")
    move, seconds = engine.timed_move()
    assert seconds < 1.6
    Position().parse_move(move)


def _play_against_the_clock(engine, variant: str, seconds: int, moves: int, seed: int) -> None:
    """``level 0 0:SS 0`` with the clock reported before every move; the engine, playing Black, must
    answer ``moves`` random moves without its clock running out."""
    engine.setup(variant)
    engine.send(f"level 0 0:{seconds:02d} 0")
    pos = Position(variant)
    left = seconds * 100
    engine.send("playother")        # engine is Black
    rng = random.Random(seed)
    for _ in range(moves):
        legal = pos.legal_moves()
        if not legal or pos.outcome():
            break
        mine = rng.choice(legal)
        engine.send(f"time {left}")
        engine.send(f"otim {seconds * 100}")
        engine.send(f"usermove {pos.move_text(mine)}")
        pos.push(mine)
        move, spent = engine.timed_move(timeout=5)
        pos.push(pos.parse_move(move))
        left -= int(spent * 100) + 1
        assert left > 0, "engine lost on time"
        if pos.outcome():
            break


def test_level_two_seconds_game_clock(engine):
    """level 0 0:02 0: a whole game's worth of moves within the two seconds."""
    _play_against_the_clock(engine, "normal", 2, 12, seed=3)


def test_ping_answered_while_thinking_and_question_mark(engine):
    engine.setup()
    engine.send("st 30")
    engine.send("go")
    time.sleep(0.5)
    start = time.monotonic()
    before = engine.sync(timeout=2)
    assert time.monotonic() - start < 1.0
    assert "move " not in before
    start = time.monotonic()
    engine.send("?")
    engine.engine_move(timeout=3)
    assert time.monotonic() - start < 2.0


THINKING_LINE = re.compile(r"^\d+ -?\d+ \d+ \d+ \S")    # ply score time nodes pv


def _thinking_lines_of_one_move(engine):
    """Send ``go`` and return the thinking lines the engine wrote from then until its ``move``."""
    engine.sync()                       # everything written before the go is read here
    engine.send("go")
    engine.engine_move()                # child.before: what came after the pong and before the move
    return [line for line in engine.lines(engine.child.before) if THINKING_LINE.match(line)]


def test_post_and_nopost(engine):
    """post: thinking lines while the engine thinks; nopost: none; post again: they are back."""
    engine.setup()
    engine.send("sd 3")
    engine.send("post")
    assert len(_thinking_lines_of_one_move(engine)) >= 3      # one a depth at least
    engine.send("force")
    engine.send("nopost")
    assert _thinking_lines_of_one_move(engine) == []
    engine.send("force")
    engine.send("post")
    assert len(_thinking_lines_of_one_move(engine)) >= 3


def test_analyze_mode(engine):
    engine.setup()
    engine.send("post")
    engine.send("analyze")
    engine.expect(r"(?m)^\d+ -?\d+ \d+ \d+ \S+")
    engine.send(".")
    engine.expect(r"stat01: \d+ \d+ \d+ 0 20 \S+")
    engine.send("exclude all")
    engine.send("include e2e4")
    engine.send(".")
    engine.expect(r"stat01: \d+ \d+ \d+ 0 1 ")
    engine.expect(r"(?m)^\d+ -?\d+ \d+ \d+ e4")
    engine.send("include all")
    engine.send("usermove e2e4")        # analysis goes on in the new position
    engine.send(".")
    engine.expect(r"stat01: \d+ \d+ \d+ 0 20 ")
    engine.send("undo")
    engine.send("exit")
    engine.sync()
    assert engine.fen() == START
    time.sleep(0.3)
    engine.send(".")                    # outside analyze: ignored
    assert not engine.lines(engine.sync())


def test_status_request_followed_at_once_by_exit_is_not_answered(engine):
    """python-chess ends an analysis with `.` and `exit` together and calls a stat01 line unexpected
    output: the analysis is over, so the engine does not answer that `.`."""
    engine.setup()
    engine.send("analyze")
    engine.expect(r"(?m)^\d+ -?\d+ \d+ \d+ \S+")
    engine.child.send(".\nexit\n")
    assert "stat01" not in engine.sync()


def test_analysis_with_multipv_posts_numbered_lines(engine):
    engine.setup(fen="r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    engine.send("option MultiPV=3")
    engine.send("post")
    engine.send("analyze")
    text = engine.expect(r"(?m)^4 .*\n4 .*\n4 .*\n", timeout=60).group(0)
    engine.send("exit")
    engine.sync()
    depth4 = [line.split() for line in engine.lines(text) if line.startswith("4 ")]
    assert len(depth4) == 3
    firsts = [words[4] for words in depth4]
    assert len(set(firsts)) == 3
    scores = [int(words[1]) for words in depth4]
    assert scores == sorted(scores, reverse=True)


def test_hint_bk_draw_result_and_settings(engine):
    engine.setup()
    for line in ("name Opponent", "rating 2000 1800", "computer", "memory 64", "cores 2", "random",
                 "option Clear_Hash", "easy", "hard", "easy", "draw"):
        engine.send(line)
    assert engine.lines(engine.sync()) == []
    engine.send("hint")
    engine.expect(r"Hint: [a-h][1-8][a-h][1-8]")
    engine.send("bk")
    engine.expect("\tNo book moves")
    engine.send("result 1/2-1/2 {agreed}")
    assert engine.lines(engine.sync()) == []


def test_perft_and_board_display(engine):
    engine.setup("chess80")
    engine.send("perft 2")
    engine.expect(r"perft 2 nodes 900 ")
    engine.send("board")
    engine.expect(r" 1 R N B D K Q D B N R")
    engine.expect(r"   a b c d e f g h i j")


def test_claims_mate_after_users_move(engine):
    engine.setup(fen="7k/8/6K1/8/8/8/8/R7 w - - 0 1")
    engine.send("playother")            # engine plays Black; White (the user) mates
    engine.send("usermove a1a8")
    engine.expect(r"1-0 \{White mates\}")


def test_claims_draw_by_repetition(engine):
    engine.setup(fen="4k3/8/8/8/8/8/8/4K2R w - - 0 1")
    moves = ["h1h2", "e8d8", "h2h1", "d8e8", "h1h2", "e8d8", "h2h1"]
    for move in moves:
        engine.send(f"usermove {move}")
    engine.send("playother")            # engine plays White; the user (Black) repeats a third time
    engine.send("usermove d8e8")
    engine.expect(r"1/2-1/2 \{Draw by repetition\}")


def test_claims_mate_after_engine_move(engine):
    engine.setup(fen="7k/8/6K1/8/8/8/8/R7 w - - 0 1")
    engine.send("sd 2")
    engine.send("go")
    assert engine.engine_move() == "a1a8"
    engine.expect(r"1-0 \{White mates\}")


def test_claims_stalemate_after_users_move(engine):
    engine.setup(fen="7k/8/6K1/8/8/8/8/5Q2 w - - 0 1")
    engine.send("playother")
    engine.send("usermove f1f7")
    engine.expect(r"1/2-1/2 \{Stalemate\}")


def test_quit_exits_cleanly():
    proc = EngineProcess()
    assert proc.close() == 0


def test_end_of_input_exits_cleanly():
    proc = EngineProcess()
    proc.child.sendeof()
    proc.child.expect(__import__("pexpect").EOF, timeout=10)
    proc.child.close()
    assert proc.child.exitstatus == 0


@needs("pypy3")
def test_engine_runs_under_pypy():
    proc = EngineProcess(python="pypy3")
    try:
        proc.send("xboard")
        proc.send("protover 2")
        proc.expect("feature done=1")
        assert re.search(r'feature myname="xboard-variant-engine [^ ]+ \(PyPy \d+\.\d+\.\d+\)"', proc.child.before)
        proc.send("new")
        proc.send("variant 8piece")
        proc.expect(r"setup \(PNBRQCDEFGHMOSJKpnbrqcdefghmosjk\) 8x8\+0_lion")
        proc.send("sd 2")
        proc.send("go")
        Position("8piece").parse_move(proc.engine_move())
    finally:
        assert proc.close() == 0


def test_random_varies_the_choice_among_equal_moves(engine):
    # At depth 1 the opening of Full Cavalry (hand-set tables, the same for each wing) has two
    # equally good moves (b1c3, g1f3), so with `random` each game picks one of them by a coin: 30
    # games all alike would happen once in 2**29 runs.  (Orthodox chess's distilled tables are not
    # the same for each wing.)
    def first_moves(games: int):
        moves = set()
        for _ in range(games):
            engine.setup("fullcavalry")
            engine.send("sd 1")
            engine.send("go")
            moves.add(engine.engine_move())
        return moves
    assert len(first_moves(6)) == 1         # deterministic by default
    engine.send("random")
    assert len(first_moves(30)) > 1


def test_bad_numeric_arguments_are_rejected(engine):
    for line in ("st nan", "st inf", "st 0", "sd 2.5", "time inf", "otim nan", "nps -1", "level 40 x 0"):
        engine.send(line)
    assert engine.lines(engine.sync()) == [
        "Error (bad st): nan", "Error (bad st): inf", "Error (bad st): 0", "Error (bad sd): 2.5",
        "Error (bad time): inf", "Error (bad otim): nan", "Error (bad nps): -1", "Error (bad level): 40 x 0"]


@pytest.mark.parametrize("variant,level", [("normal", "level 40 5 0"), ("8piece", "level 0 1 0"),
                                           ("chess80", "level 40 1 0")])
def test_moves_within_a_tiny_clock(engine, variant, level):
    """`time 50` (half a second left): the answer comes well within it, counted from the usermove."""
    engine.setup(variant)
    engine.send(level)
    engine.send("playother")            # the engine plays Black
    pos = Position(variant)
    first = pos.legal_moves()[0]
    engine.send("time 50")
    engine.send("otim 50")
    engine.send(f"usermove {pos.move_text(first)}")
    move, seconds = engine.timed_move(timeout=5)
    pos.push(first)
    pos.parse_move(move)
    assert seconds < 0.4


def test_moves_within_a_tiny_clock_while_pondering(engine):
    """With pondering on, the ponder search must stop at once when the move arrives."""
    engine.setup("8piece")
    engine.send("level 0 1 0")
    engine.send("hard")
    engine.send("playother")            # the engine plays Black and ponders on White's turn
    time.sleep(0.5)
    engine.send("time 30")
    engine.send("otim 50")
    engine.send("usermove e2e4")
    move, seconds = engine.timed_move(timeout=5)
    assert seconds < 0.3


def test_eight_piece_one_second_game_clock(engine):
    """level 0 0:01 0 in 8-Piece Chess with the clock reported before every move, 20 moves."""
    _play_against_the_clock(engine, "8piece", 1, 20, seed=5)


# -------------------------------------------------------------- XBoard 4.9.1's Load Position (issue 24)
def xboard_session(engine, variant="8piece"):
    """The engine as XBoard 4.9.1 starts it: it accepts `feature highlight` (a human at the board)."""
    engine.send("protover 2")
    engine.expect("feature done=1")
    engine.send("accepted highlight")
    engine.send("new")
    engine.send(f"variant {variant}")
    engine.sync()


def test_a_loaded_position_gets_a_note_to_choose_a_mode_once(engine):
    """After File > Load Position XBoard 4.9.1 is in Edit Game mode and sends `force` and `setboard`;
    the engine does not play there, so it says how to make it play (once a session; not for the
    start array, which XBoard also sends a second engine)."""
    xboard_session(engine)
    time.sleep(1.2)                                       # the user opens the dialog
    engine.send("force")
    engine.send(f"setboard {Position('8piece').fen()}")
    assert engine.lines(engine.sync()) == []
    engine.send("force")
    engine.send("setboard jfsqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/JDSQKBNR w Kk - 0 2")
    said = [told(line) for line in engine.lines(engine.sync()) if not line.startswith("setup")]
    assert [(command, " ".join(text.split())) for command, text in said] == [
        ("telluser", "Position loaded. Choose Mode > Machine White or Machine Black, and I will play that side.")]
    engine.send("force")
    engine.send("setboard jfsqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/JDSQKB1R b Kk - 1 2")
    assert [line for line in engine.lines(engine.sync()) if not line.startswith("setup")] == []


def test_no_note_without_xboard(engine):
    """Other GUIs and scripts (no `accepted highlight`) get no note."""
    engine.setup("8piece", "jfsqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/JDSQKBNR w Kk - 0 2")
    assert [line for line in engine.lines(engine.sync()) if not line.startswith("setup")] == []


def test_a_mid_session_load_with_black_to_move_says_how_to_load_it(engine):
    """XBoard 4.9.1 loading a position with Black to move in the middle of a session resets the
    game and sends `new`, `variant`, ..., `force`, `setboard` at once; it ignores the `setup` the
    engine answers then (it has a move) and falls back to orthodox chess ("Engine did not send setup
    for non-standard variant", seen in XBoard).  The engine cannot prevent that; it says how to load
    such a position (File > New Game first, or Edit > Paste Position, which work: seen in XBoard)."""
    xboard_session(engine)
    engine.send("new")
    engine.send("variant 8piece")
    engine.send("ping 77")
    engine.send("force")
    engine.send("setboard jfsqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/JDSQKBNR b Kk - 0 1")
    said = [told(line) for line in engine.lines(engine.sync()) if line.startswith("tell")]
    assert [(command, " ".join(text.split())) for command, text in said] == [
        ("telluser", "XBoard cannot load a position with Black to move in the middle of a session in "
                     "this variant: it falls back to orthodox chess. Restart XBoard; then choose File > "
                     "New Game before File > Load Position, or use Edit > Paste Position.")]


def test_popup_text_is_wrapped_and_keeps_a_fen_whole():
    """XBoard sizes its popup to the longest line (issue 24: popups ran to 1,200 pixels, over the
    clocks): lines of at most POPUP_WIDTH characters, a FEN (joined by no-break spaces) on one line,
    a backslash doubled (XBoard expands escapes after the leading double backslash)."""
    fen = "jfsqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/JDSQKBNR b Kk - 0 1"
    text = "word " * 40 + "C:\\path " + "The position: " + fen.replace(" ", NO_BREAK)
    line = tell_line(text)
    command, shown = told(line)
    lines = shown.split("\n")
    assert command == "telluser" and line.startswith("telluser \\\\")
    assert all(len(row) <= POPUP_WIDTH or row == fen for row in lines) and fen in lines
    assert " ".join(shown.split()) == " ".join(text.replace(NO_BREAK, " ").split())
    assert tell_line("x", error=True) == "tellusererror \\\\x"
