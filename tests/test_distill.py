"""The distilled evaluation: square-table corrections, the position and label chunks of
``scripts/distill.py`` and the fit of ``scripts/fit_tables.py``."""
import os
import subprocess
import sys
from pathlib import Path

from xboard_engine import Position
from xboard_engine.search.evaluation import FITTED, FITTED_TABLES, evaluate, set_weights

ROOT = Path(__file__).resolve().parent.parent
STOCKFISH = "/usr/games/stockfish"


def _white(fen: str, variant: str = "normal") -> int:
    pos = Position.from_fen(fen, variant)
    score = evaluate(pos)
    return -score if pos.stm else score


def test_a_square_correction_counts_for_each_side_from_its_own_first_rank():
    """A table correction on the knight's d4 (fourth square of the fourth rank from its owner's side)
    moves White's knight on d4 and Black's on d5 alike, and a knight elsewhere not at all."""
    fens = {"white d4": "4k3/8/8/8/3N4/8/8/4K3 w - - 0 1", "black d5": "4k3/8/8/3n4/8/8/8/4K3 w - - 0 1",
            "white e4": "4k3/8/8/8/4N3/8/8/4K3 w - - 0 1"}
    before = {name: _white(fen) for name, fen in fens.items()}
    saved, saved_tables = dict(FITTED.get("orthodox", {})), dict(FITTED_TABLES.get("orthodox", {}))
    mg, eg = (list(t) for t in saved_tables.get("knight", ([0] * 64, [0] * 64)))
    mg[3 * 8 + 3] += 60
    eg[3 * 8 + 3] += 60
    try:
        set_weights(saved, "orthodox", dict(saved_tables, knight=(mg, eg)))
        after = {name: _white(fen) for name, fen in fens.items()}
    finally:
        set_weights(saved, "orthodox", saved_tables)
    assert after["white d4"] - before["white d4"] == 60
    assert after["black d5"] - before["black d5"] == -60
    assert after["white e4"] == before["white e4"]
    assert {name: _white(fen) for name, fen in fens.items()} == before


def _white_with_fitted_set(weights: Path, fens) -> list:
    """White's evaluation of each position with the orthodox set of the weights file ``weights``
    (the set in use is put back after)."""
    from xboard_engine.search.evaluation import _read_fitted
    fitted, tables = _read_fitted(str(weights))
    saved, saved_tables = dict(FITTED.get("orthodox", {})), dict(FITTED_TABLES.get("orthodox", {}))
    try:
        set_weights(fitted["orthodox"], "orthodox", tables["orthodox"])
        return [_white(fen) for fen in fens]
    finally:
        set_weights(saved, "orthodox", saved_tables)


def _run(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    run = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=600)
    if check:
        assert run.returncode == 0, run.stderr
    return run


def test_positions_are_quiet_new_and_reproducible_and_labels_resume(tmp_path):
    """Chunks of quiet positions (not in check, both sides with more than a king, no repeats) made
    again the same from the same seed; Stockfish's labels, a half-labelled chunk finished where it
    stopped."""
    out = tmp_path / "d"
    _run("scripts/distill.py", "positions", "normal", "--dir", str(out), "--chunks", "0-1",
         "--chunk-positions", "40", "--nodes", "60", "--teacher", STOCKFISH, "--teacher-nodes", "200")
    fens = (out / "positions-0000.fen").read_text().split("\n")[:-1]
    assert len(fens) == 40 and len({" ".join(f.split()[:4]) for f in fens}) == 40
    for fen in fens:
        pos = Position.from_fen(fen)
        assert not pos.is_check() and len(pos.units[0]) > 1 and len(pos.units[1]) > 1
    again = tmp_path / "again"
    _run("scripts/distill.py", "positions", "normal", "--dir", str(again), "--chunks", "1",
         "--chunk-positions", "40", "--nodes", "60", "--teacher", STOCKFISH, "--teacher-nodes", "200")
    assert (again / "positions-0001.fen").read_text() == (out / "positions-0001.fen").read_text()
    _run("scripts/distill.py", "label", "--dir", str(out), "--chunks", "0", "--teacher", STOCKFISH, "--depth", "4")
    labels = (out / "labels-0000.txt").read_text().split("\n")[:-1]
    assert [line.rpartition(";")[0] for line in labels] == fens
    assert all(line.rpartition(";")[2].lstrip("-#").isdigit() for line in labels)
    (out / "labels-0000.txt").write_text("\n".join(labels[:25]) + "\n")
    run = _run("scripts/distill.py", "label", "--dir", str(out), "--chunks", "0", "--teacher", STOCKFISH,
               "--depth", "4")
    assert "chunk 0: 15 labelled" in run.stdout
    assert [line.rpartition(";")[0] for line in (out / "labels-0000.txt").read_text().split("\n")[:-1]] == fens
    made_by = (out / "made-by").read_text()
    assert "positions normal" in made_by and "Stockfish" in made_by
    bad = _run("scripts/distill.py", "label", "--dir", str(tmp_path / "none"), check=False)
    assert bad.returncode != 0 and "no positions" in bad.stderr and "Traceback" not in bad.stderr


