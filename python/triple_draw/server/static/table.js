// The web table: one WebSocket speaking protocol v1 (docs/server.md). No build step.
// The page only offers what the server lists in legal_actions; the server checks again.
"use strict";

const V = 1;
const SUITS = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };
const SUIT_NAMES = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };
const RANK_NAMES = { T: "10", J: "jack", Q: "queen", K: "king", A: "ace" };

const $ = (id) => document.getElementById(id);

const st = {
  tableId: null,
  tables: [],
  info: null,
  ws: null,
  seat: null,
  seats: [],
  button: null,
  hand: null,
  events: [],
  clock: null,
  clockAt: 0,
  selected: new Set(),
  retry: 0,
  pending: false,
  // false while the connection is down: the clock stops and nothing can be played
  online: false,
  frozenLeft: null,
  // a server with accounts (serve --accounts): the logged-in account ({name, balance}) or
  // null; and whether this connection's hello was answered
  accounts: false,
  account: null,
  greeted: false,
};

function tokenKey() { return "triple-draw-token:" + st.tableId; }
function send(msg) {
  if (st.ws && st.ws.readyState === WebSocket.OPEN) st.ws.send(JSON.stringify(Object.assign({ v: V }, msg)));
}
function seatName(s) {
  const x = st.seats[s];
  return x ? x.name : "Seat " + (s + 1);
}
function rakeText(t) {
  // a table that takes a rake says so: ", rake 5% (cap 3)"
  if (!t.rake) return "";
  return `, rake ${t.rake.percent}%` + (t.rake.cap ? ` (cap ${t.rake.cap})` : "");
}
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}
function cardEl(card, tag) {
  const e = el(tag || "span", "card suit-" + card[1]);
  e.textContent = (card[0] === "T" ? "10" : card[0]) + SUITS[card[1]];
  e.setAttribute("aria-label", (RANK_NAMES[card[0]] || card[0]) + " of " + SUIT_NAMES[card[1]]);
  e.dataset.card = card;
  return e;
}
function backEl() {
  const e = el("span", "card back");
  e.setAttribute("aria-hidden", "true");
  return e;
}

// ---- connection -------------------------------------------------------------------------

async function loadTables() {
  const r = await fetch("/api/tables");
  const doc = await r.json();
  st.tables = doc.tables;
  st.accounts = !!doc.accounts;
  if (st.accounts) await loadAccount();
  const sel = $("table-select");
  sel.textContent = "";
  for (const t of st.tables) {
    const o = el("option", null, `${t.name} — ${t.stakes.small_bet}/${t.stakes.big_bet}${rakeText(t)} (${t.players}/${t.max_players})`);
    o.value = t.id;
    sel.appendChild(o);
  }
  const want = new URLSearchParams(location.search).get("table");
  st.tableId = st.tables.some((t) => t.id === want) ? want : st.tables[0].id;
  sel.value = st.tableId;
}

// The account of this browser's session (an HttpOnly cookie the page never sees).
async function loadAccount() {
  try {
    const r = await fetch("/api/account", { credentials: "same-origin" });
    st.account = r.ok ? await r.json() : null;
  } catch (e) {
    st.account = null;
  }
  renderJoin();
}

// With accounts the seat takes the account's name, and the player picks his buy-in.
function renderJoin() {
  if (!st.accounts) return;
  const a = st.account;
  const link = $("cashier-link");
  link.hidden = false;
  link.textContent = a ? `Cashier (${a.name}: ${a.balance} chips)` : "Cashier: log in";
  const name = $("join-name");
  const buyIn = $("join-buyin");
  $("join-buyin-label").hidden = buyIn.hidden = !a;
  if (!a) return;
  name.value = a.name;
  name.readOnly = true;
  const t = st.info || st.tables.find((x) => x.id === st.tableId);
  if (!t) return;
  buyIn.min = String(t.min_buy_in);
  buyIn.max = String(t.buy_in);
  const v = Number(buyIn.value);
  if (!buyIn.value || v < t.min_buy_in || v > t.buy_in) {
    buyIn.value = String(Math.max(t.min_buy_in, Math.min(t.buy_in, a.balance)));
  }
  $("join-buyin-label").textContent = `Buy-in (${t.min_buy_in}-${t.buy_in})`;
}

