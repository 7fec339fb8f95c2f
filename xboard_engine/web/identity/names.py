"""Display names people can trust: a name is visible (no blank letters, no control or format
characters), written in one script (no Latin name with one Cyrillic letter in it), free of the
marks the pages put around names (parentheses, colons), not one the server gives (``Guest 1234``)
or uses (an engine's name), and unique under ``fold``: two names that look alike have the same
key, and the store keeps each key for one player.

Chat text keeps what people type, but loses the invisible characters that change the order in
which text is shown (bidirectional controls): a line cannot show a link backwards as another one."""
import re
import unicodedata
from typing import Iterable, Optional

MAX_NAME = 24
# Characters a name may have besides letters, digits and the marks that go with letters.
NAME_PUNCTUATION = set(" .'-_")
# Letters that show nothing (Unicode calls several of them letters, so a name of them looks blank).
BLANK_LETTERS = set("\u115f\u1160\u3164\uffa0\u2800\u180e\u17b4\u17b5\u1cbb\u1cbc")
# Characters that reorder text around them (embeddings, overrides, isolates, marks).
BIDI_CONTROLS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
# Letters of other scripts that look like Latin ones, folded to them (Unicode's confusables for the
# Cyrillic, Greek and Armenian letters people meet in names), and Latin ones that look alike.
LOOK_ALIKES = str.maketrans({
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i", "ј": "j", "ԁ": "d", "ԛ": "q", "ԝ": "w",
    "ь": "b", "һ": "h", "ӏ": "l", "г": "r", "п": "n", "и": "u", "л": "n", "ѡ": "w", "ү": "y", "ԍ": "g",
    "А": "A", "В": "B", "Е": "E", "Ё": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C",
    "Т": "T", "У": "Y", "Х": "X", "Ѕ": "S", "І": "l", "Ї": "l", "Ј": "J", "Ԁ": "D", "Ԛ": "Q", "Ԝ": "W",
    "Ӏ": "l", "Һ": "h", "Ү": "Y", "З": "3", "Ь": "b",
    "α": "a", "β": "b", "γ": "y", "ε": "e", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
    "υ": "u", "χ": "x", "ω": "w", "η": "n", "μ": "u",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "l", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O",
    "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
    "օ": "o", "ս": "u", "ց": "g", "հ": "h", "ո": "n", "ռ": "n", "ք": "p",
    "I": "l", "1": "l", "|": "l", "0": "o", "5": "s", "_": "-", "'": "", ".": "",
})
LOWER_LOOK_ALIKES = str.maketrans({"i": "l", "ɩ": "l", "ǀ": "l"})
RESERVED = ("guest", "admin", "administrator", "moderator", "server", "system", "anonymous", "human",
            "nobody", "you", "bot", "engine", "xboard-engine")


class BadName(ValueError):
    """A name refused (the text says why)."""


def fold(name: str) -> str:
    """The key two names share when they look alike: compatibility forms and accents dropped,
    other scripts' look-alike letters and Latin ones (I, l, 1; O, 0) made one, case ignored,
    spaces collapsed, "rn" read as "m"."""
    text = unicodedata.normalize("NFKD", name)
    text = "".join(_plain_letter(ch) for ch in text if not unicodedata.combining(ch))
    # "I" looks like "l" and like "i" in another case, so all three are one (else "ALICE" and
    # "Alice" had two keys)
    text = text.translate(LOOK_ALIKES).casefold().translate(LOOK_ALIKES).translate(LOWER_LOOK_ALIKES)
    text = " ".join(text.split())
    return text.replace("rn", "m").replace("vv", "w")


def _plain_letter(ch: str) -> str:
    """A Latin small capital or script letter as the letter it shows (``ʟ`` l, ``ɡ`` g)."""
    if ch.isascii():
        return ch
    words = unicodedata.name(ch, "")
    for prefix in ("LATIN LETTER SMALL CAPITAL ", "LATIN SMALL LETTER SCRIPT ", "LATIN SMALL LETTER DOTLESS "):
        if words.startswith(prefix) and len(words) == len(prefix) + 1:
            return words[-1].lower()
    return ch


def _script(ch: str) -> str:
    """The script of a letter, by its Unicode name's first word (LATIN, CYRILLIC, GREEK, CJK ...);
    the Japanese and Chinese scripts count as one, as do Korean syllables and jamo."""
    words = unicodedata.name(ch, "UNKNOWN").split()
    word = words[1] if words[0] in ("FULLWIDTH", "HALFWIDTH") and len(words) > 1 else words[0]
    if word in ("CJK", "HIRAGANA", "KATAKANA", "IDEOGRAPHIC"):
        return "CJK"
    if word.startswith("HANGUL"):
        return "HANGUL"
    return word


def check_name(name: object, engines: Iterable[str] = (), scripts: Optional[Iterable[str]] = ("LATIN",)) -> str:
    """The name as it will be shown (NFC, spaces collapsed), or BadName saying why it is refused.
    ``engines``: names of engines the server runs (no person may take one); ``scripts``: the scripts
    a name may be written in (Unicode's names for them, e.g. LATIN, CYRILLIC, GREEK, CJK; None:
    any).  Latin alone by default: the look-alike fold knows the other scripts' letters that look
    Latin only for Cyrillic, Greek and Armenian, so Lisu or Cherokee letters could pose as Latin ones."""
    if not isinstance(name, str):
        raise BadName("name: want text")
    name = " ".join(unicodedata.normalize("NFC", name).split())
    if not name:
        raise BadName("name: empty")
    if len(name) > MAX_NAME:
        raise BadName(f"name: at most {MAX_NAME} characters")
    used = set()
    for ch in name:
        category = unicodedata.category(ch)
        if ch in BLANK_LETTERS or category[0] in "CZ" and ch != " ":
            raise BadName("name: only visible letters, digits, spaces and . ' - _")
        if category[0] == "L":
            used.add(_script(ch))
        elif not (category == "Nd" or category[0] == "M" or ch in NAME_PUNCTUATION):
            raise BadName("name: letters, digits, spaces and . ' - _ only (no brackets, colons or markup)")
    if not used:
        raise BadName("name: needs a letter")
    if len(used) > 1:
        raise BadName(f"name: one script only (this one mixes {' and '.join(sorted(s.title() for s in used))})")
    allowed = None if scripts is None else {s.upper() for s in scripts}
    if allowed is not None and not used <= allowed:
        raise BadName(f"name: this server takes names in {' or '.join(sorted(s.title() for s in allowed))} "
                      f"letters (not {next(iter(used)).title()})")
    key = fold(name)
    reserved = {fold(word) for word in RESERVED} | {fold(e) for e in engines}
    if key in reserved or key.startswith("guest"):
        raise BadName(f"name: {name!r} is kept for the server's own use")
    return name


def clean_chat(text: str) -> str:
    """Chat text without bidirectional controls, spaces collapsed; empty if nothing in it shows
    (only zero-width, format or blank-looking characters)."""
    text = " ".join(BIDI_CONTROLS.sub("", text).split())
    return text if any(_shows(ch) for ch in text) else ""


def _shows(ch: str) -> bool:
    return ch not in BLANK_LETTERS and unicodedata.category(ch)[0] not in "CZM"
