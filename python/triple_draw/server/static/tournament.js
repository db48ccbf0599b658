// The tournament page: the lobby, the clock, the player's table and the standings.
// Everything shown comes from the server's "tournament" frames; the page only offers the
// actions the frame's legal_actions list, and the server checks them again.
"use strict";

const $ = (id) => document.getElementById(id);
const TOKEN_KEY = "td-tournament-token";
const st = { ws: null, frame: null, player: null, picked: new Set(), online: false };

function send(msg) {
  if (st.ws && st.ws.readyState === WebSocket.OPEN) st.ws.send(JSON.stringify({ v: 1, ...msg }));
}

function connect() {
  const proto = location.protocol === "https:" ? "wss://" : "ws://";
  const ws = new WebSocket(proto + location.host + "/ws/tournament");
  st.ws = ws;
  ws.onopen = () => {
    st.online = true;
    $("status").textContent = "connected";
    const token = localStorage.getItem(TOKEN_KEY);
    send(token ? { type: "hello", token } : { type: "hello" });
  };
  ws.onclose = () => {
    st.online = false;
    $("status").textContent = "disconnected: reconnecting…";
    setTimeout(connect, 1000);
  };
  ws.onmessage = (ev) => onFrame(JSON.parse(ev.data));
}

function onFrame(f) {
  if (f.type === "welcome") {
    st.player = f.player;
    $("t-name").textContent = f.tournament.name;
  } else if (f.type === "registered") {
    if (f.token) localStorage.setItem(TOKEN_KEY, f.token);
    st.player = f.player;
  } else if (f.type === "error") {
    if (f.code === "bad_token") {
      localStorage.removeItem(TOKEN_KEY);
      send({ type: "hello" });
    }
    $("status").textContent = f.message;
  } else if (f.type === "tournament") {
    st.frame = f;
    render();
  }
}

function cardEl(text, pickable) {
  const b = document.createElement(pickable ? "button" : "span");
  b.className = "card" + ("dh".includes(text[1]) ? " red" : "");
  b.textContent = text;
  if (pickable) {
    b.type = "button";
    if (st.picked.has(text)) b.classList.add("picked");
    b.addEventListener("click", () => {
      if (st.picked.has(text)) st.picked.delete(text); else st.picked.add(text);
      render();
    });
  }
  return b;
}

function stakes(c) {
  return `${c.small_blind}/${c.big_blind}, ${c.small_bet}/${c.big_bet}` + (c.ante ? `, ante ${c.ante}` : "");
}

function ordinal(n) {
  const s = n % 100 >= 11 && n % 100 <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
  return n + s;
}

function notice(e) {
  if (e.kind === "seat") return `Your seat: table ${e.table}, seat ${e.seat + 1}` + (e.why === "start" ? "" : ` (${e.why})`);
  if (e.kind === "move") return `You move from table ${e.from} to table ${e.to}` + ({ balance: " to balance the tables", break: ": your table is broken", final: ": the final table" }[e.why] || "");
  if (e.kind === "busted") return "You are out of chips.";
  if (e.kind === "eliminated") return `You finished ${ordinal(e.place)}` + (e.prize ? `, prize ${e.prize}` : "");
  if (e.kind === "winner") return `You won the tournament! Prize ${e.prize}`;
  return e.kind;
}

function news(e) {
  switch (e.kind) {
    case "start": return `Started: ${e.entries} entries, ${e.tables} table(s)`;
    case "level": return `Level ${e.level}: ${e.stakes}`;
    case "break": return `Break after level ${e.after_level}`;
    case "table_broken": return `Table ${e.table} is broken`;
    case "final_table": return `The final table (table ${e.table}) is drawn`;
    case "hand_for_hand": return "Hand for hand";
    case "eliminated": return `${e.player} finished ${ordinal(e.place)}` + (e.prize ? ` (${e.prize})` : "");
    case "registration_closed": return `Registration closed: ${e.entries} entries, prize pool ${e.prize_pool}`;
    case "winner": return `${e.player} wins (${e.prize})`;
    default: return e.kind;
  }
}

function myTurn() {
  const f = st.frame;
  const t = f && f.table;
  const h = t && t.hand;
  return !!(st.online && h && f.you && f.you.table === t.id && h.actor === f.you.seat && h.legal_actions.length);
}

function legal(kind) {
  const h = st.frame && st.frame.table && st.frame.table.hand;
  return h ? h.legal_actions.find((a) => a.kind === kind) : undefined;
}

function act(action) {
  const t = st.frame.table;
  send({ type: "act", table: t.id, hand: t.hand_no, seq: t.seq, action });
  st.picked.clear();
}