function joinMessage(seat) {
  const msg = { type: "join" };
  if (seat !== undefined) msg.seat = seat;
  if (st.accounts) {
    const b = Number($("join-buyin").value);
    if (Number.isInteger(b) && b > 0) msg.buy_in = b;
  } else {
    msg.name = $("join-name").value.trim();
  }
  return msg;
}

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/${encodeURIComponent(st.tableId)}`);
  st.ws = ws;
  setStatus("connecting…");
  ws.onopen = () => {
    st.retry = 0;
    st.online = true;
    st.greeted = false;
    const token = localStorage.getItem(tokenKey());
    send(token ? { type: "hello", token } : { type: "hello" });
  };
  // only the current connection's frames count (an old one may still be closing)
  ws.onmessage = (ev) => { if (st.ws === ws) onFrame(JSON.parse(ev.data)); };
  ws.onclose = () => {
    if (st.ws !== ws) return;
    goOffline();
    setStatus("disconnected — reconnecting…");
    st.retry = Math.min(st.retry + 1, 5);
    setTimeout(connect, 500 * st.retry);
  };
}

function setStatus(text) { $("status").textContent = text; }

// The server is out of reach: freeze the clock where it was and disable every action
// until a new connection brings a fresh state.
function goOffline() {
  if (!st.online) return;
  st.frozenLeft = clockLeft();
  st.online = false;
  st.pending = false;
  render();
}

function onFrame(f) {
  switch (f.type) {
    case "welcome":
      st.info = f.table;
      st.seat = f.seat;
      st.greeted = true;
      // (a reconnect may follow a login elsewhere, which ended this page's old session)
      if (st.accounts) loadAccount();
      setStatus(f.seat === null ? `watching ${f.table.name}` : `${f.table.name}, seat ${f.seat + 1}`);
      break;
    case "joined":
      localStorage.setItem(tokenKey(), f.token);
      st.seat = f.seat;
      setStatus(`${st.info ? st.info.name : "table"}, seat ${f.seat + 1}`);
      if (st.accounts) loadAccount();
      break;
    case "left":
      localStorage.removeItem(tokenKey());
      st.seat = null;
      setStatus("you left the table");
      // (the cash-out reaches the balance when the hand he was in ends)
      if (st.accounts) { loadAccount(); setTimeout(loadAccount, 4000); }
      break;
    case "state":
      onState(f);
      break;
    case "ack":
      st.pending = false;
      break;
    case "error":
      st.pending = false;
      if (f.code === "bad_token") {
        localStorage.removeItem(tokenKey());
        st.ws.close();
      } else if (f.code === "login_required" && !st.greeted) {
        // a seat token alone does not take a seat back here: watch until logged in (the
        // token stays: after logging in, a reload takes the seat back)
        send({ type: "hello" });
      } else if (f.code === "logged_out") {
        st.account = null;
        renderJoin();
      } else if (f.code === "replaced") {
        // another tab or device took the seat with its token: do not reconnect and take
        // it back (the two would take it from each other forever)
        const ws = st.ws;
        st.ws = null;
        ws.close();
        setStatus("your seat is played from another window — reload to take it back");
      }
      $("hint").textContent = f.message;
      break;
  }
}

function updateTableOption(f) {
  const t = st.tables.find((x) => x.id === st.tableId);
  const o = $("table-select").selectedOptions[0];
  if (!t || !o) return;
  const n = f.seats.filter((x) => x).length;
  o.textContent = `${t.name} — ${t.stakes.small_bet}/${t.stakes.big_bet}${rakeText(t)} (${n}/${t.max_players})`;
}

function onState(f) {
  updateTableOption(f);
  const prevHand = st.hand ? st.hand.id : null;
  st.seat = f.seat;
  st.seats = f.seats;
  st.button = f.button;
  st.hand = f.hand;
  if (f.events_from === 0) st.events = [];
  st.events = st.events.slice(0, f.events_from).concat(f.events);
  st.clock = f.clock;
  st.clockAt = performance.now();
  st.online = true;
  st.frozenLeft = null;
  const h = f.hand;
  if (!h || h.id !== prevHand || h.phase !== "draw" || !isMyTurn()) st.selected.clear();
  st.pending = false;
  render();
}

// ---- rendering --------------------------------------------------------------------------

function isMyTurn() {
  const h = st.hand;
  return st.online && !!h && st.seat !== null && h.actor === st.seat && h.legal_actions.length > 0;
}
function myBet() {
  // the chips this seat already put in this betting round
  const h = st.hand;
  const p = h ? h.players.find((x) => x.seat === st.seat) : undefined;
  return p ? p.bet : 0;
}
function isBroke() {
  // no chips left and not in a hand: the seat can only buy in again (or leave)
  const x = st.seats[st.seat];
  return !!x && x.stack === 0 && x.sitting_out && !inRunningHand();
}
function inRunningHand() {
  const h = st.hand;
  if (!h || h.phase === "over" || st.seat === null) return false;
  const p = h.players.find((x) => x.seat === st.seat);
  return !!p && !p.folded;
}
function legal(kind) {
  const h = st.hand;
  return h ? h.legal_actions.find((a) => a.kind === kind) : undefined;
}

function render() {
  renderSeats();
  renderCenter();
  renderMe();
  renderLog();
  renderClock();
}

function seatPositions(m) {
  // around an ellipse, the viewer's seat (or seat 0) at the bottom
  const base = st.seat === null ? 0 : st.seat;
  const pos = [];
  for (let s = 0; s < m; s++) {
    const k = (s - base + m) % m;
    const a = Math.PI / 2 + (2 * Math.PI * k) / m;
    pos.push([50 + 42 * Math.cos(a), 48 + 37 * Math.sin(a)]);
  }
  return pos;
}

function renderSeats() {
  const box = $("seats");
  box.textContent = "";
  const h = st.hand;
  const m = st.seats.length;
  const pos = seatPositions(m);
  const players = {};
  if (h) for (const p of h.players) players[p.seat] = p;
  const shown = {};
  if (h && h.result) for (const e of h.result.showdown) shown[e.seat] = e;
  const won = {};
  if (h && h.result) for (const pot of h.result.pots) for (const [s, x] of pot.shares) won[s] = (won[s] || 0) + x;
  for (let s = 0; s < m; s++) {
    const x = st.seats[s];
    const div = el("div", "seat");
    div.id = "seat-" + s;
    div.style.left = pos[s][0] + "%";
    div.style.top = pos[s][1] + "%";
    if (!x) {
      div.classList.add("empty");
      div.appendChild(el("div", "name", "empty seat " + (s + 1)));
      if (st.seat === null && st.online) {
        // the lobby's seat pick: sit down in this very seat
        const b = el("button", "take-seat", "Sit here");
        b.type = "button";
        b.setAttribute("aria-label", "Sit down in seat " + (s + 1));
        b.addEventListener("click", () => joinSeat(s));
        div.appendChild(b);
      }
      box.appendChild(div);
      continue;
    }
    const p = players[s];
    if (s === st.seat) div.classList.add("mine");
    if (h && h.actor === s) div.classList.add("acting");
    if (p && p.folded) div.classList.add("folded");
    if (x.sitting_out) div.classList.add("out");
    const name = el("div", "name", x.name + (x.bot ? " (bot)" : ""));
    if (!x.connected) name.textContent += " (away)";
    div.appendChild(name);
    div.appendChild(el("div", "stack", String(x.stack)));
    if (st.button === s) {
      const b = el("span", "dealer", "D");
      b.title = "button";
      b.setAttribute("aria-label", "dealer button");
      div.appendChild(b);
    }
    if (h && (h.small_blind_seat === s || h.big_blind_seat === s)) {
      const big = h.big_blind_seat === s;
      const b = el("span", "blind " + (big ? "blind-bb" : "blind-sb"), big ? "BB" : "SB");
      b.title = big ? "big blind" : "small blind";
      b.setAttribute("aria-label", b.title);
      div.appendChild(b);
    }
    const cards = el("div", "cards");
    if (p) {
      const sh = shown[s];
      if (sh && sh.shown && sh.cards) {
        for (const c of sh.cards) cards.appendChild(cardEl(c));
      } else if (s !== st.seat) {
        for (let i = 0; i < p.cards; i++) cards.appendChild(backEl());
      }
      if (p.draws.length) div.appendChild(el("div", "draws", "drew " + p.draws.join(", ")));
      if (p.bet > 0) div.appendChild(el("div", "bet", "bet " + p.bet));
      if (p.all_in) div.appendChild(el("div", "tag", "all-in"));
      if (sh) div.appendChild(el("div", "handname", sh.shown ? sh.name : "mucks"));
      if (won[s]) div.appendChild(el("div", "won", "wins " + won[s]));
    } else if (x.sitting_out) {
      div.appendChild(el("div", "tag", "sitting out"));
    } else if (x.waiting) {
      div.appendChild(el("div", "tag", "waiting to be dealt in"));
    }
    div.appendChild(cards);
    const label = [x.name, "stack " + x.stack];
    if (p && p.folded) label.push("folded");
    if (h && h.actor === s) label.push("to act");
    div.setAttribute("aria-label", label.join(", "));
    box.appendChild(div);
  }
}

const STREETS = ["first betting round", "second betting round", "third betting round", "last betting round"];
function renderCenter() {
  const h = st.hand;
  $("pot").textContent = "Pot " + (h ? h.pot : 0);
  let street = "";
  if (h) {
    if (h.phase === "bet") street = STREETS[h.street];
    else if (h.phase === "draw") street = "draw " + (h.street + 1) + " of 3";
    else street = "hand over";
  } else {
    street = "waiting for players";
  }
  if (!h || h.phase === "over") {
    // nobody is dealt a hand until two players play: say so rather than stand still
    const playing = st.seats.filter((x) => x && !x.sitting_out).length;
    if (playing < 2) {
      street = `waiting for players: ${playing} of the 2 needed ${playing === 1 ? "is" : "are"} playing`;
    }
  }
  $("street").textContent = street;
  const res = $("result");
  res.textContent = "";
  if (h && h.result) {
    const names = {};
    for (const e of h.result.showdown) if (e.shown) names[e.seat] = e.name;
    for (const pot of h.result.pots) {
      for (const [s, x] of pot.shares) {
        const how = names[s] ? ` with ${names[s]}` : "";
        res.appendChild(el("div", "win-line", `${seatName(s)} wins ${x}${how}`));
      }
    }
    if (h.result.rake) res.appendChild(el("div", "win-line", `rake ${h.result.rake}`));
  }
}

function renderMe() {
  const seated = st.seat !== null;
  const loggedOut = st.accounts && !st.account;
  $("join-form").hidden = seated || loggedOut;
  $("login-needed").hidden = seated || !loggedOut;
  $("seat-controls").hidden = !seated;
  if (seated && st.seats[st.seat]) {
    const x = st.seats[st.seat];
    $("btn-sitout").textContent = isBroke()
      ? `Buy in again (${st.info ? st.info.buy_in : ""})`
      : x.sitting_out ? "Come back" : "Sit out";
  }
  // a top-up to the buy-in, between the hands this seat plays
  const add = $("btn-addchips");
  const buyIn = st.info ? st.info.buy_in : 0;
  const me0 = seated ? st.seats[st.seat] : null;
  add.hidden = !(st.online && me0 && !isBroke() && !inRunningHand() && me0.stack < buyIn);
  add.textContent = `Add chips (to ${buyIn})`;
  const h = st.hand;
  const hole = $("hole");
  hole.textContent = "";
  const myTurn = isMyTurn() && !st.pending;
  const drawing = myTurn && !!legal("discard");
  if (h && seated) {
    h.hole_cards.forEach((c, i) => {
      const b = cardEl(c, "button");
      b.type = "button";
      b.classList.add("hole");
      const sel = st.selected.has(c);
      if (sel) b.classList.add("selected");
      b.setAttribute("aria-pressed", sel ? "true" : "false");
      b.setAttribute("aria-label", b.getAttribute("aria-label") + (sel ? ", selected to discard" : ""));
      b.disabled = !drawing;
      b.title = drawing ? `click (or press ${i + 1}) to discard / keep` : "";
      b.addEventListener("click", () => toggleCard(c));
      hole.appendChild(b);
    });
  }
  const me = h ? h.players.find((x) => x.seat === st.seat) : undefined;
  const awaitingDeal = !!(h && seated && me && !me.folded && h.phase === "draw" && !drawing &&
    h.hole_cards.length < 5);
  if (awaitingDeal) {
    // thrown already (declare, then deal): the new cards come once everyone has chosen
    for (let i = h.hole_cards.length; i < 5; i++) {
      const e = el("span", "card back pending");
      e.setAttribute("aria-label", "a card to come");
      hole.appendChild(e);
    }
  }
  const thrown = $("thrown");
  thrown.textContent = "";
  if (h && seated && h.discards.length) {
    // one group a draw: this seat's discard events, in order, say how many it threw
    thrown.appendChild(el("span", "label", "You threw "));
    let at = 0, draw = 0;
    for (const e of st.events) {
      if (e.kind === "begin_draw") draw = e.amount + 1;
      if (e.kind !== "discard" || e.seat !== st.seat) continue;
      const g = el("span", "throw");
      g.dataset.draw = String(draw);
      g.appendChild(el("span", "label", `draw ${draw}: `));
      if (!e.count) g.appendChild(el("span", "pat", "stood pat"));
      for (const c of h.discards.slice(at, at + e.count)) g.appendChild(cardEl(c));
      at += e.count;
      thrown.appendChild(g);
    }
    if (at < h.discards.length) {
      // thrown, the new cards not dealt yet (the others still choose theirs)
      const g = el("span", "throw");
      for (const c of h.discards.slice(at)) g.appendChild(cardEl(c));
      thrown.appendChild(g);
    }
  }
  const fold = $("btn-fold"), call = $("btn-call"), raise = $("btn-raise"), draw = $("btn-draw");
  const betting = myTurn && !drawing;
  fold.hidden = call.hidden = raise.hidden = drawing;
  draw.hidden = !drawing;
  const c = legal("call"), k = legal("check");
  // folding when checking is free throws a hand away for nothing: not offered
  fold.disabled = !(betting && legal("fold") && !k);
  fold.title = betting && k ? "checking is free" : "";
  call.disabled = !(betting && (c || k));
  // what the call costs now (the action's amount is the round's total)
  call.firstChild.textContent = c ? `Call ${c.amount - myBet()} ` : "Check ";
  const b = legal("bet"), r = legal("raise");
  raise.disabled = !(betting && (b || r));
  raise.firstChild.textContent = r ? `Raise to ${r.amount} ` : b ? `Bet ${b.amount} ` : "Bet ";
  const n = st.selected.size;
  draw.disabled = !drawing;
  draw.firstChild.textContent = n ? `Draw ${n} ` : "Stand pat ";
  let hint = "";
  if (!st.online) hint = "Connection lost: the table is paused here until it is back.";
  else if (!seated) hint = "You are watching. Sit down to play.";
  else if (drawing) hint = "Click the cards to throw away (click again to keep), then Draw.";
  else if (myTurn) hint = "Your turn.";
  else if (awaitingDeal) hint = "Waiting for the deal: the others are still choosing.";
  else if (h && h.actor !== null && h.actor !== undefined) hint = `${seatName(h.actor)} to act.`;
  $("hint").textContent = hint;
}

function joinSeat(s) {
  if (st.accounts && !st.account) {
    $("hint").textContent = "Log in at the cashier to sit down.";
    return;
  }
  const name = $("join-name").value.trim();
  if (!st.accounts && !name) {
    $("hint").textContent = "Type your name, then pick a seat.";
    $("join-name").focus();
    return;
  }
  send(joinMessage(s));
}

function toggleCard(c) {
  if (!(isMyTurn() && legal("discard"))) return;
  if (st.selected.has(c)) st.selected.delete(c);
  else st.selected.add(c);
  renderMe();
}

const EVENT_TEXT = {
  post_ante: (e) => `${seatName(e.seat)} posts an ante of ${e.amount}`,
  post_small_blind: (e) => `${seatName(e.seat)} posts the small blind ${e.amount}`,
  post_big_blind: (e) => `${seatName(e.seat)} posts the big blind ${e.amount}`,
  deal: null,
  begin_round: (e) => `— ${STREETS[e.amount]} —`,
  fold: (e) => `${seatName(e.seat)} folds`,
  check: (e) => `${seatName(e.seat)} checks`,
  call: (e) => `${seatName(e.seat)} calls (${e.amount})`,
  bet: (e) => `${seatName(e.seat)} bets ${e.amount}`,
  raise: (e) => `${seatName(e.seat)} raises to ${e.amount}`,
  begin_draw: (e) => `— draw ${e.amount + 1} —`,
  discard: (e) => (e.count ? `${seatName(e.seat)} draws ${e.count}` : `${seatName(e.seat)} stands pat`),
  reshuffle: (e) => `the discards are reshuffled (${e.amount} cards)`,
  draw: null,
  return: (e) => `${e.amount} returned to ${seatName(e.seat)}`,
  show: (e) => `${seatName(e.seat)} shows ${e.cards.join(" ")}`,
  muck: (e) => `${seatName(e.seat)} mucks`,
  win: (e) => `${seatName(e.seat)} wins ${e.amount}`,
  rake: (e) => `the house takes a rake of ${e.amount}`,
};

// the hands the log keeps: the current one and the ones before it
const KEEP_HANDS = 10;
function renderLog() {
  // append only the new entries, so a screen reader announces each event once; a new
  // hand starts a new group under the earlier hands' (the oldest go past KEEP_HANDS)
  const ol = $("log");
  if (!st.hand) return;
  const hid = String(st.hand.id);
  let group = Array.from(ol.children).find((g) => g.dataset.hand === hid);
  if (!group) {
    group = el("li", "hand");
    group.dataset.hand = hid;
    group.dataset.count = "0";
    group.appendChild(el("div", "hand-id", `Hand #${hid}`));
    group.appendChild(el("ol", "hand-events"));
    ol.appendChild(group);
    while (ol.children.length > KEEP_HANDS) ol.firstElementChild.remove();
  }
  const list = group.querySelector("ol");
  if (Number(group.dataset.count) > st.events.length) {
    list.textContent = "";
    group.dataset.count = "0";
  }
  for (const e of st.events.slice(Number(group.dataset.count))) {
    const f = EVENT_TEXT[e.kind];
    if (f) list.appendChild(el("li", "ev-" + e.kind, f(e)));
  }
  group.dataset.count = String(st.events.length);
  if (st.hand.phase === "over" && !group.querySelector("a.replay") && playedHere(st.hand)) {
    // the seat's finished hand, in the replayer (a new tab: the table plays on here); the
    // replayer fetches it with this table's seat token, which never goes in the URL
    const a = el("a", "replay", "Replay");
    a.href = `/replay?table=${encodeURIComponent(st.tableId)}&hand=${encodeURIComponent(hid)}`;
    a.target = "_blank";
    a.rel = "noopener";
    a.setAttribute("aria-label", `Replay hand #${hid} in the hand replayer`);
    group.insertBefore(a, list);  // after "Hand #N", on its line
  }
  ol.scrollTop = ol.scrollHeight;
}