def test_a_mate_is_labelled_as_a_mate():
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from distill import Teacher
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    teacher = Teacher(STOCKFISH, "normal")
    try:
        best, score = teacher.search("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "depth 6")
        assert (best, score) == ("a1a8", "#1")
        assert teacher.search("6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1", "depth 6")[1].lstrip("-").isdigit()
    finally:
        teacher.close()


def test_the_fit_learns_what_the_labels_say(tmp_path):
    """Labels that are the evaluation plus 150 centipawns per knight (White's minus Black's): the fit
    raises the knight's table by about that much (on the evaluation's scale) and the held-out error
    falls; ``--write`` stores
    the set with how it was made, and the evaluation then reads it."""
    source = tmp_path / "src"
    _run("scripts/distill.py", "positions", "normal", "--dir", str(source), "--chunks", "0-1",
         "--chunk-positions", "1000", "--nodes", "60")
    data = tmp_path / "data"
    data.mkdir()
    (data / "variant").write_text("normal\n")
    (data / "made-by").write_text("test: the evaluation plus 150 a knight\n")
    for chunk in (0, 1):
        lines = []
        for fen in (source / f"positions-000{chunk}.fen").read_text().split("\n")[:-1]:
            board = fen.split()[0]
            extra = 150 * (board.count("N") - board.count("n"))
            stm = evaluate(Position.from_fen(fen))
            lines.append(f"{fen};{stm + (extra if ' w ' in fen else -extra)}")
        (data / f"labels-000{chunk}.txt").write_text("\n".join(lines) + "\n")
    weights = tmp_path / "weights.json"
    run = _run("scripts/fit_tables.py", "--set", "orthodox", str(data), "--steps", "300", "--rate", "3",
               "--pull", "0.001", "--held-out", "800", "--write", "--output", str(weights))
    scaled = [line.split() for line in run.stdout.splitlines() if line.startswith("labels scaled")]
    scale, errors = float(scaled[0][3].rstrip(";")), [float(scaled[0][-1])]
    assert 0.7 < scale < 1.3                # the labels are the evaluation's own scale
    kept = [float(line.split()[3]) for line in run.stdout.splitlines() if line.startswith("pull")]
    assert kept[0] < errors[0] / 2, run.stdout
    import json
    entry = json.loads(weights.read_text())["sets"]["orthodox"]
    assert entry["made by"]["positions made by"] == ["test: the evaluation plus 150 a knight"]
    assert entry["made by"]["command"].startswith("python scripts/fit_tables.py --set orthodox")
    # What the fitted evaluation adds per knight of difference, where the sides' knights differ.
    imbalanced = [fen for fen in (source / "positions-0001.fen").read_text().split("\n")[:-1]
                  if fen.split()[0].count("N") != fen.split()[0].count("n")]
    before = [_white(fen) for fen in imbalanced]
    after = _white_with_fitted_set(weights, imbalanced)
    per_knight = [(a - b) / (fen.split()[0].count("N") - fen.split()[0].count("n"))
                  for fen, a, b in zip(imbalanced, after, before)]
    assert len(imbalanced) > 20
    assert 0.5 * 150 * scale < sum(per_knight) / len(per_knight) < 1.5 * 150 * scale, (scale, per_knight)
    check = subprocess.run(
        [sys.executable, "-c", "from xboard_engine.search.evaluation import _read_fitted; "
         f"w, t = _read_fitted({str(weights)!r}); print(len(t['orthodox']['knight'][0]))"],
        cwd=ROOT, capture_output=True, text=True, env=dict(os.environ))
    assert check.stdout.strip() == "64", check.stderr


def test_the_net_learns_what_the_labels_say(tmp_path):
    """Labels that are the evaluation plus 150 centipawns per knight of difference: the net's held-out
    error falls by more than 40%, ``--write`` stores it with how it was made, with it the evaluation
    of a position where White has an extra knight moves towards the labels, and mirrored positions
    are still worth the same to the side to move."""
    source = tmp_path / "src"
    _run("scripts/distill.py", "positions", "normal", "--dir", str(source), "--chunks", "0-1",
         "--chunk-positions", "1000", "--nodes", "60")
    data = tmp_path / "data"
    data.mkdir()
    (data / "variant").write_text("normal\n")
    (data / "made-by").write_text("test: the evaluation plus 150 a knight\n")

    def extra(board: str) -> int:
        return 150 * (board.count("N") - board.count("n"))
    from xboard_engine.search import evaluation
    shipped = evaluation.net_for("orthodox")
    evaluation.set_net("orthodox", None)     # the labels, as fit_net's base, are of the evaluation without a net
    for chunk in (0, 1):
        lines = []
        for fen in (source / f"positions-000{chunk}.fen").read_text().split("\n")[:-1]:
            stm = evaluate(Position.from_fen(fen))
            more = extra(fen.split()[0])
            lines.append(f"{fen};{stm + (more if ' w ' in fen else -more)}")
        (data / f"labels-000{chunk}.txt").write_text("\n".join(lines) + "\n")
    evaluation.set_net("orthodox", shipped)
    output = tmp_path / "net.json"
    run = _run("scripts/fit_net.py", "--set", "orthodox", str(data), "--epochs", "30", "--rate", "0.03",
               "--held-out", "800", "--write", "--output", str(output))
    kept = [line for line in run.stdout.splitlines() if line.startswith("kept epoch")][0].split()
    before, after = float(kept[-3]), float(kept[-1])
    assert after < 0.6 * before, run.stdout
    import json
    from xboard_engine.search.evaluation_net import Net
    stored = json.loads(output.read_text())
    assert stored["made by"]["positions made by"] == ["test: the evaluation plus 150 a knight"]
    assert stored["made by"]["command"].startswith("python scripts/fit_net.py --set orthodox")
    from test_evaluation import mirrored
    extra_knight = "r1bqkb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    some = (source / "positions-0001.fen").read_text().split("\n")[:200]
    try:
        evaluation.set_net("orthodox", None)
        plain = _white(extra_knight)
        evaluation.set_net("orthodox", Net(stored["net"]))
        netted = _white(extra_knight)
        # The twins make the net colour-blind: a mirrored position is worth exactly as much to its mover.
        for fen in some:
            assert evaluate(Position.from_fen(fen)) == evaluate(Position.from_fen(mirrored(fen)))
    finally:
        evaluation.set_net("orthodox", shipped)
    assert netted - plain > 25          # of the ~120 the scaled labels add (1,200 training positions)


def test_games_results_are_recorded_and_blended_into_the_fit(tmp_path):
    """``distill.py`` writes, line by line with the positions, the result for White of the game each
    came from; with ``--result-share`` the fit aims at the blend of label and result: labels that are
    the evaluation itself teach nothing, results that White wins whenever White has the more knights
    raise the knight, and without the share they do not."""
    source = tmp_path / "src"
    _run("scripts/distill.py", "positions", "normal", "--dir", str(source), "--chunks", "0-1",
         "--chunk-positions", "600", "--nodes", "60")
    for chunk in (0, 1):
        fens = (source / f"positions-000{chunk}.fen").read_text().split("\n")[:-1]
        results = (source / f"results-000{chunk}.txt").read_text().split("\n")[:-1]
        assert len(results) == len(fens) and set(results) <= {"1", "0.5", "0"} and len(set(results)) > 1
    data = tmp_path / "data"
    data.mkdir()
    (data / "variant").write_text("normal\n")
    imbalanced = []
    for chunk in (0, 1):
        labels, results = [], []
        for fen in (source / f"positions-000{chunk}.fen").read_text().split("\n")[:-1]:
            board = fen.split()[0]
            more = board.count("N") - board.count("n")
            labels.append(f"{fen};{evaluate(Position.from_fen(fen))}")
            results.append("1" if more > 0 else "0" if more < 0 else "0.5")
            if more and chunk == 1:
                imbalanced.append(fen)
        (data / f"labels-000{chunk}.txt").write_text("\n".join(labels) + "\n")
        (data / f"results-000{chunk}.txt").write_text("\n".join(results) + "\n")
    assert len(imbalanced) > 10
    gains = {}
    for share in ("0", "0.5"):
        weights = tmp_path / f"weights-{share}.json"
        run = _run("scripts/fit_tables.py", "--set", "orthodox", str(data), "--steps", "200", "--rate", "3",
                   "--pull", "0.001", "--held-out", "300", "--result-share", share, "--write",
                   "--output", str(weights), check=False)
        if share == "0":                    # nothing to learn: the held-out error cannot fall
            assert run.returncode == 1 and "did not fall" in run.stderr and not weights.exists()
            gains[share] = 0.0
            continue
        assert run.returncode == 0, run.stderr
        import json
        made_by = json.loads(weights.read_text())["sets"]["orthodox"]["made by"]
        assert made_by["result share"] == 0.5 and "with results" in made_by["label files"][0]
        before = [_white(fen) for fen in imbalanced]
        after = _white_with_fitted_set(weights, imbalanced)
        more = [fen.split()[0].count("N") - fen.split()[0].count("n") for fen in imbalanced]
        gains[share] = sum((a - b) / m for a, b, m in zip(after, before, more)) / len(more)
    assert gains["0.5"] > 30 and gains["0"] == 0.0, gains
    bad = _run("scripts/fit_tables.py", "--set", "orthodox", str(data), "--result-share", "2", check=False)
    assert bad.returncode != 0 and "between 0 and 1" in bad.stderr and "Traceback" not in bad.stderr