function render() {
  const f = st.frame;
  if (!f) return;
  const c = f.clock;
  $("t-status").textContent = f.status;
  $("level").textContent = c.level;
  $("stakes").textContent = stakes(c);
  $("level-left").textContent = c.hands_left !== null ? `${c.hands_left} hand${c.hands_left === 1 ? "" : "s"} left in the level`
    : c.seconds_left !== null ? `${Math.floor(c.seconds_left / 60)}:${String(Math.floor(c.seconds_left % 60)).padStart(2, "0")} left in the level` : "the last level";
  $("next-level").textContent = c.next ? `next: ${c.next}` : "";
  $("on-break").hidden = !c.on_break;
  $("break-left").textContent = c.break_seconds_left !== null ? `${Math.ceil(c.break_seconds_left)} s` : "";
  $("h4h").hidden = !c.hand_for_hand;
  $("remaining").textContent = f.remaining;
  $("entries").textContent = f.entries;
  $("pool").textContent = f.prize_pool;

  const you = f.you;
  $("reg-form").hidden = !!you || !f.registration_open;
  $("reenter-btn").hidden = !(you && you.may_reenter);
  $("back-btn").hidden = !(you && you.absent);
  $("you").textContent = !you ? (f.registration_open ? "Register to play." : "Watching.")
    : you.place !== null ? `${you.player}: finished ${ordinal(you.place)}, prize ${you.prize}`
    : `${you.player}: ${you.status}` + (you.table ? `, table ${you.table}, seat ${you.seat + 1}` : "") + `, ${you.stack} chips` + (you.absent ? " (absent: your hands are folded)" : "");
  const ul = $("notices");
  ul.replaceChildren(...f.notices.slice(-4).map((e) => { const li = document.createElement("li"); li.textContent = notice(e); return li; }));

  const t = f.table;
  $("table").hidden = !t;
  if (t) {
    $("table-id").textContent = t.id;
    $("final-tag").hidden = !t.final;
    const h = t.hand;
    const seats = $("seats");
    seats.replaceChildren();
    for (const s of t.seats) {
      const d = document.createElement("div");
      d.className = "seat";
      if (!s) { d.classList.add("empty"); d.textContent = "empty"; seats.appendChild(d); continue; }
      const p = h && h.players.find((q) => q.seat === s.seat);
      if (you && s.player === you.player) d.classList.add("mine");
      if (h && h.actor === s.seat && h.phase !== "over") d.classList.add("acting");
      if (p && p.folded) d.classList.add("folded");
      const name = document.createElement("div"); name.className = "name"; name.textContent = s.player;
      const stack = document.createElement("div"); stack.textContent = `${p ? p.stack : s.stack} chips` + (p && p.bet ? ` · bet ${p.bet}` : "");
      const tag = document.createElement("div"); tag.className = "tag";
      const tags = [];
      if (h && h.button === s.seat) tags.push("button");
      if (h && h.small_blind_seat === s.seat) tags.push("SB");
      if (h && h.big_blind_seat === s.seat) tags.push("BB");
      if (s.absent) tags.push("absent");
      if (p && p.shown) tags.push(p.shown.join(" "));
      tag.textContent = tags.join(" · ");
      d.append(name, stack, tag);
      seats.appendChild(d);
    }
    $("pot").textContent = h ? `Pot ${h.pot} · ${h.phase === "draw" ? "draw " + (h.street + 1) : h.phase === "over" ? "hand over" : "betting round " + (h.street + 1)}` : "";
    $("action-clock").textContent = t.clock ? `seat ${t.clock.seat + 1} to act: ${Math.ceil(t.clock.remaining)} s` : "";
    const mine = myTurn();
    const drawing = mine && !!legal("discard");
    const hole = $("hole");
    hole.replaceChildren(...(h ? h.hole_cards : []).map((x) => cardEl(x, drawing)));
    const check = legal("check"), call = legal("call"), bet = legal("bet") || legal("raise");
    $("btn-fold").disabled = !(mine && legal("fold"));
    $("btn-check").disabled = !(mine && check);
    $("btn-call").disabled = !(mine && call);
    $("btn-call").textContent = call ? `Call ${call.amount}` : "Call";
    $("btn-bet").disabled = !(mine && bet);
    $("btn-bet").textContent = bet ? `${bet.kind === "bet" ? "Bet" : "Raise to"} ${bet.amount}` : "Bet";
    $("btn-draw").disabled = !drawing;
    $("btn-draw").textContent = st.picked.size ? `Draw ${st.picked.size}` : "Stand pat";
    const r = h && h.result;
    $("result").textContent = r ? r.pots.map((pot) => `pot ${pot.amount} to seat ${pot.winners.map((w) => w + 1).join(", ")}`).join("; ") : "";
  }

  const body = $("standings").querySelector("tbody");
  body.replaceChildren(...f.standings.map((e) => {
    const tr = document.createElement("tr");
    if (you && e.entry === you.entry) tr.className = "me";
    const place = e.place !== null ? (e.places && e.places[1] !== e.places[0] ? `${e.places[0]}-${e.places[1]}` : String(e.place)) : "";
    for (const x of [place, e.player, e.status === "busted" ? "" : e.stack, e.prize ?? ""]) {
      const td = document.createElement("td"); td.textContent = x; tr.appendChild(td);
    }
    return tr;
  }));
  $("final").hidden = f.status !== "over";
  $("standings-title").textContent = f.status === "over" ? "Final standings and payouts" : "Standings";
  $("news").replaceChildren(...f.news.slice().reverse().map((e) => { const li = document.createElement("li"); li.textContent = news(e); return li; }));
}

document.addEventListener("DOMContentLoaded", () => {
  $("reg-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    send({ type: "register", name: $("reg-name").value.trim() });
  });
  $("reenter-btn").addEventListener("click", () => send({ type: "register", name: st.player || "" }));
  $("back-btn").addEventListener("click", () => send({ type: "back" }));
  $("btn-fold").addEventListener("click", () => act({ kind: "fold" }));
  $("btn-check").addEventListener("click", () => act({ kind: "check" }));
  $("btn-call").addEventListener("click", () => { const a = legal("call"); act({ kind: "call", amount: a.amount }); });
  $("btn-bet").addEventListener("click", () => { const a = legal("bet") || legal("raise"); act({ kind: a.kind, amount: a.amount }); });
  $("btn-draw").addEventListener("click", () => act({ kind: "discard", cards: Array.from(st.picked) }));
  connect();
});