function playedHere(h) {
  // this seat was dealt in (its history has the hand), and the page holds its token
  return st.seat !== null && h.players.some((p) => p.seat === st.seat) &&
    !!localStorage.getItem(tokenKey());
}

function clockLeft() {
  const c = st.clock;
  if (!c) return null;
  if (st.frozenLeft !== null) return st.frozenLeft;
  return Math.max(0, c.remaining - (performance.now() - st.clockAt) / 1000);
}

function renderClock() {
  const c = st.clock;
  const box = $("clock");
  if (!c || !st.hand || st.hand.actor !== c.seat) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const left = clockLeft();
  const bar = $("clock-bar");
  bar.style.width = (100 * left) / (c.total || 1) + "%";
  bar.setAttribute("aria-valuemax", String(c.total));
  bar.setAttribute("aria-valuenow", left.toFixed(0));
  bar.classList.toggle("low", left < 5);
  // the actor's time bank: running now, or what it holds for when the clock runs out
  const bank = c.in_time_bank ? "time bank " : "";
  const more = !c.in_time_bank && c.time_bank ? ` + ${Math.ceil(c.time_bank)} s bank` : "";
  bar.classList.toggle("bank", !!c.in_time_bank);
  $("clock-text").textContent =
    `${seatName(c.seat)}: ${bank}${Math.ceil(left)} s${more}` + (st.online ? "" : " (paused: reconnecting)");
}

