"""Accounts in headless Chromium (issue 52): a phone-sized profile (390x844, touch) signs up, signs
in on the Account page and reports someone from their page, with nothing wider than the screen; two desktop profiles signed in to
one account are one person in the lobby, and "Sign out everywhere" on one closes the other's
socket, whose lobby comes back as nobody."""
import pytest

from needs import need_module, needs

need_module("aiohttp")
need_module("selenium")

from live_client import LiveServer, create, new_player, player_path, run, unique  # noqa: E402
from live_page import LivePage  # noqa: E402
from web_page import Profiles, chrome  # noqa: E402

pytestmark = [pytest.mark.slow, needs("browser")]
PASSWORD = "a quiet brown fox"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = LiveServer(tmp_path_factory.mktemp("accounts-browser"), "--rated-needs-account", "on")
    yield s
    s.stop()


def account_page(page: LivePage) -> LivePage:
    page.d.get(page.server.url + "/account")
    page.wait(lambda: page.data("ready") == "1", "the account page")
    return page


def submit(page: LivePage, form: str, fields, signed_in: str) -> None:
    for element, text in fields:
        page.fill(element, text)
    page.press(f"#{form} button[type=submit]")
    page.wait(lambda: page.data("signedIn") == signed_in, f"{form} done ({page.text('account-message')!r})")


def wider_than_the_screen(page: LivePage) -> int:
    return page.js("return Math.max(0, document.documentElement.scrollWidth - window.innerWidth)")


def test_a_phone_signs_up_signs_out_and_signs_in_on_a_page_that_fits_it(server):
    phone = LivePage(chrome(phone=True), server)
    try:
        name = unique("Phone").replace(" ", "")
        account_page(phone)
        assert phone.shown("signup-form") and wider_than_the_screen(phone) == 0
        phone.fill("signup-name", name)
        phone.fill("signup-password", "password")
        phone.press("#signup-form button[type=submit]")
        phone.wait(lambda: "most used" in phone.text("account-message"), "the weak password refused")
        submit(phone, "signup-form", [("signup-password", PASSWORD)], "1")
        assert phone.text("member-name") == name and wider_than_the_screen(phone) == 0
        assert "this browser" in phone.text("sessions")
        phone.press("#signout")
        phone.wait(lambda: phone.data("signedIn") == "0", "signed out")
        submit(phone, "signin-form", [("signin-name", name.lower()), ("signin-password", PASSWORD)], "1")
        assert wider_than_the_screen(phone) == 0
        phone.lobby()
        phone.wait(lambda: phone.data("you") == name, "the lobby names the account")
        assert phone.text("account-link") == "Account"

        async def someone():
            client = await new_player(server, "Rude")
            made = await create(client, kind="two", variant="normal", tc="none", seats=[{"kind": "me"}, {"kind": "open"}])
            await client.close()
            return client.name, made["gameId"]
        rude, game = run(someone())
        phone.open(f"/g/{game}")                            # from the game: "report" beside the name
        assert phone.js("return document.querySelectorAll('.report-link').length") == 1
        phone.press(".report-link")
        phone.wait(lambda: phone.data("ready") == "1" and player_path(rude) in phone.d.current_url,
                   "the reported player's page")
        assert phone.js("return document.getElementById('report-area').open") is True
        assert phone.js("return document.getElementById('report-game').value") == game
        phone.select("report-reason", "insult")
        phone.fill("report-note", "called me names in chat")
        phone.press("#report-form button[type=submit]")
        phone.wait(lambda: "the moderators have your report" in phone.text("player-message"), "the report sent")
        assert wider_than_the_screen(phone) == 0
        look = server.look()
        try:
            assert look.execute("SELECT g.slug FROM reports r JOIN games g ON g.id = r.game_id").fetchall() == [(game,)]
        finally:
            look.close()
    finally:
        phone.d.quit()


def test_two_profiles_of_one_account_are_one_person_and_sign_out_everywhere_closes_the_other(server):
    profiles = Profiles()
    try:
        a, b = (LivePage(d, server) for d in profiles.get(2))
        name = unique("Twin").replace(" ", "")
        submit(account_page(a), "signup-form", [("signup-name", name), ("signup-password", PASSWORD)], "1")
        submit(account_page(b), "signin-form", [("signin-name", name), ("signin-password", PASSWORD)], "1")
        a_id = a.js("return document.querySelector('#you-link a').getAttribute('href')")
        assert b.js("return document.querySelector('#you-link a').getAttribute('href')") == a_id
        b.lobby()
        b.wait(lambda: b.data("you") == name, "the second profile's lobby names the account")
        assert b.js("return document.querySelector('#you-link a').getAttribute('href')") == a_id
        account_page(a)
        a.press("#signout-all")
        a.wait(lambda: a.data("signedIn") == "0", "signed out everywhere")
        b.wait(lambda: b.data("you") == "" and b.data("connected") == "1", "the other profile back as nobody")
        assert b.text("account-link") == "Sign in"
        account_page(b)
        assert b.data("signedIn") == "0"
    finally:
        profiles.quit()


def test_a_moderator_answers_a_report_on_the_moderators_page(server):
    import subprocess
    import sys
    from live_client import ROOT
    moderator = LivePage(chrome(), server)
    try:
        name = unique("Mod").replace(" ", "")
        submit(account_page(moderator), "signup-form", [("signup-name", name), ("signup-password", PASSWORD)], "1")
        granted = subprocess.run([sys.executable, "-m", "xboard_engine", "admin", "--data-dir", server.data_dir]
                                 + (["--database", server.database] if server.database else [])
                                 + ["grant", name, "moderator"], capture_output=True, text=True, cwd=ROOT, timeout=60)
        assert granted.returncode == 0, granted.stderr

        async def reported():
            victim, rude = await new_player(server, "Victim"), await new_player(server, "Rude")
            async with victim.session.post(f"{server.url}/report", json={"player": rude.id, "reason": "insult",
                                           "note": "rude words"}, headers={"Origin": server.url}) as r:
                assert r.status == 200
            await victim.close()
            await rude.close()
            return rude.name
        rude = run(reported())
        moderator.d.get(server.url + "/mod")
        moderator.wait(lambda: moderator.data("ready") == "1", "the moderators' page")
        box = f'.report a[href="{player_path(rude)}"]'
        assert moderator.js(f"return !!document.querySelector('{box}')")
        report = moderator.js(f"return document.querySelector('{box}').closest('.report').dataset.report")
        moderator.js(f"document.querySelector('.report[data-report=\"{report}\"] .act-reason').value = 'rude words'")
        moderator.press(f'.report[data-report="{report}"] button[type=submit]')
        moderator.wait(lambda: "Done" in moderator.text("mod-message"), "the action done")
        moderator.wait(lambda: not moderator.js(f"return !!document.querySelector('.report[data-report=\"{report}\"]')"),
                       "the report handled")
        assert "timeout" in moderator.text("mod-log") and "rude words" in moderator.text("mod-log")
    finally:
        moderator.d.quit()
