"""Accounts in headless Chromium (issue 52): a phone-sized profile (390x844, touch) signs up and
signs in on the Account page with nothing wider than the screen; two desktop profiles signed in to
one account are one person in the lobby, and "Sign out everywhere" on one closes the other's
socket, whose lobby comes back as nobody."""
import pytest

from needs import need_module, needs

need_module("aiohttp")
need_module("selenium")

from live_client import LiveServer, unique  # noqa: E402
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
