#!/usr/bin/env python3
"""Distil one weight set of the evaluation from a teacher's scores (``scripts/distill.py``).

The model is the evaluation itself: every square of every piece kind's middlegame and endgame table
(a correction on top of the set's tables now) and the set's weights of several units (pawn structure,
king shield, open files, bishop pair, jailers, the side to move).  Each labelled position says how
the evaluation of White's view moves per centipawn of each: a table entry by the unit's share of the
middlegame or endgame (the phase), a weight by moving it and evaluating again.  The corrections are
fitted to the squared difference of expected results, ``1 / (1 + 10 ** (-score / 400))`` of the
teacher's score (scaled first to the evaluation's centipawns: ``label_scale``) and of the
evaluation's, with a pull towards no correction (ridge), by full-batch Adam steps in numpy.  With
``--result-share S`` the expected result aimed at is ``(1 - S)`` of the label's and ``S`` of the game's
result (self-distillation, where our own search labels: its deeper score and what came of the game).  The last positions of each directory (``--held-out``: those of the last games
played) are held out; the errors printed for them are the real evaluation's, after the fitted
numbers are rounded and put in.

    python scripts/fit_tables.py --set orthodox ~/distill/normal --write

Run it under CPython (numpy is a development extra: ``pip install numpy``).  ``--write`` stores the set
in ``xboard_engine/search/weights.json`` with this command and the teacher, label and position counts.  Keep
a set only after a match says it plays better.
"""
import argparse
import glob
import json
import math
import os
import shlex
import sys
import time
from typing import Dict, List, Optional, Sequence, Tuple

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from xboard_engine import Position                                          # noqa: E402
from xboard_engine.search import evaluation                                        # noqa: E402
from xboard_engine.core.board import OFF                                       # noqa: E402
from xboard_engine.search.evaluation import (EG_SHIFT, PHASE_SHIFT, WEIGHTS, evaluate, max_phase,  # noqa: E402
                                      set_weights, weights_for)
from xboard_engine.core.variant import get_variant, variant_names               # noqa: E402

# The weights of several units (those of single units are the tables themselves).
TERMS = ["passed_mg", "passed_eg", "doubled_mg", "doubled_eg", "isolated_mg", "isolated_eg", "shield_mg",
         "open_file_mg", "half_open_file_mg", "bishop_pair_mg", "bishop_pair_eg", "held_unit",
         "held_king_mg", "held_king_eg", "tempo"]
PROBE = 50
CAP = 2000                  # labels beyond this (and mates) are left out: nothing to learn
USED: List[str] = []        # the label files read, with their counts (stored with the set)
BATCH = 20000               # positions measured at once (the probes rebuild the tables per batch)


def read_labels(directory: str) -> Tuple[str, List[List[Tuple[str, int, Optional[float]]]]]:
    """The directory's variant and, per chunk, its (FEN, White's score, White's game result or None)
    triples within the cap (the results are ``distill.py``'s ``results-N.txt``, line by line with the
    positions, where a chunk has them; each chunk's file name and count are noted in ``USED`` for the
    provenance)."""
    with open(os.path.join(directory, "variant"), encoding="utf-8") as handle:
        variant = handle.read().strip()
    chunks = []
    for path in sorted(glob.glob(os.path.join(directory, "labels-*.txt"))):
        results: List[Optional[float]] = []
        results_path = path.replace("labels-", "results-")
        if os.path.exists(results_path):
            with open(results_path, encoding="utf-8") as handle:
                results = [float(line) for line in handle if line.strip()]
        triples = []
        with open(path, encoding="utf-8") as handle:
            for number, line in enumerate(handle):
                fen, _, score = line.strip().rpartition(";")
                if not fen or score.startswith("#"):
                    continue
                cp = int(score)
                if abs(cp) > CAP:
                    continue
                result = results[number] if number < len(results) else None
                triples.append((fen, cp if fen.split()[1] == "w" else -cp, result))
        chunks.append(triples)
        USED.append(f"{os.path.basename(path)}: {len(triples)} positions"
                    + (", with results" if results else ""))
    return variant, chunks


def split_labels(parser, dirs: Sequence[str], name: str, held_out: int):
    """(training pairs, held-out pairs, variants) of the directories: each directory's last ``held_out``
    positions held out, repeats of a training position dropped from both."""
    train, held, variants = [], [], set()
    for d in dirs:
        variant, chunks = read_labels(d)
        variants.add(variant)
        if get_variant(variant).evaluation != name:
            parser.error(f"{d} holds {variant} positions, which do not use the set {name}")
        positions = [p for chunk in chunks for p in chunk]
        if len(positions) < 2 * held_out:
            parser.error(f"{d}: {len(positions)} labelled positions, too few to hold {held_out} out")
        train += positions[:-held_out]
        held += positions[-held_out:]
    seen = set()
    train = [p for p in train if not (" ".join(p[0].split()[:4]) in seen or seen.add(" ".join(p[0].split()[:4])))]
    held = [p for p in held if " ".join(p[0].split()[:4]) not in seen]
    return train, held, variants