// ---- actions ----------------------------------------------------------------------------

function act(action) {
  const h = st.hand;
  if (!h || st.pending) return;
  st.pending = true;
  send({ type: "act", hand: h.id, seq: h.seq, action });
  renderMe();
}

function onFold() {
  // not when checking is free (the button is disabled then; so is the key)
  if (isMyTurn() && legal("fold") && !legal("check")) act({ kind: "fold" });
}
function onCall() {
  if (!isMyTurn()) return;
  const c = legal("call"), k = legal("check");
  if (c) act({ kind: "call", amount: c.amount });
  else if (k) act({ kind: "check" });
}
function onRaise() {
  if (!isMyTurn()) return;
  const r = legal("raise"), b = legal("bet");
  if (r) act({ kind: "raise", amount: r.amount });
  else if (b) act({ kind: "bet", amount: b.amount });
}
function onDraw() {
  if (isMyTurn() && legal("discard")) act({ kind: "discard", cards: Array.from(st.selected) });
}

// The hands this seat played, as it saw them: PHH (a .phhs file) or PokerStars (.txt).
const HISTORY_FILES = { phh: "my-hands.phhs", pokerstars: "my-hands-pokerstars.txt" };
async function downloadHistory(format) {
  const token = localStorage.getItem(tokenKey());
  if (!token) return;
  // the server sends pages of hands; the Link header names the next one while there is one
  const parts = [];
  let next = "/api/history?limit=500&format=" + encodeURIComponent(format);
  while (next) {
    const r = await fetch(next, { headers: { Authorization: "Bearer " + token } });
    if (!r.ok) {
      $("hint").textContent = await r.text();
      return;
    }
    parts.push(await r.text());
    const m = /<([^>]+)>;\s*rel="next"/.exec(r.headers.get("Link") || "");
    next = m && m[1].startsWith("/api/history?") ? m[1] : null;
  }
  const joined = parts.join(format === "pokerstars" ? "\n\n" : "\n");
  const url = URL.createObjectURL(new Blob([joined], { type: "text/plain" }));
  const a = el("a");
  a.href = url;
  a.download = HISTORY_FILES[format];
  document.body.appendChild(a);
  a.click();
  a.remove();
  URL.revokeObjectURL(url);
}

