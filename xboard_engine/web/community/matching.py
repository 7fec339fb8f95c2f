"""Maximum-weight matching of a general graph (Edmonds' blossom algorithm, primal-dual, O(n^3)), and
the matching of least lexicographic cost the tournament pairing is built on (``pairing.py``).  Pure
functions, standard library only."""
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

__all__ = ["max_weight_matching", "min_cost_matching", "lexicographic"]



def max_weight_matching(n: int, edges: Iterable[Tuple[int, int, int]]) -> List[int]:
    """The matching of the vertices 0..n-1 that has the most edges and, among those, the greatest
    total weight; ``edges`` are (i, j, integer weight).  Returns each vertex's mate, -1 if none.

    >>> max_weight_matching(4, [(0, 1, 5), (1, 2, 9), (2, 3, 5)])
    [1, 0, 3, 2]
    """
    weight = [[0] * n for _ in range(n)]
    adj: List[List[int]] = [[] for _ in range(n)]
    top = None
    for i, j, w in edges:
        if i == j:
            continue
        if j not in adj[i]:
            adj[i].append(j)
            adj[j].append(i)
        elif w <= weight[i][j]:
            continue
        weight[i][j] = weight[j][i] = w
        top = w if top is None or w > top else top
    if top is None:
        return [-1] * n

    m = 2 * n                                   # vertices 0..n-1, blossoms n..2n-1
    dual = [top] * n + [0] * n                  # slack(v, w) = dual[v] + dual[w] - 2 weight
    mate = [-1] * n
    label = [0] * m                             # 0 free, 1 S (outer), 2 T (inner); 5: S on a scan
    labeledge: List[Optional[Tuple[int, int]]] = [None] * m   # (vertex outside, vertex inside)
    inb = list(range(n))                        # each vertex's outermost blossom
    parent = [-1] * m
    childs: List[Optional[List[int]]] = [None] * m
    links: List[Optional[List[Tuple[int, int]]]] = [None] * m  # links[b][i]: child i -> child i+1
    base = list(range(n)) + [-1] * n
    best: List[Optional[Tuple[int, int]]] = [None] * m
    bestlist: List[Optional[List[Tuple[int, int]]]] = [None] * m
    unused = list(range(m - 1, n - 1, -1))
    allowed = [[False] * n for _ in range(n)]
    queue: List[int] = []

    def slack(v: int, w: int) -> int:
        return dual[v] + dual[w] - 2 * weight[v][w]

    def leaves(b: int) -> List[int]:
        if b < n:
            return [b]
        out, stack = [], [b]
        while stack:
            x = stack.pop()
            if x < n:
                out.append(x)
            else:
                stack.extend(childs[x])
        return out

    def assign_label(w: int, t: int, v: int) -> None:
        b = inb[w]
        label[w] = label[b] = t
        labeledge[w] = labeledge[b] = None if v < 0 else (v, w)
        best[w] = best[b] = None
        if t == 1:
            queue.extend(leaves(b))
        else:
            bv = base[b]
            assign_label(mate[bv], 1, bv)

    def scan_blossom(v: int, w: int) -> int:
        """The base of the blossom that edge v-w closes, or -1 if it links two trees' roots."""
        path, found = [], -1
        while v != -1:
            b = inb[v]
            if label[b] & 4:
                found = base[b]
                break
            path.append(b)
            label[b] = 5
            edge = labeledge[b]
            v = -1 if edge is None else labeledge[inb[edge[0]]][0]
            if w != -1:
                v, w = w, v
        for b in path:
            label[b] = 1
        return found

    def add_blossom(bvertex: int, v: int, w: int) -> None:
        bb, bv, bw = inb[bvertex], inb[v], inb[w]
        b = unused.pop()
        base[b], parent[b], parent[bb] = bvertex, -1, b
        vpath, vedges, wpath, wedges = [], [], [], []
        while bv != bb:
            parent[bv] = b
            vpath.append(bv)
            vedges.append(labeledge[bv])
            bv = inb[labeledge[bv][0]]
        while bw != bb:
            parent[bw] = b
            wpath.append(bw)
            wedges.append(labeledge[bw])
            bw = inb[labeledge[bw][0]]
        kids = [bb] + vpath[::-1] + wpath
        childs[b] = kids
        links[b] = vedges[::-1] + [(v, w)] + [(y, x) for x, y in wedges]
        label[b], labeledge[b], dual[b] = 1, labeledge[bb], 0
        for x in leaves(b):
            if label[inb[x]] == 2:
                queue.append(x)
            inb[x] = b
        bestto: Dict[int, Tuple[int, int]] = {}
        for c in kids:
            cands = bestlist[c]
            if cands is None:
                cands = [(x, y) for x in leaves(c) for y in adj[x]]
            for x, y in cands:
                by = inb[y]
                if by != b and label[by] == 1:
                    cur = bestto.get(by)
                    if cur is None or slack(x, y) < slack(*cur):
                        bestto[by] = (x, y)
            bestlist[c] = None
            best[c] = None
        bestlist[b] = list(bestto.values())
        chosen = None
        for e in bestlist[b]:
            if chosen is None or slack(*e) < slack(*chosen):
                chosen = e
        best[b] = chosen

    def expand_blossom(b: int, endstage: bool) -> None:
        for c in childs[b]:
            parent[c] = -1
            if c < n:
                inb[c] = c
            elif endstage and dual[c] == 0:
                expand_blossom(c, endstage)
            else:
                for x in leaves(c):
                    inb[x] = c
        if not endstage and label[b] == 2:
            kids, ring = childs[b], links[b]
            out, inn = labeledge[b]
            entry = inb[inn]
            j = kids.index(entry)
            if j & 1:
                j -= len(kids)
                step = 1
            else:
                step = -1

            def link(a: int) -> Tuple[int, int]:
                if step == 1:
                    return ring[a]
                x, y = ring[a - 1]
                return y, x

            while j != 0:                       # relabel the even path from the entry to the base
                u, w = link(j)
                label[inn] = 0
                label[w] = 0
                assign_label(inn, 2, out)
                allowed[u][w] = allowed[w][u] = True
                j += step
                out, inn = link(j)
                allowed[out][inn] = allowed[inn][out] = True
                j += step
            bv = kids[j]
            label[inn] = label[bv] = 2
            labeledge[inn] = labeledge[bv] = (out, inn)
            best[bv] = None
            j += step
            while kids[j] != entry:             # the other side: children reached from outside
                bv = kids[j]
                if label[bv] == 1:
                    j += step
                    continue
                reached = -1
                for x in leaves(bv):
                    if label[x] != 0:
                        reached = x
                        break
                if reached >= 0:
                    label[reached] = 0
                    label[mate[base[bv]]] = 0
                    assign_label(reached, 2, labeledge[reached][0])
                j += step
        label[b], labeledge[b] = 0, None
        childs[b] = links[b] = None
        base[b] = -1
        bestlist[b] = None
        best[b] = None
        unused.append(b)

    def augment_blossom(b: int, v: int) -> None:
        """Rematch inside blossom b so that vertex v becomes its base."""
        t = v
        while parent[t] != b:
            t = parent[t]
        if t >= n:
            augment_blossom(t, v)
        kids, ring = childs[b], links[b]
        size = len(kids)
        i = kids.index(t)
        steps = range(i + 1, size, 2) if i & 1 else range(i - 2, -1, -2)
        for j in steps:
            x, y = ring[j]
            cx, cy = kids[j], kids[(j + 1) % size]
            if cx >= n:
                augment_blossom(cx, x)
            if cy >= n:
                augment_blossom(cy, y)
            mate[x], mate[y] = y, x
        childs[b] = kids[i:] + kids[:i]
        links[b] = ring[i:] + ring[:i]
        base[b] = v

    def augment_matching(v: int, w: int) -> None:
        for s, j in ((v, w), (w, v)):
            while True:
                bs = inb[s]
                if bs >= n:
                    augment_blossom(bs, s)
                mate[s] = j
                if labeledge[bs] is None:
                    break
                bt = inb[labeledge[bs][0]]
                s, j = labeledge[bt]
                if bt >= n:
                    augment_blossom(bt, j)
                mate[j] = s

    for _stage in range(n):
        for i in range(m):
            label[i] = 0
            best[i] = None
        for i in range(n, m):
            bestlist[i] = None
        for row in allowed:
            for i in range(n):
                row[i] = False
        del queue[:]
        for v in range(n):
            if mate[v] == -1 and label[inb[v]] == 0:
                assign_label(v, 1, -1)
        augmented = False
        while True:
            while queue and not augmented:
                v = queue.pop()
                for w in adj[v]:
                    bv, bw = inb[v], inb[w]
                    if bv == bw:
                        continue
                    ks = 0
                    if not allowed[v][w]:
                        ks = slack(v, w)
                        if ks <= 0:
                            allowed[v][w] = allowed[w][v] = True
                    if allowed[v][w]:
                        if label[bw] == 0:
                            assign_label(w, 2, v)
                        elif label[bw] == 1:
                            found = scan_blossom(v, w)
                            if found >= 0:
                                add_blossom(found, v, w)
                            else:
                                augment_matching(v, w)
                                augmented = True
                                break
                        elif label[w] == 0:
                            label[w] = 2
                            labeledge[w] = (v, w)
                    elif label[bw] == 1:
                        cur = best[bv]
                        if cur is None or ks < slack(*cur):
                            best[bv] = (v, w)
                    elif label[w] == 0:
                        cur = best[w]
                        if cur is None or ks < slack(*cur):
                            best[w] = (v, w)
            if augmented:
                break
            kind, delta, dedge, dblossom = 0, 0, None, -1
            for v in range(n):
                if label[inb[v]] == 0 and best[v] is not None:
                    d = slack(*best[v])
                    if kind == 0 or d < delta:
                        kind, delta, dedge = 2, d, best[v]
            for b in range(m):
                if parent[b] == -1 and label[b] == 1 and best[b] is not None:
                    d = slack(*best[b]) // 2
                    if kind == 0 or d < delta:
                        kind, delta, dedge = 3, d, best[b]
            for b in range(n, m):
                if base[b] >= 0 and parent[b] == -1 and label[b] == 2 and (kind == 0 or dual[b] < delta):
                    kind, delta, dblossom = 4, dual[b], b
            if kind == 0:                       # no augmenting path is left: optimum
                kind, delta = 1, max(0, min(dual[:n]))
            for v in range(n):
                lb = label[inb[v]]
                if lb == 1:
                    dual[v] -= delta
                elif lb == 2:
                    dual[v] += delta
            for b in range(n, m):
                if base[b] >= 0 and parent[b] == -1:
                    if label[b] == 1:
                        dual[b] += delta
                    elif label[b] == 2:
                        dual[b] -= delta
            if kind == 1:
                break
            if kind in (2, 3):
                x, y = dedge
                allowed[x][y] = allowed[y][x] = True
                queue.append(x)
            else:
                expand_blossom(dblossom, False)
        if not augmented:
            break
        for b in range(n, m):
            if parent[b] == -1 and base[b] >= 0 and label[b] == 1 and dual[b] == 0:
                expand_blossom(b, True)
    return mate


def lexicographic(costs: Sequence[Sequence[int]], games: int) -> List[int]:
    """One integer per cost vector, ordered as the vectors' sums over ``games`` edges compare
    lexicographically (each place's radix exceeds any total of the places after it)."""
    if not costs:
        return []
    places = len(costs[0])
    radix = [games * max(c[k] for c in costs) + 1 for k in range(places)]
    out = []
    for c in costs:
        value = 0
        for k in range(places):
            value = value * radix[k] + c[k]
        out.append(value)
    return out


def min_cost_matching(n: int, costs: Mapping[Tuple[int, int], Sequence[int]]) -> List[int]:
    """The matching with the most edges and, among those, the lexicographically smallest sum of
    the edges' cost vectors (non-negative integers)."""
    keys = list(costs)
    flat = lexicographic([costs[k] for k in keys], max(1, n // 2))
    top = max(flat, default=0) + 1
    return max_weight_matching(n, [(i, j, top - c) for (i, j), c in zip(keys, flat)])