class Layout:
    """Where each fitted number sits in one vector: per piece kind, a correction per square, per file
    and per rank (each square's correction is the sum of the three: the file and rank parts are
    learnt from every unit on them, so a square seldom stood on is not left to its few positions),
    middlegame and endgame; then the weights of several units."""

    def __init__(self, variant: str) -> None:
        v = self.v = get_variant(variant)
        self.kinds = sorted({v.kind_of[c].name.replace("2019", "") for c in range(1, OFF)
                             if v.kind_of[c] is not None})
        self.squares = v.files * v.ranks
        self.lines = v.files + v.ranks
        self.tables = len(self.kinds) * self.squares * 2
        self.terms = self.tables + len(self.kinds) * self.lines * 2
        self.size = self.terms + len(TERMS)
        self.full = max_phase(v)
        self.slot = {}
        for code in range(1, len(v.kind_of)):
            kind = v.kind_of[code]
            if kind is not None:
                self.slot[code] = self.kinds.index(kind.name.replace("2019", ""))

    def features(self, pos: Position) -> Tuple[List[int], List[float]]:
        """The numbers a position's units use, and their weights in White's score."""
        v = self.v
        s = evaluation.split_net(pos.score)
        phase = (s + (1 << (PHASE_SHIFT - 1))) >> PHASE_SHIFT
        share = min(phase, self.full) / self.full
        index, coef = [], []
        for side in (0, 1):
            sign = 1.0 if side == 0 else -1.0
            mg, eg = sign * share, sign * (1.0 - share)
            for sq in pos.units[side]:
                slot = self.slot[pos.board[sq]]
                f, r = v.file_of[sq], v.rank_of[sq]
                advance = r if side == 0 else v.ranks - 1 - r
                square = (slot * self.squares + advance * v.files + f) * 2
                file = self.tables + (slot * self.lines + f) * 2
                rank = self.tables + (slot * self.lines + v.files + advance) * 2
                index += [square, square + 1, file, file + 1, rank, rank + 1]
                coef += [mg, eg, mg, eg, mg, eg]
        return index, coef

    def pulls(self, pull: float, square_pull: float):
        """Each number's pull: the squares' ``square_pull`` times the files', ranks' and terms'."""
        import numpy as np
        out = np.full(self.size, pull)
        out[:self.tables] *= square_pull
        return out

    def correction(self, x, slot: int, index: int, phase: int) -> float:
        """The fitted correction of square ``index`` (from the owner's side) of kind ``slot``."""
        files = self.v.files
        f, r = index % files, index // files
        return (x[(slot * self.squares + index) * 2 + phase] + x[self.tables + (slot * self.lines + f) * 2 + phase]
                + x[self.tables + (slot * self.lines + files + r) * 2 + phase])


def white_eval(pos: Position) -> int:
    score = evaluate(pos)
    return -score if pos.stm else score


def measure(layout: Layout, name: str, pairs: List[Tuple[str, int]], weights: Dict[str, int]):
    """Per position: its evaluation now, its table features, and its term features (by probing)."""
    import numpy as np
    base = np.zeros(len(pairs))
    rows_i, rows_c, rows_n = [], [], []
    for start in range(0, len(pairs), BATCH):
        batch = [Position.from_fen(p[0], layout.v.name) for p in pairs[start:start + BATCH]]
        set_weights(weights, name)
        for pos in batch:
            pos.score = pos.compute_score()
        now = [white_eval(p) for p in batch]
        extra: List[List[Tuple[int, float]]] = [[] for _ in batch]
        for j, term in enumerate(TERMS):
            set_weights(dict(weights, **{term: weights[term] + PROBE}), name)
            for k, pos in enumerate(batch):
                d = white_eval(pos) - now[k]
                if d:
                    extra[k].append((layout.terms + j, d / PROBE))
        set_weights(weights, name)
        for k, pos in enumerate(batch):
            pos.score = pos.compute_score()
            index, coef = layout.features(pos)
            for i, c in extra[k]:
                index.append(i)
                coef.append(c)
            base[start + k] = now[k]
            rows_i.append(index)
            rows_c.append(coef)
            rows_n.append(len(index))
    lengths = np.array(rows_n)
    flat_i = np.fromiter((i for row in rows_i for i in row), dtype=np.int64, count=int(lengths.sum()))
    flat_c = np.fromiter((c for row in rows_c for c in row), dtype=np.float64, count=int(lengths.sum()))
    row_of = np.repeat(np.arange(len(pairs)), lengths)
    return base, flat_i, flat_c, row_of


