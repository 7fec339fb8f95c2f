"""One option table for both protocols (engine_options.py): an option both offer has one name, one
range and one meaning; each protocol renders it in its own words."""
from engine_driver import EngineProcess
from test_uci import UciProcess
from xboard_engine.engine.options import CECP, LANCER_TURN_CASTLES, SETUP_NUMBER, UCI, find_option


def _announced_cecp() -> dict:
    engine = EngineProcess()
    try:
        engine.send("xboard")
        engine.send("protover 2")
        engine.expect("feature done=1", timeout=30)
        lines = engine.lines(engine.child.before)
    finally:
        engine.close()
    out = {}
    for line in lines:
        if 'option="' in line:
            body = line.split('option="', 1)[1].rstrip('"').split('"')[0]
            name, _, rest = body.partition(" -")
            out[name.replace("_", " ")] = "-" + rest
    return out


def _announced_uci() -> dict:
    uci = UciProcess()
    try:
        lines = uci.lines(uci.handshake)
    finally:
        uci.close()
    out = {}
    for line in lines:
        if line.startswith("option name "):
            name, _, rest = line[len("option name "):].partition(" type ")
            out[name.replace("_", " ")] = rest
    return out


def test_options_both_protocols_offer_have_one_name_and_range():
    """What each engine process announces: the options common to both protocols carry the same name
    (CECP writes spaces as underscores) and, spins, the same range and default."""
    cecp, uci = _announced_cecp(), _announced_uci()
    common = set(cecp) & set(uci)
    assert {"Hash", "MultiPV", "Skill Level", "Clear Hash", "Setup Number", "Castle With Lancer Turn"} <= common
    assert not {name.lower() for name in cecp} & {name.lower() for name in uci} - {n.lower() for n in common}, \
        "an option spelt differently by the two protocols"
    for name in common:
        if cecp[name].startswith("-spin"):
            low_high = cecp[name].split()[1:]
            words = uci[name].split()
            assert [words[2], words[4], words[6]] == low_high, name


def test_castle_with_lancer_turn_default_differs_only_for_xboard():
    """XBoard relays a castle with a lancer turn without the turn, so over CECP the option is off by
    default; UCI GUIs send the move text as written: on. One option, two stated defaults."""
    option = find_option("castle_with_lancer_turn", UCI)
    assert option is not None and option.name == LANCER_TURN_CASTLES
    assert option.default_for(UCI) is True and option.default_for(CECP) is False
    assert 'option="Castle_With_Lancer_Turn -check 0"' in option.cecp_feature()
    assert option.uci_line() == "option name Castle With Lancer Turn type check default true"


def test_older_spellings_and_bad_values():
    """Settings saved by older versions ("Setup number", "Skill_level") still find their option; a
    value out of range or of the wrong kind is refused, never stored."""
    for spelling in ("Setup number", "setup_NUMBER", "Setup  Number"):
        assert find_option(spelling, CECP).name == SETUP_NUMBER
        assert find_option(spelling, UCI).name == SETUP_NUMBER
    assert find_option("Skill_level", CECP).name == "Skill Level"
    assert find_option("Threads", CECP) is None and find_option("Nodes per move", UCI) is None
    setup = find_option(SETUP_NUMBER, UCI)
    assert setup.parse("17") == (True, 17)
    assert setup.parse("5000") == (False, None) and setup.parse("x") == (False, None)
    check = find_option(LANCER_TURN_CASTLES, CECP)
    assert check.parse("1") == (True, True) and check.parse("false") == (True, False)
    assert check.parse("2") == (False, None)