function onKey(ev) {
  if (ev.target && (ev.target.tagName === "INPUT" || ev.target.tagName === "SELECT")) return;
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const k = ev.key.toLowerCase();
  if (k === "f") onFold();
  else if (k === "c") onCall();
  else if (k === "r") onRaise();
  else if (k === "d") onDraw();
  else if (k >= "1" && k <= "5" && st.hand) {
    const c = st.hand.hole_cards[Number(k) - 1];
    if (c) toggleCard(c);
  } else return;
  ev.preventDefault();
}

async function main() {
  $("join-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    if (st.accounts) {
      if (st.account) send(joinMessage());
      return;
    }
    const name = $("join-name").value.trim();
    if (name) send({ type: "join", name });
  });
  $("btn-fold").addEventListener("click", onFold);
  $("btn-call").addEventListener("click", onCall);
  $("btn-raise").addEventListener("click", onRaise);
  $("btn-draw").addEventListener("click", onDraw);
  $("btn-sitout").addEventListener("click", () => {
    const me = st.seats[st.seat];
    if (isBroke()) send({ type: "rebuy" });
    else send({ type: me && me.sitting_out ? "sit_in" : "sit_out" });
  });
  $("btn-addchips").addEventListener("click", () => send({ type: "rebuy" }));
  $("btn-leave").addEventListener("click", () => {
    if (inRunningHand() && !window.confirm("Leave now? Your hand is folded and you leave the table.")) return;
    send({ type: "leave" });
  });
  $("btn-history").addEventListener("click", () => downloadHistory("phh"));
  $("btn-history-pokerstars").addEventListener("click", () => downloadHistory("pokerstars"));
  $("table-select").addEventListener("change", (ev) => {
    st.tableId = ev.target.value;
    history.replaceState(null, "", "?table=" + encodeURIComponent(st.tableId));
    const old = st.ws;
    st.ws = null;
    if (old) old.close();
    st.hand = null;
    st.events = [];
    st.seat = null;
    $("log").textContent = "";
    connect();
  });
  document.addEventListener("keydown", onKey);
  setInterval(renderClock, 250);
  await loadTables();
  connect();
}

main();
