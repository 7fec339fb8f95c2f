"""Passwords and two-factor codes, with the standard library only.

Passwords are hashed with scrypt (``hashlib.scrypt``) at OWASP's parameters (N=2^17, r=8, p=1: about
0.3 s and 128 MiB a hash), a random salt each; the stored text names its parameters, so they can
grow without breaking old hashes.  The hashing is slow on purpose: the server runs it on worker
threads (``identity/accounts.py``), never on its event loop.  Two-factor codes are TOTP (RFC 6238:
HMAC-SHA1, 30-s steps, 6 digits), the codes phone authenticator apps make."""
import base64
import hashlib
import hmac
import secrets
import struct
import time
from typing import List, Optional, Tuple

MIN_PASSWORD = 8
MAX_PASSWORD = 256
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2 ** 17, 8, 1
_MAX_MEMORY = 256 * 1024 * 1024
# Passwords people choose most (the top of the public breach lists), refused whatever their case.
COMMON = frozenset("""
123456 123456789 12345678 password qwerty123 qwerty1 111111 12345 secret 123123 1234567890 1234567
000000 qwerty abc123 password1 iloveyou 11111111 dragon monkey 123321 654321 666666 121212 88888888
sunshine princess football baseball welcome welcome1 shadow superman michael jennifer trustno1
letmein letmein1 master master123 access hello123 freedom whatever qazwsx zaq12wsx 1q2w3e4r 1q2w3e4r5t
passw0rd password123 password12 admin123 administrator changeme default chess123 chessmaster
checkmate checkmate1 stockfish 87654321 asdfghjk asdfasdf 1qaz2wsx zxcvbnm1 q1w2e3r4 abcd1234
aa123456 987654321 11223344 12341234 00000000 99999999 147258369 159753 789456123 123qwe123 qwertyui
qwertyuiop iloveyou1 starwars computer internet pokemon mustang charlie jordan23 harley ranger
""".split())


class BadPassword(ValueError):
    """A password refused (the text says why)."""


def check_password(password: object, username: str) -> str:
    """The password if it may be used, else BadPassword saying why."""
    if not isinstance(password, str):
        raise BadPassword("password: want text")
    if len(password) < MIN_PASSWORD:
        raise BadPassword(f"password: at least {MIN_PASSWORD} characters")
    if len(password) > MAX_PASSWORD:
        raise BadPassword(f"password: at most {MAX_PASSWORD} characters")
    lowered = password.casefold()
    if lowered in COMMON or len(set(password)) < 3:
        raise BadPassword("password: that one is among the most used (and guessed first); choose another")
    if username and username.casefold() in lowered:
        raise BadPassword("password: it must not contain your username")
    return password


def hash_password(password: str) -> str:
    """``scrypt$N$r$p$salt$hash`` (salt and hash in URL-safe base64)."""
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P,
                            maxmem=_MAX_MEMORY, dklen=32)
    return "$".join(["scrypt", str(SCRYPT_N), str(SCRYPT_R), str(SCRYPT_P), _b64(salt), _b64(digest)])


def verify_password(password: str, stored: Optional[str]) -> bool:
    """Whether ``password`` is the one ``stored`` was made from.  With ``stored`` None (no such
    account) a hash is made all the same and False answered, so a wrong name takes as long as a
    wrong password."""
    if stored is None:
        hash_password(password)
        return False
    try:
        kind, n, r, p, salt, digest = stored.split("$")
        if kind != "scrypt":
            return False
        made = hashlib.scrypt(password.encode(), salt=_unb64(salt), n=int(n), r=int(r), p=int(p),
                              maxmem=_MAX_MEMORY, dklen=len(_unb64(digest)))
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(made, _unb64(digest))


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


# ---------------------------------------------------------------------- two-factor codes (TOTP)
TOTP_STEP = 30
TOTP_DIGITS = 6
RECOVERY_CODES = 8


def new_totp_secret() -> str:
    """A secret for an authenticator app: 160 random bits in base32 (RFC 4226's length)."""
    return base64.b32encode(secrets.token_bytes(20)).decode()


def totp_code(secret: str, at: Optional[float] = None) -> str:
    """The code ``secret`` makes at time ``at`` (now)."""
    step = int((time.time() if at is None else at) // TOTP_STEP)
    key = base64.b32decode(secret + "=" * (-len(secret) % 8))
    digest = hmac.new(key, struct.pack(">Q", step), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    number = struct.unpack(">I", digest[offset:offset + 4])[0] & 0x7FFFFFFF
    return str(number % 10 ** TOTP_DIGITS).zfill(TOTP_DIGITS)


def totp_matches(secret: str, code: object, at: Optional[float] = None) -> bool:
    """Whether ``code`` is the secret's code now or one step either side (clocks drift)."""
    if not isinstance(code, str):
        return False
    code = code.replace(" ", "")
    now = time.time() if at is None else at
    return any(hmac.compare_digest(totp_code(secret, now + k * TOTP_STEP), code) for k in (-1, 0, 1))


def totp_link(secret: str, username: str, issuer: str) -> str:
    """The ``otpauth://`` address an authenticator app reads (typed in, or as a QR code)."""
    from urllib.parse import quote
    return (f"otpauth://totp/{quote(issuer)}:{quote(username)}?secret={secret}&issuer={quote(issuer)}"
            f"&digits={TOTP_DIGITS}&period={TOTP_STEP}")


def new_recovery_codes() -> Tuple[List[str], List[str]]:
    """One-time codes for a lost phone: (the codes shown once, their hashes kept)."""
    codes = ["-".join(secrets.token_hex(3) for _ in range(2)) for _ in range(RECOVERY_CODES)]
    return codes, [recovery_hash(c) for c in codes]


def recovery_hash(code: str) -> str:
    return hashlib.sha256(code.strip().lower().encode()).hexdigest()
