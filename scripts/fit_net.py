#!/usr/bin/env python3
"""Train the small net of one weight set (``xboard_engine/search/evaluation_net.py``) on a teacher's scores.

The net corrects the evaluation as it is: for each labelled position (``scripts/distill.py``) the target
is the teacher's score, scaled to the evaluation's centipawns as ``fit_tables.py`` scales it, and the
net learns what the evaluation misses.  Every position is also used with the colours swapped (the board
mirrored, the score negated), so the net learns no colour bias.  Minibatch Adam in numpy on the squared
difference of expected results; the last ``--held-out`` positions of each directory are held out, and
the epoch with the lowest held-out error is kept.  The weights are then rounded to the integers the
engine uses and the real evaluation's held-out error is printed before and after.

    python scripts/fit_net.py --set orthodox ~/distill/normal --write

``--write`` stores ``xboard_engine/search/nets/SET.json`` with this command, the seed, the teacher and the label
counts.  Keep a net only after a match says it plays better (held-out error does not tell).
"""
import argparse
import math
import os
import shlex
import sys
import time
from typing import Dict, List, Sequence, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)

from fit_tables import USED, label_scale, labels_made_by, split_labels, white_eval   # noqa: E402
from xboard_engine import Position                                            # noqa: E402
from xboard_engine.search import evaluation                                          # noqa: E402
from xboard_engine.core.board import BLACK, OFF                                          # noqa: E402
from xboard_engine.search.evaluation_net import ACTIVATION, OUTPUT_ONE, Net, unit_key  # noqa: E402
from xboard_engine.core.variant import get_variant                                # noqa: E402

C = math.log(10.0) / 400.0
MAX_UNITS = 48                     # feature slots per position (unused ones point at a zero row)


class Features:
    """Feature numbering: unit key by key, then square (rank by rank from White's first, file by file);
    ``mirror`` maps each feature to the same unit of the other colour on the rank-mirrored square."""

    def __init__(self, variant: str) -> None:
        import numpy as np
        v = self.v = get_variant(variant)
        codes = [c for c in range(1, OFF) if v.kind_of[c] is not None]
        self.keys = sorted({unit_key(v, c) for c in codes})
        self.squares = v.files * v.ranks
        self.count = len(self.keys) * self.squares
        other_key = {}
        for c in codes:
            step = v.facing_step[c]
            dr = int(round(step / v.stride))
            mirrored_step = (step - dr * v.stride) - dr * v.stride
            twins = [d for d in codes if v.kind_of[d] is v.kind_of[c] and (d > BLACK) != (c > BLACK)
                     and v.facing_step[d] == mirrored_step]
            if len(twins) != 1:
                raise SystemExit(f"fit_net.py: no single mirror image of {unit_key(v, c)} in {variant}")
            other_key[unit_key(v, c)] = unit_key(v, twins[0])
        mirror = np.arange(self.count + 1)
        for k, key in enumerate(self.keys):
            j = self.keys.index(other_key[key])
            for r in range(v.ranks):
                for f in range(v.files):
                    mirror[k * self.squares + r * v.files + f] = j * self.squares + (v.ranks - 1 - r) * v.files + f
        self.mirror = mirror

    def of(self, pos: Position) -> List[int]:
        v = self.v
        return [self.keys.index(unit_key(v, pos.board[sq])) * self.squares + v.rank_of[sq] * v.files + v.file_of[sq]
                for side in (0, 1) for sq in pos.units[side]]


def build(features: Features, pairs: List[Tuple[str, float]]):
    """(feature slots, mirrored feature slots, base evaluation, target) arrays for ``pairs``."""
    import numpy as np
    slots = np.full((len(pairs), MAX_UNITS), features.count, dtype=np.int32)
    base, target = [], []
    for i, (fen, t) in enumerate(pairs):
        pos = Position.from_fen(fen, features.v.name)
        row = features.of(pos)[:MAX_UNITS]
        slots[i, :len(row)] = row
        base.append(white_eval(pos))
        target.append(t)
    return slots, features.mirror[slots], np.array(base, dtype=np.float32), np.array(target, dtype=np.float32)


