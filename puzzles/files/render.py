"""SVG pictures of puzzles and (partial) solutions.

Edge matching: each cell as four coloured triangles, grey for the border,
mismatched joins marked in red, cell names on the margins; without a solution
the pieces are laid out in file order.  Polyforms: one colour per piece with
the piece outlines drawn thick.  N-queens: a board with the queens.
"""

from __future__ import annotations

import colorsys
from xml.sax.saxutils import escape

from puzzles.kinds.edge import EdgePuzzle, rotate, row_label
from puzzles.kinds.latin import LatinPuzzle
from puzzles.kinds.magic import MagicPuzzle
from puzzles.kinds.polyform import PolyformPuzzle
from puzzles.kinds.queens import QueensPuzzle

# 0 is the grey border; then well-separated colours (Kelly's list, extended).
PALETTE = "#9a9a9a #f3c300 #875692 #f38400 #a1caf1 #be0032 #c2b280 #008856 #e68fac #0067a5 #f99379 #604e97 #f6a600 #b3446c #dcd300 #882d17 #8db600 #654522 #e25822 #2b3d26 #1f1f7a #00c5cd #ff69b4 #556b2f #7fffd4 #d2691e #4b0082 #98fb98".split()


def colour(k: int) -> str:
    """The colour of edge colour ``k`` in pictures."""
    if k < len(PALETTE):
        return PALETTE[k]
    h = (k * 0.618033988749895) % 1.0
    r, g, b = colorsys.hsv_to_rgb(h, 0.55 + 0.4 * ((k // 7) % 2), 0.85)
    return f"#{int(r * 255):02x}{int(g * 255):02x}{int(b * 255):02x}"


def _svg(width: float, height: float, body: list[str], title: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}">\n<title>{escape(title)}</title>\n'
        f'<rect width="100%" height="100%" fill="white"/>\n' + "\n".join(body) + "\n</svg>\n"
    )


def render(puzzle, placements=None, size: int = 40) -> str:
    """An SVG picture of ``puzzle``, with ``placements`` when given."""
    if isinstance(puzzle, EdgePuzzle):
        return render_edge(puzzle, placements, size)
    if isinstance(puzzle, PolyformPuzzle):
        return render_polyform(puzzle, placements, size)
    if isinstance(puzzle, QueensPuzzle):
        return render_queens(puzzle, placements, size)
    if isinstance(puzzle, LatinPuzzle):
        return render_latin(puzzle, placements, max(size, 36))
    if isinstance(puzzle, MagicPuzzle):
        return render_magic(puzzle, placements, max(size, 36))
    if getattr(puzzle, "kind", None) == "cnf":
        from puzzles.errors import UsageError

        raise UsageError("render draws boards; a CNF formula has none (its solution is a list of true variables)")
    raise TypeError(type(puzzle).__name__)


def render_edge(p: EdgePuzzle, placements=None, size: int = 40) -> str:
    """An SVG picture of an edge-matching board."""
    m = 28  # margin for the labels
    body: list[str] = []
    if placements is None:  # lay out the pieces themselves, in file order, as a sheet
        cols = max(p.cols, 1)
        rows = (p.n_pieces + cols - 1) // cols
        board = {k: (k, 0) for k in range(p.n_pieces)}
        grid_rows, label = rows, False
    else:
        cols, grid_rows, label = p.cols, p.rows, True
        board = {int(pl[0]): (int(pl[1]), int(pl[2])) for pl in placements}
    shown = {cell: rotate(p.pieces[pc], r) for cell, (pc, r) in board.items()}
    for cell in range(grid_rows * cols):
        r, c = divmod(cell, cols)
        x, y = m + c * size, m + r * size
        if cell not in shown:
            body.append(f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="#f4f4f4" stroke="#ccc"/>')
            continue
        cx, cy = x + size / 2, y + size / 2
        corners = [(x, y), (x + size, y), (x + size, y + size), (x, y + size)]
        for side in range(4):
            a, b = corners[side], corners[(side + 1) % 4]
            body.append(
                f'<polygon points="{a[0]},{a[1]} {b[0]},{b[1]} {cx},{cy}" fill="{colour(shown[cell][side])}" '
                f'stroke="#333" stroke-width="0.5"><title>{shown[cell][side]}</title></polygon>'
            )
        if not label:
            body.append(
                f'<text x="{cx}" y="{cy + 3}" font-size="9" text-anchor="middle" font-family="sans-serif">{cell + 1}</text>'
            )
    if label:
        for cell, cols_ in shown.items():
            r, c = divmod(cell, p.cols)
            for side, nb in ((1, cell + 1 if c + 1 < p.cols else -1), (2, cell + p.cols if r + 1 < p.rows else -1)):
                if nb in shown and cols_[side] != shown[nb][(side + 2) % 4]:
                    if side == 1:
                        x1 = x2 = m + (c + 1) * size
                        y1, y2 = m + r * size, m + (r + 1) * size
                    else:
                        y1 = y2 = m + (r + 1) * size
                        x1, x2 = m + c * size, m + (c + 1) * size
                    body.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="red" stroke-width="4"/>')
        for c in range(p.cols):
            body.append(
                f'<text x="{m + c * size + size / 2}" y="{m - 8}" font-size="12" text-anchor="middle" font-family="sans-serif">{c + 1}</text>'
            )
        for r in range(p.rows):
            body.append(
                f'<text x="{m - 8}" y="{m + r * size + size / 2 + 4}" font-size="12" text-anchor="end" font-family="sans-serif">{row_label(r)}</text>'
            )
    return _svg(2 * m + cols * size, 2 * m + grid_rows * size, body, p.name or "edge puzzle")


def render_polyform(p: PolyformPuzzle, placements=None, size: int = 24) -> str:
    """An SVG picture of a polyform region and its pieces."""
    grid = p.grid
    owner = {}
    for k, pl in enumerate(placements or []):
        for cell in pl[2]:
            owner[tuple(cell)] = (int(pl[0]), k)
    cells = [tuple(c) for c in p.region]
    polys = {c: grid.polygon(c) for c in cells}
    xs = [x for poly in polys.values() for x, _ in poly]
    ys = [y for poly in polys.values() for _, y in poly]
    x0, y1, m = min(xs), max(ys), 10
    tx = lambda x: m + (x - x0) * size  # noqa: E731
    ty = lambda y: m + (y1 - y) * size  # noqa: E731  (grids give y up; SVG draws y down)
    body = []
    for c in cells:
        fill = colour(owner[c][0] + 1) if c in owner else "#f4f4f4"
        pts = " ".join(f"{tx(x):.1f},{ty(y):.1f}" for x, y in polys[c])
        body.append(f'<polygon points="{pts}" fill="{fill}" stroke="#bbb" stroke-width="0.5"/>')
    # thick outlines where the owner changes (or at the region's edge)
    for c in cells:
        poly = polys[c]
        for i, nb in enumerate(grid.neighbours(c)):
            if owner.get(c, (None, -1))[1] != owner.get(nb, (None, -2))[1] or nb not in polys:
                (ax, ay), (bx, by) = poly[i], poly[(i + 1) % len(poly)]
                body.append(
                    f'<line x1="{tx(ax):.1f}" y1="{ty(ay):.1f}" x2="{tx(bx):.1f}" y2="{ty(by):.1f}" stroke="#111" stroke-width="2"/>'
                )
    w = 2 * m + (max(xs) - x0) * size
    h = 2 * m + (y1 - min(ys)) * size
    return _svg(w, h, body, p.name or "polyform puzzle")


def render_piece_sheet(p: PolyformPuzzle, size: int = 24, per_row: int = 12) -> str:
    """Every piece kind of a polyform puzzle in its stored orientation, labelled, in rows."""
    grid = p.grid
    polys = [[grid.polygon(c) for c in pc.cells] for pc in p.pieces]
    boxes = []
    for cells in polys:
        xs = [x for poly in cells for x, _ in poly]
        ys = [y for poly in cells for _, y in poly]
        boxes.append((min(xs), max(ys), max(xs) - min(xs), max(ys) - min(ys)))
    cw = max(b[2] for b in boxes) * size + 16
    ch = max(b[3] for b in boxes) * size + 30
    body = []
    for k, (pc, cells, (x0, y1, w, h)) in enumerate(zip(p.pieces, polys, boxes)):
        ox, oy = (k % per_row) * cw + 8, (k // per_row) * ch + 8
        own = set(map(tuple, pc.cells))
        for c, poly in zip(pc.cells, cells):
            pts = " ".join(f"{ox + (x - x0) * size:.1f},{oy + (y1 - y) * size:.1f}" for x, y in poly)
            body.append(f'<polygon points="{pts}" fill="{colour(k + 1)}" stroke="#ddd" stroke-width="0.4"/>')
            for i, nb in enumerate(grid.neighbours(tuple(c))):
                if nb not in own:
                    (ax, ay), (bx, by) = poly[i], poly[(i + 1) % len(poly)]
                    body.append(
                        f'<line x1="{ox + (ax - x0) * size:.1f}" y1="{oy + (y1 - ay) * size:.1f}" '
                        f'x2="{ox + (bx - x0) * size:.1f}" y2="{oy + (y1 - by) * size:.1f}" stroke="#111" stroke-width="1.5"/>'
                    )
        label = escape(pc.name) + (f" x{pc.count}" if pc.count > 1 else "")
        # the number just below its own piece, centred on it (not at the foot of the row, near the next one)
        body.append(
            f'<text x="{ox + w * size / 2:.1f}" y="{oy + h * size + 12:.1f}" font-size="11" '
            f'text-anchor="middle" font-family="sans-serif">{label}</text>'
        )
    rows = (len(p.pieces) + per_row - 1) // per_row
    return _svg(min(len(p.pieces), per_row) * cw + 16, rows * ch + 16, body, (p.name or "polyform") + " pieces")


def render_queens(p: QueensPuzzle, placements=None, size: int = 32) -> str:
    """An SVG picture of a queens board."""
    body = []
    for r in range(p.n):
        for c in range(p.n):
            fill = "#eeeed2" if (r + c) % 2 == 0 else "#769656"
            body.append(f'<rect x="{c * size}" y="{r * size}" width="{size}" height="{size}" fill="{fill}"/>')
    for pl in placements or []:
        r, c = int(pl[0]), int(pl[1])
        if p.piece == "rook":
            body.append(
                f'<rect x="{c * size + size / 4}" y="{r * size + size / 4}" width="{size / 2}" '
                f'height="{size / 2}" fill="#222"/>'
            )
        else:
            body.append(f'<circle cx="{c * size + size / 2}" cy="{r * size + size / 2}" r="{size / 3}" fill="#222"/>')
    return _svg(p.n * size, p.n * size, body, p.name or "queens")


def render_latin(p: LatinPuzzle, placements=None, size: int = 36) -> str:
    """The board with each cell's symbols, as Euler's cards: the first square's as a letter on a colour,
    the second's as a number (a diagonal square's diagonals outlined)."""
    body = []
    for pl in placements or []:
        r, c, a, b = (int(x) for x in pl)
        body.append(
            f'<rect x="{c * size}" y="{r * size}" width="{size}" height="{size}" fill="{colour(a + 1)}" '
            'fill-opacity="0.55" stroke="#333" stroke-width="0.6"/>'
        )
        label = chr(ord("A") + a) if a < 26 else str(a)
        label += str(b + 1) if b >= 0 else ""
        body.append(
            f'<text x="{c * size + size / 2}" y="{r * size + size * 0.62}" font-size="{size * 0.36:.0f}" '
            f'text-anchor="middle" font-family="sans-serif">{escape(label)}</text>'
        )
    for i in range(p.n + 1):
        body.append(
            f'<line x1="0" y1="{i * size}" x2="{p.n * size}" y2="{i * size}" stroke="#111" stroke-width="0.8"/>'
        )
        body.append(
            f'<line x1="{i * size}" y1="0" x2="{i * size}" y2="{p.n * size}" stroke="#111" stroke-width="0.8"/>'
        )
    if p.diagonal:
        body.append(
            f'<line x1="0" y1="0" x2="{p.n * size}" y2="{p.n * size}" stroke="#c00" stroke-width="1.2" '
            'stroke-dasharray="4 3"/>'
        )
        body.append(
            f'<line x1="{p.n * size}" y1="0" x2="0" y2="{p.n * size}" stroke="#c00" stroke-width="1.2" '
            'stroke-dasharray="4 3"/>'
        )
    return _svg(p.n * size, p.n * size, body, p.name or "latin")


def render_magic(p: MagicPuzzle, placements=None, size: int = 36) -> str:
    """A magic square as a grid, Adams's hexagon as hexagons (pointy side up), the 3-D rooks' cube as its
    three layers side by side, with the numbers placed."""
    import math

    at = {int(c): int(v) for c, v in placements or []}
    body = []
    if p.shape == "rooks3d":
        centres = [(i * (3 * size + size / 2) + k * size + size / 2, j * size + size / 2) for i, j, k in p.cells]
        for x, y in centres:
            body.append(
                f'<rect x="{x - size / 2}" y="{y - size / 2}" width="{size}" height="{size}" fill="#f7f3e8" '
                'stroke="#333" stroke-width="0.8"/>'
            )
        width, height = 3 * 3 * size + 2 * size / 2, 3 * size
    elif p.shape == "square":
        centres = [(c * size + size / 2, r * size + size / 2) for r, c in p.cells]
        for x, y in centres:
            body.append(
                f'<rect x="{x - size / 2}" y="{y - size / 2}" width="{size}" height="{size}" fill="#f7f3e8" '
                'stroke="#333" stroke-width="0.8"/>'
            )
        width = height = p.n * size
    else:
        rad = size / math.sqrt(3)  # hexagon circumradius for a width of ``size``
        centres = [(size * (q + r / 2), 1.5 * rad * r) for q, r in p.cells]
        x0 = min(x for x, _ in centres) - size / 2 - 4
        y0 = min(y for _, y in centres) - rad - 4
        centres = [(x - x0, y - y0) for x, y in centres]
        for x, y in centres:
            pts = " ".join(
                f"{x + rad * math.cos(math.radians(60 * k + 30)):.1f},"
                f"{y + rad * math.sin(math.radians(60 * k + 30)):.1f}"
                for k in range(6)
            )
            body.append(f'<polygon points="{pts}" fill="#f7f3e8" stroke="#333" stroke-width="0.8"/>')
        width = max(x for x, _ in centres) + size / 2 + 4
        height = max(y for _, y in centres) + rad + 4
    for i, (x, y) in enumerate(centres):
        if i in at:
            body.append(
                f'<text x="{x:.1f}" y="{y + size * 0.14:.1f}" font-size="{size * 0.4:.0f}" text-anchor="middle" '
                f'font-family="sans-serif">{at[i]}</text>'
            )
    return _svg(width, height, body, p.name or "magic")