def fit(layout: Layout, data, want, pull, steps: int, rate: float):
    """The corrections minimising the summed squared error of expected results (``want``) plus, per number,
    its ``pull`` times its square in pawns (a correction of 100 costs as much as ``pull`` positions
    missed entirely): full-batch Adam."""
    import numpy as np
    base, flat_i, flat_c, row_of = data
    scale = math.log(10.0) / 400.0
    x = np.zeros(layout.size)
    m = np.zeros(layout.size)
    s = np.zeros(layout.size)
    n = len(want)
    for step in range(1, steps + 1):
        score = base + np.bincount(row_of, weights=flat_c * x[flat_i], minlength=n)
        p = 1.0 / (1.0 + np.exp(-scale * score))
        g_row = 2.0 * (p - want) * p * (1.0 - p) * scale
        grad = np.bincount(flat_i, weights=flat_c * g_row[row_of], minlength=layout.size)
        grad += 2.0 * pull * x / 10000.0            # pull: one number per fitted number
        m = 0.9 * m + 0.1 * grad
        s = 0.999 * s + 0.001 * grad * grad
        x -= rate * (m / (1 - 0.9 ** step)) / (np.sqrt(s / (1 - 0.999 ** step)) + 1e-12)
    return x


def label_scale(base, labels) -> float:
    """The factor that puts the teacher's centipawns on the evaluation's scale: the one with which the
    evaluation as it is fits the labels best (golden-section search).  The search's margins are in
    the evaluation's centipawns; the fit then learns only what the teacher values differently."""
    import numpy as np
    c = math.log(10.0) / 400.0
    ours = 1.0 / (1.0 + np.exp(-c * base))

    def err(s: float) -> float:
        return float(np.mean((ours - 1.0 / (1.0 + np.exp(-c * s * labels))) ** 2))
    lo, hi = 0.2, 5.0
    for _ in range(40):
        a, b = hi - (hi - lo) / 1.618, lo + (hi - lo) / 1.618
        if err(a) < err(b):
            hi = b
        else:
            lo = a
    return (lo + hi) / 2


def expected(score: float, result: Optional[float], result_share: float) -> float:
    """What a position's evaluation should predict: the expected result of the (scaled) label, blended
    with the game's result where it is known."""
    from_label = 1.0 / (1.0 + 10.0 ** (-score / 400.0))
    if result is None:
        return from_label
    return (1.0 - result_share) * from_label + result_share * result


def real_error(layout: Layout, name: str, pairs, weights, tables) -> float:
    """The evaluation's own mean squared error on ``pairs`` of (FEN, expected result)."""
    set_weights(weights, name, tables)
    total = 0.0
    for fen, want in pairs:
        pos = Position.from_fen(fen, layout.v.name)
        total += (want - 1.0 / (1.0 + 10.0 ** (-white_eval(pos) / 400.0))) ** 2
    return total / max(1, len(pairs))


