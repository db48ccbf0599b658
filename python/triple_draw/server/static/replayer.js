// The hand replayer: the server replays the record and sends one frame per event (the
// whole table after it); this page only shows the frames, one at a time.
"use strict";

const state = { hands: [], hand: null, i: 0, timer: null };
const $ = (id) => document.getElementById(id);

function cardSpan(c) {
  const s = document.createElement("span");
  s.className = "card" + (c === "??" ? " hidden" : (c[1] === "h" || c[1] === "d") ? " red" : "");
  s.textContent = c;
  return s;
}

function status(text) { $("status").textContent = text; }

function load(doc) {
  state.hands = doc.hands;
  const sel = $("hand-select");
  sel.replaceChildren();
  doc.hands.forEach((h, k) => {
    const o = document.createElement("option");
    o.value = String(k);
    o.textContent = `#${h.id} (${h.site}, ${h.players.length} players)`;
    sel.appendChild(o);
  });
  status(`${doc.hands.length} hand${doc.hands.length === 1 ? "" : "s"}` +
         (doc.refused ? `, ${doc.refused} refused` : ""));
  choose(0);
}

function choose(k) {
  stop();
  state.hand = state.hands[k];
  state.i = 0;
  const streets = $("streets");
  streets.replaceChildren();
  const seen = new Set();
  state.hand.frames.forEach((f, j) => {
    if (seen.has(f.street)) return;
    seen.add(f.street);
    const b = document.createElement("button");
    b.textContent = f.street;
    b.dataset.street = f.street;
    b.addEventListener("click", () => { stop(); show(j); });
    streets.appendChild(b);
  });
  show(0);
}

function show(i) {
  const h = state.hand;
  if (!h) return;
  state.i = Math.max(0, Math.min(i, h.frames.length - 1));
  const f = h.frames[state.i];
  $("street").textContent = f.street;
  $("pot").textContent = `Pot ${f.pot}`;
  $("action").textContent = f.text;
  $("step").textContent = `${state.i + 1} / ${h.frames.length}`;
  const rows = $("seat-rows");
  rows.replaceChildren();
  f.seats.forEach((s, k) => {
    const tr = document.createElement("tr");
    tr.dataset.seat = String(k);
    if (s.folded) tr.classList.add("folded");
    if (k === h.viewer) tr.classList.add("viewer");
    const cells = [s.name, s.position, String(s.stack), s.bet ? String(s.bet) : "", null,
                   s.draws.map((d) => (d === 0 ? "pat" : String(d))).join(" · ")];
    cells.forEach((c, j) => {
      const td = document.createElement("td");
      td.className = ["name", "position", "stack", "bet", "cards", "draws"][j];
      if (j === 4) s.cards.forEach((card) => td.appendChild(cardSpan(card)));
      else td.textContent = c;
      tr.appendChild(td);
    });
    rows.appendChild(tr);
  });
  const v = $("verdict");
  if (f.verdict) {
    const d = f.verdict;
    const threw = d.discarded.length ? d.discarded.join(" ") : "nothing (pat)";
    const best = d.best.length ? d.best.join(" ") : "nothing (pat)";
    const err = d.exact ? "exact" : `sampled, ±${Math.max(d.stderr, d.best_stderr).toFixed(3)}`;
    v.textContent = d.cost > 0
      ? `Draw ${d.draw}: threw ${threw} (${d.score.toFixed(3)} to finish with an 8-low or better); ` +
        `better: throw ${best} (${d.best_score.toFixed(3)}), cost ${d.cost.toFixed(3)} (${err}; ignores the betting)`
      : `Draw ${d.draw}: threw ${threw}: the best draw (${d.score.toFixed(3)} to finish with an 8-low or better; ${err})`;
    v.className = d.cost > 0 ? "" : "good";
    v.hidden = false;
  } else {
    v.hidden = true;
  }
}

function stop() {
  if (state.timer !== null) { clearInterval(state.timer); state.timer = null; }
  $("btn-play").textContent = "▶ play";
}

function play() {
  if (state.timer !== null) { stop(); return; }
  $("btn-play").textContent = "⏸ pause";
  state.timer = setInterval(() => {
    if (!state.hand || state.i >= state.hand.frames.length - 1) { stop(); return; }
    show(state.i + 1);
    if (state.i >= state.hand.frames.length - 1) stop();
  }, 700);
}

async function post(body) {
  status("replaying…");
  const r = await fetch("/api/replay", { method: "POST", body });
  const doc = await r.json();
  if (!r.ok) { status(`error: ${doc.error}`); return false; }
  load(doc);
  return true;
}

// A hand of the web table's log (/replay?table=T&hand=ID): that seat's hand, fetched with
// the table's seat token that the table's page keeps in this browser (never in the URL)
async function loadSeatHand(table, id) {
  if (!/^[0-9]{1,12}$/.test(id)) { status(`error: ${JSON.stringify(id.slice(0, 20))} is not a hand id`); return; }
  const token = table ? localStorage.getItem("triple-draw-token:" + table) : null;
  if (!token) {
    status(`hand #${id}: this browser holds no seat at table ${table || "(none given)"}: ` +
           "open the link from the table's page where you played it, or use My hands");
    return;
  }
  status(`loading hand #${id}…`);
  const r = await fetch(`/api/history?format=phh&hand=${id}`,
                        { headers: { Authorization: `Bearer ${token}` } });
  if (!r.ok) { status(`hand #${id}: ${await r.text()}`); return; }
  if (!(await post(await r.text()))) return;
  const k = state.hands.findIndex((h) => String(h.id) === id);
  if (k < 0) { status(`hand #${id} is not in the record the server sent`); return; }
  $("hand-select").value = String(k);
  choose(k);
  status(`hand #${id}`);
}

$("btn-start").addEventListener("click", () => { stop(); show(0); });
$("btn-prev").addEventListener("click", () => { stop(); show(state.i - 1); });
$("btn-next").addEventListener("click", () => { stop(); show(state.i + 1); });
$("btn-end").addEventListener("click", () => { stop(); if (state.hand) show(state.hand.frames.length - 1); });
$("btn-play").addEventListener("click", play);
$("hand-select").addEventListener("change", (e) => choose(Number(e.target.value)));
$("file-input").addEventListener("change", async (e) => {
  const file = e.target.files[0];
  if (file) await post(await file.arrayBuffer());
});
$("mine-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const token = $("token-input").value.trim();
  const r = await fetch("/api/history?format=phh", { headers: { Authorization: `Bearer ${token}` } });
  if (!r.ok) { status(`my hands: ${await r.text()}`); return; }
  await post(await r.text());
});
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "INPUT") return;
  if (e.key === "ArrowRight") { stop(); show(state.i + 1); }
  if (e.key === "ArrowLeft") { stop(); show(state.i - 1); }
});

const query = new URLSearchParams(location.search);
if (query.get("hand") !== null) {
  loadSeatHand(query.get("table"), query.get("hand"));
} else if (query.get("source") === "file") {
  fetch("/api/replay/file").then(async (r) => {
    const doc = await r.json();
    if (!r.ok) { status(`error: ${doc.error}`); return; }
    load(doc);
  });
}
