"""The program ``xboard-engine bot``: its command line, the token file, the engine's probe and name."""
import argparse
import asyncio
import os
import re
import secrets
import shlex
import sys
from typing import List, Optional, Tuple
from urllib.parse import urlsplit

from ..match.engines import EngineConfig, EngineFailure, UciClient, kill_all, start_engine
from ..paths import data_path
from ..time_control import MAX_CLOCK_SECONDS
from .bot import PROG, Bot, BotError


def _server_url(text: str) -> str:
    parts = urlsplit(text.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.path not in ("", "/") \
            or parts.query or parts.fragment:
        raise argparse.ArgumentTypeError(f"want the server's address, e.g. https://chess.example.org, got {text!r}")
    return f"{parts.scheme}://{parts.netloc}"


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= MAX_CLOCK_SECONDS:
        raise argparse.ArgumentTypeError(f"want seconds from 0 to {MAX_CLOCK_SECONDS}, got {text!r}")
    return value


def _command(text: str) -> str:
    try:
        if not shlex.split(text):
            raise ValueError("empty")
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"bad engine command {text!r}: {error}") from None
    return text


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", required=True, type=_server_url, metavar="URL",
                        help="the server's address, e.g. https://chess.example.org")
    parser.add_argument("--engine", required=True, type=_command, metavar="CMD",
                        help="the command that starts the engine (quoted if it has spaces)")
    parser.add_argument("--uci", action="store_true", help="the engine speaks UCI (default CECP/XBoard)")
    parser.add_argument("--name", help="the bot account's name (default: the engine's name and \"bot\")")
    parser.add_argument("--variants", metavar="LIST",
                        help="variants it plays, comma-separated (default: every one the engine and the "
                             "server both know)")
    parser.add_argument("--min-tc", type=_seconds, default=0.0, metavar="SECONDS",
                        help="the shortest clock it accepts, base + 40 increments (default %(default)s)")
    parser.add_argument("--max-tc", type=_seconds, default=float(MAX_CLOCK_SECONDS), metavar="SECONDS",
                        help="the longest clock it accepts, base + 40 increments (default %(default)s)")
    choice = parser.add_mutually_exclusive_group()
    choice.add_argument("--rated", dest="rated", action="store_const", const="rated",
                        help="rated games only (with other bot accounts: people never play bots rated)")
    choice.add_argument("--casual", dest="rated", action="store_const", const="casual", help="casual games only")
    choice.add_argument("--both", dest="rated", action="store_const", const="both",
                        help="rated and casual games (the default)")
    parser.add_argument("--max-games", type=int, default=1, metavar="N",
                        help="games played at once, each with its own engine process (1 to 10; default 1)")
    parser.add_argument("--token-file", metavar="PATH",
                        help="where the account's token is kept (default "
                             "~/.local/share/xboard-engine/bot-NAME.token; made at the first start)")
    parser.set_defaults(rated="both")
    return parser


def default_token_file(name: str) -> str:
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "bot"
    return data_path(f"bot-{safe}.token")


def load_token(path: str) -> str:
    """The account's token from ``path``; a new random one written there (mode 0600) if it has none."""
    try:
        with open(path, encoding="ascii") as f:
            token = f.read().strip()
    except FileNotFoundError:
        os.makedirs(os.path.dirname(os.path.abspath(path)), mode=0o700, exist_ok=True)
        token = secrets.token_urlsafe(24)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(token + "\n")
    except (OSError, UnicodeDecodeError) as error:
        raise BotError(f"cannot read the token file {path}: {error}") from None
    if not re.fullmatch(r"[A-Za-z0-9_-]{16,200}", token):
        raise BotError(f"{path} does not hold a token (16 or more letters, digits, - and _)")
    return token


def probe_engine(config: EngineConfig) -> Tuple[str, List[str]]:
    """The engine's own name and the variants it says it plays (started once, then quit)."""
    engine = start_engine(config)
    try:
        if isinstance(engine, UciClient):
            name = next((line[len("< id name "):] for line in engine.transcript if line.startswith("< id name ")), "")
            variants = ["normal"] + (["fischerandom"] if "UCI_Chess960" in engine.options_seen else [])
            variants += [v for v in engine.variants if v not in variants]
        else:
            name = engine.features.get("myname", "")
            listed = engine.features.get("variants")
            variants = [v.strip() for v in listed.split(",") if v.strip()] if listed else ["normal"]
    finally:
        engine.quit()
    return name.strip(), variants


def default_name(engine_name: str, command: str) -> str:
    """A name people may read: the engine's (letters, digits, spaces and . ' - _ kept) and "bot"."""
    words = re.sub(r"[^\w .'-]+", " ", engine_name or os.path.basename(shlex.split(command)[0])).split()
    kept: List[str] = []
    for word in words:                          # whole words, up to 20 characters (a name has 24)
        if len(" ".join(kept + [word])) > 20:
            break
        kept.append(word)
    return f"{' '.join(kept) or (words[0][:20] if words else 'Engine')} bot"


def main(argv: Optional[List[str]] = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not 1 <= args.max_games <= 10:
        parser.error("--max-games: 1 to 10")
    if args.min_tc > args.max_tc:
        parser.error("--min-tc is above --max-tc")
    try:
        import aiohttp  # noqa: F401
    except ImportError:
        sys.stderr.write(f"{PROG} needs aiohttp: pip install 'xboard-variant-engine[web]' (or pip install aiohttp)\n")
        return 2
    proto = "uci" if args.uci else "xboard"
    config = EngineConfig(args.name or "engine", args.engine, proto=proto, init_time=30.0)
    try:
        engine_name, engine_variants = probe_engine(config)
    except EngineFailure as error:
        sys.stderr.write(f"{PROG}: the engine does not start as a {proto.upper() if args.uci else 'CECP'} "
                         f"engine: {error}\n")
        return 2
    args.name = " ".join((args.name or default_name(engine_name, args.engine)).split())
    engine_text = " ".join((engine_name or os.path.basename(shlex.split(args.engine)[0])).split())[:80]
    try:
        token = load_token(args.token_file or default_token_file(args.name))
    except (BotError, OSError) as error:
        sys.stderr.write(f"{PROG}: {error}\n")
        return 2
    bot = Bot(args, token, config._replace(name=args.name), engine_text, engine_variants)
    try:
        return asyncio.run(bot.main())
    except KeyboardInterrupt:
        bot.say("stopped: no game is resigned")
        return 0
    finally:
        kill_all()