class Model:
    """The float net, colour-blind by construction: ``half`` hidden units with first layer W (features
    + 1 rows, the last zero) and biases b see the board; their twins see it mirrored with the colours
    swapped (the same weights on the mirror features) and count against (output -u).  Mirroring a
    position swaps each unit with its twin, so the output changes sign exactly."""

    def __init__(self, count: int, half: int, seed: int) -> None:
        import numpy as np
        rng = np.random.default_rng(seed)
        self.params = {"W": (rng.standard_normal((count + 1, half)) * 0.05).astype(np.float32),
                       "b": np.full(half, 0.5, dtype=np.float32),
                       "u": (rng.standard_normal(half) * 0.01).astype(np.float32)}
        self.params["W"][count] = 0.0
        self.count = count
        self.m = {k: np.zeros_like(x) for k, x in self.params.items()}
        self.s = {k: np.zeros_like(x) for k, x in self.params.items()}
        self.step = 0

    def forward(self, slots, mirrored):
        import numpy as np
        W, b, u = self.params["W"], self.params["b"], self.params["u"]
        a1 = W[slots].sum(axis=1) + b
        a2 = W[mirrored].sum(axis=1) + b
        h1, h2 = np.clip(a1, 0.0, 1.0), np.clip(a2, 0.0, 1.0)
        return a1, a2, h1, h2, 100.0 * ((h1 - h2) @ u)

    def error(self, data) -> float:
        import numpy as np
        slots, mirrored, base, target = data
        total = 0.0
        for start in range(0, len(base), 8192):
            sl = slice(start, start + 8192)
            out = self.forward(slots[sl], mirrored[sl])[4]
            p = 1.0 / (1.0 + np.exp(-C * (base[sl] + out)))
            want = 1.0 / (1.0 + np.exp(-C * target[sl]))
            total += float(((p - want) ** 2).sum())
        return total / len(base)

    def train_batch(self, slots, mirrored, base, target, rate: float, decay: float) -> None:
        import numpy as np
        a1, a2, h1, h2, out = self.forward(slots, mirrored)
        p = 1.0 / (1.0 + np.exp(-C * (base + out)))
        want = 1.0 / (1.0 + np.exp(-C * target))
        g_out = (2.0 * (p - want) * p * (1.0 - p) * C * 100.0 / len(base)).astype(np.float32)
        P = self.params
        grads = {"u": (h1 - h2).T @ g_out}
        g_a1 = np.outer(g_out, P["u"]) * ((a1 > 0.0) & (a1 < 1.0))
        g_a2 = -np.outer(g_out, P["u"]) * ((a2 > 0.0) & (a2 < 1.0))
        grads["b"] = g_a1.sum(axis=0) + g_a2.sum(axis=0)
        g_w = np.zeros_like(P["W"])
        width = slots.shape[1]
        np.add.at(g_w, slots.ravel(), np.repeat(g_a1, width, axis=0))
        np.add.at(g_w, mirrored.ravel(), np.repeat(g_a2, width, axis=0))
        g_w[self.count] = 0.0
        g_w += decay * P["W"]
        grads["W"] = g_w
        self.step += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.s[k] = 0.999 * self.s[k] + 0.001 * g * g
            mh = self.m[k] / (1 - 0.9 ** self.step)
            sh = self.s[k] / (1 - 0.999 ** self.step)
            P[k] -= rate * mh / (np.sqrt(sh) + 1e-8)

    def integers(self, features: Features) -> Dict:
        """The net as ``evaluation_net.Net`` reads it: the units, then their twins (each twin's column
        of a feature is the unit's column of the mirror feature), rounded once so that the twins stay
        exact mirror images."""
        import numpy as np
        P = self.params
        W = np.clip(np.rint(P["W"] * ACTIVATION), -2000, 2000).astype(int)
        full = np.concatenate([W, W[features.mirror]], axis=1)
        first = {}
        for k, key in enumerate(features.keys):
            rows = full[k * features.squares:(k + 1) * features.squares]
            if np.any(rows):
                first[key] = rows.tolist()
        bias = np.rint(P["b"] * ACTIVATION).astype(int).tolist()
        out = np.rint(P["u"] * 100.0 * OUTPUT_ONE).astype(int).tolist()
        return {"hidden": 2 * len(bias), "first": first, "bias": bias + bias,
                "output": out + [-x for x in out], "output bias": 0}


