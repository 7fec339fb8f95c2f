#!/bin/sh
# Build a current Fairy-Stockfish for the training tools (the teacher of Chess80's distilled
# evaluation, scripts/distill.py --teacher): the engine itself never needs it.  Debian's
# fairy-stockfish 11.1 crashes on a Chess80 entry; the current source reads it.
#
#   scripts/fairy_stockfish.sh [SOURCE] [TARGET]
#
# SOURCE: a checkout of https://github.com/fairy-stockfish/Fairy-Stockfish (default: cloned into
# TARGET/src-checkout).  TARGET (default ~/fairy-stockfish) gets the program `fairy-stockfish` and
# `variants.ini` with the Chess80 entry:
#
#   pypy3 scripts/distill.py run chess80 --dir ~/distill/chess80 --teacher ~/fairy-stockfish/fairy-stockfish \
#     --teacher-option VariantPath=$HOME/fairy-stockfish/variants.ini --teacher-option UCI_Variant=chess80
#
# Without NNUE (the source's default), nothing is downloaded during the build: about two minutes on
# two cores.
set -eu
TARGET=${2:-$HOME/fairy-stockfish}
mkdir -p "$TARGET"
TARGET=$(cd "$TARGET" && pwd)
if [ $# -ge 1 ]; then
    SOURCE=$1
else
    SOURCE=$TARGET/src-checkout
    [ -d "$SOURCE" ] || git clone --depth 1 https://github.com/fairy-stockfish/Fairy-Stockfish "$SOURCE"
fi
BUILD=$TARGET/build
rm -rf "$BUILD"
mkdir -p "$BUILD"
if [ -d "$SOURCE/.git" ] || [ -f "$SOURCE/HEAD" ]; then
    git -C "$SOURCE" archive HEAD src | tar -x -C "$BUILD"
    git -C "$SOURCE" log -1 --format='Fairy-Stockfish %H %cd' > "$TARGET/version"
else
    cp -r "$SOURCE/src" "$BUILD/src"
    echo "Fairy-Stockfish from $SOURCE" > "$TARGET/version"
fi
make -C "$BUILD/src" -j2 build ARCH=x86-64 largeboards=yes >"$TARGET/build.log" 2>&1 || {
    echo "fairy_stockfish.sh: the build failed, see $TARGET/build.log" >&2; exit 1; }
cp "$BUILD/src/stockfish" "$TARGET/fairy-stockfish"
# Chess80 (docs/RULES.md) as Fairy-Stockfish can say it: 10x8, the Duke (one or two squares in any
# straight line, leaping), promotion to it too.  Castling is Fairy-Stockfish's own (the king two
# files towards the rook): a label does not need every castle of R5.4.
cat > "$TARGET/variants.ini" <<'INI'
[chess80:chess]
maxFile = j
customPiece1 = d:WFAD
pieceToCharTable = PNBRQ..........DKpnbrq..........dk
startFen = rnbdkqdbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBDKQDBNR w KQkq - 0 1
promotionPieceTypes = qrbnd
castlingKingsideFile = g
castlingQueensideFile = c
INI
echo "built $(cat "$TARGET/version") in $TARGET"