def apply(layout: Layout, x, weights: Dict[str, int], tables) -> Tuple[Dict[str, int], Dict]:
    """The set with the corrections ``x`` rounded and added."""
    new_tables = {}
    for k, kind in enumerate(layout.kinds):
        old_mg, old_eg = tables.get(kind, ([0] * layout.squares, [0] * layout.squares))
        mg, eg = [], []
        for sq in range(layout.squares):
            mg.append(old_mg[sq] + int(round(layout.correction(x, k, sq, 0))))
            eg.append(old_eg[sq] + int(round(layout.correction(x, k, sq, 1))))
        new_tables[kind] = (mg, eg)
    new_weights = dict(weights)
    for j, term in enumerate(TERMS):
        new_weights[term] = weights[term] + int(round(x[layout.terms + j]))
    return new_weights, new_tables


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", nargs="+", help="directories of labelled chunks (distill.py --dir)")
    parser.add_argument("--set", required=True, dest="name", help="the weight set (orthodox, 8piece, ...)")
    parser.add_argument("--pull", type=float, nargs="+", default=[0.1, 1.0, 10.0],
                        help="pulls towards no correction to try; the best on the held-out positions is kept")
    parser.add_argument("--held-out", type=int, default=5000,
                        help="positions held out of each directory: its last ones (5000)")
    parser.add_argument("--square-pull", type=float, default=10.0,
                        help="a square's own correction is pulled this many times harder than those of "
                             "files, ranks and terms (10)")
    parser.add_argument("--steps", type=int, default=600, help="Adam steps (600)")
    parser.add_argument("--rate", type=float, default=2.0, help="Adam's step, centipawns (2)")
    parser.add_argument("--result-share", type=float, default=0.0,
                        help="share of the game's result in what a position should predict, where "
                             "distill.py recorded it (0: the label alone)")
    parser.add_argument("--write", action="store_true", help="store the set in weights.json")
    parser.add_argument("--output", default=evaluation.WEIGHTS_FILE)
    args = parser.parse_args(list(argv) or None)
    if not 0.0 <= args.result_share <= 1.0:
        parser.error(f"--result-share must be between 0 and 1, not {args.result_share}")
    try:
        import numpy as np
    except ImportError:
        parser.error("numpy is needed (pip install numpy; run under CPython)")
    train, held, variants = split_labels(parser, args.dirs, args.name, args.held_out)
    layout = Layout(sorted(variants)[0])
    started = time.time()
    weights = weights_for(layout.v)
    tables = dict(evaluation.FITTED_TABLES.get(args.name, {}))
    data = measure(layout, args.name, train, weights)
    scale = label_scale(data[0], np.array([t for _, t, _ in train], dtype=np.float64))
    want = np.array([expected(scale * t, r, args.result_share) for _, t, r in train], dtype=np.float64)
    held = [(fen, expected(scale * t, r, args.result_share)) for fen, t, r in held]
    print(f"set {args.name} ({', '.join(sorted(variants))}): {len(train)} training and {len(held)} "
          f"held-out positions, {len(data[1]) / len(train):.1f} features each ({time.time() - started:.0f} s)",
          flush=True)
    before = real_error(layout, args.name, held, weights, tables)
    print(f"labels scaled by {scale:.3f}; held-out error now {before:.6f}", flush=True)
    best = None
    for pull in args.pull:
        x = fit(layout, data, want, layout.pulls(pull, args.square_pull), args.steps, args.rate)
        trial = apply(layout, x, weights, tables)
        err = real_error(layout, args.name, held, *trial)
        print(f"pull {pull:g}: held-out {err:.6f} ({time.time() - started:.0f} s)", flush=True)
        if best is None or err < best[0]:
            best = (err, pull, trial)
    err, pull, (new_weights, new_tables) = best
    set_weights(weights, args.name, tables)
    print("terms:", ", ".join(f"{t} {weights[t]}->{new_weights[t]}" for t in TERMS if new_weights[t] != weights[t]))
    if args.write:
        if err >= before:
            print("fit_tables.py: the held-out error did not fall; weights.json left as it was", file=sys.stderr)
            return 1
        teacher = labels_made_by(args.dirs)
        write_set(args.output, args.name, new_weights, new_tables, {
            "command": "python scripts/fit_tables.py " + " ".join(shlex.quote(a) for a in (list(argv) or sys.argv[1:])),
            "positions made by": teacher, "label files": USED, "pull": pull, "square pull": args.square_pull,
            "label scale": round(scale, 4), "steps": args.steps, "result share": args.result_share,
            "training positions": len(train), "held-out positions": len(held),
            "held-out error": [round(before, 6), round(err, 6)]})
        print(f"written to {args.output}")
    return 0


def labels_made_by(dirs: Sequence[str]) -> List[str]:
    """What each directory's ``made-by`` file says (the distill.py commands and the teacher)."""
    notes = []
    for d in dirs:
        try:
            with open(os.path.join(d, "made-by"), encoding="utf-8") as handle:
                notes += [line.strip() for line in handle if line.strip()]
        except OSError:
            notes.append(f"{d}: no made-by file")
    return notes


def tables_were_fitted(made_by: Dict[str, object]) -> bool:
    return str(made_by.get("command", "")).startswith("python scripts/fit_tables.py")


def write_set(path: str, name: str, weights: Dict[str, int], tables, made_by: Dict[str, object]) -> None:
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except FileNotFoundError:
        data = {"sets": {}}
    try:
        with open(evaluation.WEIGHTS_FILE, encoding="utf-8") as handle:
            previous = json.load(handle)["sets"].get(name, {}).get("made by")
    except FileNotFoundError:
        previous = None
    if previous and tables_were_fitted(previous):
        made_by = dict(made_by, **{"started from": previous})    # the corrections are on top of it
    data["sets"][name] = {
        "made by": made_by,
        "weights": {w: x for w, x in sorted(weights.items()) if x != WEIGHTS[w]},
        "tables": {kind: {"mg": mg, "eg": eg} for kind, (mg, eg) in sorted(tables.items())}}
    evaluation.write_fitted(path, data)


if __name__ == "__main__":
    sys.exit(main())