def real_error(variant: str, name: str, pairs, net) -> float:
    evaluation.set_net(name, net)
    total = 0.0
    for fen, target in pairs:
        pos = Position.from_fen(fen, variant)
        want = 1.0 / (1.0 + 10.0 ** (-target / 400.0))
        total += (want - 1.0 / (1.0 + 10.0 ** (-white_eval(pos) / 400.0))) ** 2
    return total / max(1, len(pairs))


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", nargs="+", help="directories of labelled chunks (distill.py --dir)")
    parser.add_argument("--set", required=True, dest="name", help="the weight set (orthodox, ...)")
    parser.add_argument("--hidden", type=int, default=16, help="hidden units, an even number: half of them the mirrored twins of the others (16)")
    parser.add_argument("--epochs", type=int, default=12, help="passes over the training positions (12)")
    parser.add_argument("--batch", type=int, default=1024, help="positions per step (1024)")
    parser.add_argument("--rate", type=float, default=1e-3, help="Adam's step (0.001)")
    parser.add_argument("--decay", type=float, default=1e-4, help="pull of first-layer weights to 0 (1e-4)")
    parser.add_argument("--held-out", type=int, default=5000, help="positions held out of each directory (5000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the initial weights and the order (1)")
    parser.add_argument("--write", action="store_true", help="store the net in xboard_engine/search/nets/SET.json")
    parser.add_argument("--output", help="where --write stores the net (xboard_engine/search/nets/SET.json)")
    args = parser.parse_args(list(argv) or None)
    try:
        import numpy as np
    except ImportError:
        parser.error("numpy is needed (pip install numpy; run under CPython)")
    started = time.time()
    evaluation.set_net(args.name, None)
    train, held, variants = split_labels(parser, args.dirs, args.name, args.held_out)
    train = [(f, t) for f, t, _ in train]       # the net learns the labels alone (no game results)
    held = [(f, t) for f, t, _ in held]
    variant = sorted(variants)[0]
    features = Features(variant)
    base = np.array([white_eval(Position.from_fen(f, variant)) for f, _ in train], dtype=np.float64)
    scale = label_scale(base, np.array([t for _, t in train], dtype=np.float64))
    train = [(f, scale * t) for f, t in train]
    held = [(f, scale * t) for f, t in held]
    if args.hidden % 2:
        parser.error("--hidden must be even: the units come in mirrored twins")
    data = build(features, train)
    held_data = build(features, held)
    print(f"set {args.name} ({variant}): {len(train)} training positions, "
          f"{len(held)} held out, labels scaled by {scale:.3f} ({time.time() - started:.0f} s)", flush=True)
    model = Model(features.count, args.hidden // 2, args.seed)
    rng = np.random.default_rng(args.seed)
    best = (model.error(held_data), 0, {k: x.copy() for k, x in model.params.items()})
    print(f"epoch 0: held-out {best[0]:.6f}", flush=True)
    for epoch in range(1, args.epochs + 1):
        order = rng.permutation(len(data[2]))
        for start in range(0, len(order), args.batch):
            pick = order[start:start + args.batch]
            model.train_batch(data[0][pick], data[1][pick], data[2][pick], data[3][pick], args.rate, args.decay)
        err = model.error(held_data)
        print(f"epoch {epoch}: training {model.error(tuple(x[:50000] for x in data)):.6f}, held-out {err:.6f} "
              f"({time.time() - started:.0f} s)", flush=True)
        if err < best[0]:
            best = (err, epoch, {k: x.copy() for k, x in model.params.items()})
    model.params = best[2]
    net_data = model.integers(features)
    before = real_error(variant, args.name, held, None)
    after = real_error(variant, args.name, held, Net(net_data))
    print(f"kept epoch {best[1]}; the real evaluation's held-out error {before:.6f} -> {after:.6f}")
    if args.write:
        if after >= before:
            print("fit_net.py: the held-out error did not fall; no net written", file=sys.stderr)
            return 1
        path = args.output or os.path.join(evaluation.NETS_DIR, args.name + ".json")
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        made_by = {"command": "python scripts/fit_net.py " + " ".join(shlex.quote(a) for a in (list(argv) or sys.argv[1:])),
                   "positions made by": labels_made_by(args.dirs), "label files": USED,
                   "label scale": round(scale, 4), "seed": args.seed, "epoch kept": best[1],
                   "training positions": len(train), "hidden units": args.hidden, "held-out positions": len(held),
                   "held-out error": [round(before, 6), round(after, 6)]}
        evaluation.write_fitted(path, {"made by": made_by, "net": net_data})
        print(f"written to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
