// The cashier (serve --accounts): register, log in, the balance, the seats, the ledger.
// The session is an HttpOnly cookie: this page never sees it, the browser sends it.
"use strict";

const $ = (id) => document.getElementById(id);
const KINDS = {
  credit: "credit", debit: "debit", buy_in: "buy-in", top_up: "top-up", cash_out: "cash-out",
};

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}
function say(text) { $("message").textContent = text || ""; }
function when(t) {
  const d = new Date(t * 1000);
  return d.toLocaleString();
}

async function post(path, body) {
  const r = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body || {}),
    credentials: "same-origin",
  });
  let doc = {};
  try { doc = await r.json(); } catch (e) { doc = { message: r.statusText }; }
  return [r, doc];
}

async function load() {
  const r = await fetch("/api/account", { credentials: "same-origin" });
  if (r.status === 404) {
    $("status").textContent = "this server plays without accounts";
    return;
  }
  if (r.status === 401) {
    $("guest").hidden = false;
    $("member").hidden = true;
    $("status").textContent = "not logged in";
    return;
  }
  const doc = await r.json();
  show(doc);
  await loadTables(doc);
}

function show(doc) {
  $("guest").hidden = true;
  $("member").hidden = false;
  $("status").textContent = "logged in as " + doc.name;
  $("account-name").textContent = doc.name;
  $("balance").textContent = String(doc.balance);
  const seats = $("seats-list");
  seats.textContent = "";
  if (!doc.tables.length) seats.appendChild(el("li", null, "none: you are at no table"));
  for (const t of doc.tables) {
    const li = el("li");
    const a = el("a", null, `${t.name}, seat ${t.seat + 1}`);
    a.href = "/?table=" + encodeURIComponent(t.id);
    li.appendChild(a);
    li.appendChild(document.createTextNode(`: ${t.chips} chips`));
    seats.appendChild(li);
  }
  const rows = $("ledger-rows");
  rows.textContent = "";
  for (const e of doc.ledger) {
    const tr = el("tr", "kind-" + e.kind);
    tr.appendChild(el("td", null, when(e.at)));
    tr.appendChild(el("td", null, KINDS[e.kind] || e.kind));
    tr.appendChild(el("td", "num " + (e.amount > 0 ? "plus" : "minus"), (e.amount > 0 ? "+" : "") + e.amount));
    tr.appendChild(el("td", "num", String(e.balance)));
    tr.appendChild(el("td", null, e.table));
    tr.appendChild(el("td", null, e.note));
    rows.appendChild(tr);
  }
}

async function loadTables(account) {
  const r = await fetch("/api/tables");
  const doc = await r.json();
  const rows = $("table-rows");
  rows.textContent = "";
  for (const t of doc.tables) {
    const tr = el("tr");
    tr.appendChild(el("td", null, t.name));
    tr.appendChild(el("td", null, `${t.stakes.small_bet}/${t.stakes.big_bet}`));
    tr.appendChild(el("td", null, `${t.min_buy_in} to ${t.buy_in}`));
    tr.appendChild(el("td", null, `${t.players}/${t.max_players}`));
    const td = el("td");
    const seated = account.tables.some((x) => x.id === t.id);
    const a = el("a", null, seated ? "Back to the table" : "Sit down");
    a.href = "/?table=" + encodeURIComponent(t.id);
    if (!seated && account.balance < t.min_buy_in) {
      td.textContent = "balance too low";
    } else {
      td.appendChild(a);
    }
    tr.appendChild(td);
    rows.appendChild(tr);
  }
}

async function onLogin(ev) {
  ev.preventDefault();
  say("");
  const [r, doc] = await post("/api/login", { name: $("login-name").value, password: $("login-password").value });
  $("login-password").value = "";
  if (!r.ok) return say(doc.message || "login failed");
  show(doc);
  await loadTables(doc);
}

async function onRegister(ev) {
  ev.preventDefault();
  say("");
  const [r, doc] = await post("/api/register", { name: $("register-name").value, password: $("register-password").value });
  if (!r.ok) return say(doc.message || "registration failed");
  $("register-password").value = "";
  show(doc);
  await loadTables(doc);
  say("Welcome, " + doc.name + ". Your balance is " + doc.balance + " chips: the room's admin credits accounts.");
}

async function onLogout() {
  await post("/api/logout");
  say("You logged out.");
  await load();
}

function main() {
  $("login-form").addEventListener("submit", onLogin);
  $("register-form").addEventListener("submit", onRegister);
  $("logout-btn").addEventListener("click", onLogout);
  // the balance changes as the tables play: look again now and then
  setInterval(() => { if (!$("member").hidden) load(); }, 10000);
  load();
}

main();
