// The account page (/account): sign up, sign in, sessions, password, two-factor codes; and the
// reset page (/reset#SECRET).  Each form posts JSON to /account/...; user text is only ever shown
// through textContent.
"use strict";

async function post(path, body) {
  let response;
  try {
    response = await fetch(`/account/${path}`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body || {}),
    });
  } catch (error) {
    return { error: "the server could not be reached; try again" };
  }
  try { return await response.json(); } catch (error) { return { error: `the server answered ${response.status}` }; }
}

function say(id, answer, done) {
  const box = $(id);
  box.textContent = answer.error ? answer.error : done;
  box.className = answer.error ? "error" : "done";
  return !answer.error;
}

function seen(seconds) {
  const ago = Math.max(0, Date.now() / 1000 - seconds);
  if (ago < 120) return "now";
  if (ago < 7200) return `${Math.round(ago / 60)} minutes ago`;
  if (ago < 172800) return `${Math.round(ago / 3600)} hours ago`;
  return new Date(seconds * 1000).toLocaleDateString();
}

async function showAccount() {
  const response = await fetch("/account.json", { cache: "no-store" });
  if (!response.ok) { $("account-message").textContent = "Could not load your account."; return; }
  const data = await response.json();
  document.body.dataset.signedIn = data.signedIn ? "1" : "0";
  document.body.dataset.ready = "1";
  $("guest").hidden = data.signedIn;
  $("member").hidden = !data.signedIn;
  $("you-link").replaceChildren(...(data.player ? [playerLink(data.player.name, data.player.id)] : []));
  if (!data.signedIn) {
    $("signup-keeps").textContent = data.player
      ? `Your games, ratings and name as ${data.player.name} stay yours.` : "";
    if (data.player && !data.player.name.startsWith("Guest ") && !$("signup-name").value) $("signup-name").value = data.player.name;
    return;
  }
  $("member-name").textContent = data.account.username;
  $("member-roles").textContent = data.account.roles.length ? `(${data.account.roles.join(", ")})` : "";
  tableRows("sessions", data.sessions.map((s) => {
    let cell;
    if (s.current) { cell = document.createElement("span"); cell.textContent = "this browser"; }
    else {
      cell = document.createElement("button");
      cell.type = "button";
      cell.textContent = "End this session";
      cell.dataset.session = s.id;
      cell.onclick = async () => {
        if (say("account-message", await post("sessions/end", { session: s.id }), "That session ended.")) showAccount();
      };
    }
    return [s.device, s.address, seen(s.seen), cell];
  }), 4, "No sessions");
  showBots(data.bots || []);
  const on = data.account.twoFactor;
  $("two-factor-state").textContent = on
    ? "On: signing in asks for the code of your authenticator app (or a recovery code)."
    : "Off: a password alone signs you in.";
  $("two-factor-begin").hidden = on;
  $("two-factor-off").hidden = !on;
}

function showToken(name, answer) {
  $("bot-token-box").hidden = false;
  $("bot-token-name").textContent = name;
  $("bot-token").textContent = answer.token;
  const file = `${name.replace(/[^A-Za-z0-9_-]+/g, "-")}.token`;
  $("bot-command").textContent = `echo ${answer.token} > ${file}\nxboard-engine bot --server ${location.origin} ` +
    `--name "${name}" --token-file ${file} --engine ENGINE`;
}

function showBots(bots) {
  tableRows("bot-list", bots.map((b) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "New token";
    button.dataset.bot = b.id;
    button.onclick = async () => {
      if (!confirm(`Replace ${b.name}'s token? The old one stops working now.`)) return;
      const answer = await post("bots/token", { bot: b.id });
      if (say("account-message", answer, `${b.name} has a new token: the old one no longer works.`)) showToken(b.name, answer);
    };
    return [playerLink(b.name, b.id), b.online ? "yes" : "no", new Date(b.made * 1000).toLocaleDateString(), button];
  }), 4, "No bot accounts");
}

function setupAccountPage() {
  $("bot-form").onsubmit = async (event) => {
    event.preventDefault();
    const answer = await post("bots", { name: $("bot-name").value });
    if (say("account-message", answer, `${answer.bot ? answer.bot.name : ""} is your bot account.`)) {
      showToken(answer.bot.name, answer);
      $("bot-name").value = "";
      showAccount();
    }
  };
  $("signup-form").onsubmit = async (event) => {
    event.preventDefault();
    const answer = await post("signup", { username: $("signup-name").value, password: $("signup-password").value });
    if (say("account-message", answer, `Welcome, ${answer.player ? answer.player.name : ""}: you are signed up and signed in.`)) showAccount();
  };
  $("signin-form").onsubmit = async (event) => {
    event.preventDefault();
    const body = { username: $("signin-name").value, password: $("signin-password").value };
    if (!$("signin-code-label").hidden) body.code = $("signin-code").value;
    const answer = await post("signin", body);
    if (answer.error && answer.error.startsWith("two-factor code")) $("signin-code-label").hidden = false;
    if (say("account-message", answer, `Signed in as ${answer.player ? answer.player.name : ""}.`)) showAccount();
  };
  $("signout").onclick = async () => {
    if (say("account-message", await post("signout", {}), "Signed out.")) showAccount();
  };
  $("signout-all").onclick = async () => {
    if (say("account-message", await post("signout", { everywhere: true }), "Signed out on every device.")) showAccount();
  };
  $("password-form").onsubmit = async (event) => {
    event.preventDefault();
    const answer = await post("password", { old: $("old-password").value, new: $("new-password").value });
    if (say("account-message", answer, "Password changed; your other sessions ended.")) {
      $("old-password").value = ""; $("new-password").value = ""; showAccount();
    }
  };
  $("two-factor-begin").onclick = async () => {
    const answer = await post("two-factor", { step: "begin" });
    if (!say("account-message", answer, "")) return;
    $("two-factor-secret").textContent = answer.secret;
    $("two-factor-setup").hidden = false;
  };
  $("two-factor-confirm").onsubmit = async (event) => {
    event.preventDefault();
    const answer = await post("two-factor", { step: "confirm", code: $("two-factor-code").value });
    if (!say("account-message", answer, "Two-factor codes are on.")) return;
    $("two-factor-setup").hidden = true;
    $("recovery-codes").replaceChildren(...answer.recovery.map((c) => { const li = document.createElement("li"); li.textContent = c; return li; }));
    $("recovery").hidden = false;
    showAccount();
  };
  $("two-factor-off").onsubmit = async (event) => {
    event.preventDefault();
    const answer = await post("two-factor", { step: "off", password: $("two-factor-password").value });
    if (say("account-message", answer, "Two-factor codes are off.")) { $("recovery").hidden = true; showAccount(); }
  };
  showAccount();
}

function setupResetPage() {
  $("reset-form").onsubmit = async (event) => {
    event.preventDefault();
    const answer = await post("reset", { secret: location.hash.slice(1), password: $("reset-password").value });
    if (say("reset-message", answer, `The password of ${answer.name || ""} is set: sign in with it on the account page.`)) {
      $("reset-form").hidden = true;
    }
  };
}

if ($("account-page")) setupAccountPage();
if ($("reset-page")) setupResetPage();
