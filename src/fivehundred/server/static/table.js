// The browser table of `fivehundred serve`: plain JavaScript, no build step.
// It keeps the table id and this seat's token in the page's #fragment (which the
// browser never sends to the server) and polls GET /tables/{id} for updates.
"use strict";

const SUITS = { S: "\u2660", C: "\u2663", D: "\u2666", H: "\u2665" };
const RED = new Set(["D", "H"]);
const KINDS = ["human", "random", "heuristic", "search"];
const $ = (id) => document.getElementById(id);
let here = null;     // {table, token}
let shown = null;    // the last answer of GET /tables/{id}
let chosen = new Set();  // cards chosen for a discard

function fragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  return params.get("table") && params.get("token")
    ? { table: params.get("table"), token: params.get("token") } : null;
}

function link(table, token) {
  return `${location.origin}/#table=${encodeURIComponent(table)}&token=${encodeURIComponent(token)}`;
}

async function call(method, path, body) {
  const headers = { "content-type": "application/json" };
  if (here) headers.authorization = `Bearer ${here.token}`;
  const answer = await fetch(path, { method, headers, body: body && JSON.stringify(body) });
  const data = await answer.json().catch(() => ({ error: "BAD_ANSWER", message: "not JSON" }));
  return { ok: answer.ok, status: answer.status, data };
}

// Card order and trumps come from the server (answer.display, made by the library's
// fivehundred.tricks.display_groups and is_trump): this script only draws them.
function suitOf(card) { return card === "Jo" ? null : card.slice(-1); }
function rankOf(card) { return card === "Jo" ? "Jo" : card.slice(0, -1); }

function cardButton(card, { trumps, who, onClick, legal } = {}) {
  const el = document.createElement("button");
  el.type = "button";
  el.className = "card";
  el.dataset.card = card;
  const suit = suitOf(card);
  if (suit && RED.has(suit)) el.classList.add("red");
  if (trumps && trumps.has(card)) el.classList.add("trump");
  el.append(card === "Jo" ? "\u{1F0CF}" : `${rankOf(card)}${SUITS[suit]}`);
  el.setAttribute("aria-label", card);
  if (who !== undefined) {
    const w = document.createElement("span");
    w.className = "who";
    w.textContent = who;
    el.append(w);
  }
  if (onClick && legal) {
    el.classList.add("legal");
    el.addEventListener("click", onClick);
  } else {
    el.disabled = true;
    if (onClick === null) el.classList.add("idle");  // a card of the hand that may not be played now
  }
  return el;
}

function seatName(seat) {
  return seat === shown.seat ? "you" : `seat ${seat} (${shown.seats[seat]})`;
}

function showRefusal(data) {
  const el = $("refusal");
  el.hidden = !data;
  el.textContent = data ? `${data.error}: ${data.message}` : "";
}

async function act(action) {
  showRefusal(null);
  const { ok, data } = await call("POST", `/tables/${here.table}/actions`,
    { action, version: shown.version });
  if (!ok) showRefusal(data);
  chosen = new Set();
  await refresh(true);
}

function render(answer) {
  shown = answer;
  const v = answer.view.view;
  const display = answer.display;  // the cards in the order shown, and the trumps
  const trumps = new Set(display.trumps);
  const legal = answer.legal_actions;
  const sides = answer.sides;
  const mySide = sides.findIndex((s) => s.includes(answer.seat));
  $("info").innerHTML = "";
  const info = document.createElement("p");
  const turn = v.result ? "The game is over."
    : v.to_act === answer.seat ? "Your turn." : v.to_act === null ? ""
    : `Waiting for ${seatName(v.to_act)}.`;
  info.textContent = `Hand ${v.hand_number}, ${v.phase}. You are seat ${answer.seat}. `
    + (v.contract ? `Contract ${v.contract} by ${seatName(v.contractor)}. ` : "") + turn;
  $("info").append(info);
  $("status").textContent = `table ${answer.table} \u00b7 version ${answer.version}`;

  const rows = sides.map((seats, i) =>
    `<tr class="${i === mySide ? "you" : ""}"><th>${i === mySide ? "Your side" : "Side " + i}`
    + ` (${seats.join(", ")})</th><td>${v.scores[i]}</td><td>${v.tricks_won[i]} tricks</td></tr>`);
  $("scores").innerHTML = `<h3>Scores</h3><table>${rows.join("")}</table>`;

  $("calls").innerHTML = "";
  for (const [seat, callText] of v.auction) {
    const li = document.createElement("li");
    li.textContent = `${seatName(seat)}: ${callText}`;
    $("calls").append(li);
  }

  $("trick").innerHTML = "";
  for (const [seat, card] of v.trick) {
    const who = seat === answer.seat ? "you" : `seat ${seat}`;
    $("trick").append(cardButton(card.split(":")[0], { trumps, who }));
  }
  $("exposed-box").hidden = !v.exposed_hand;
  $("exposed").innerHTML = "";
  for (const card of (display.exposed_hand || []).flat()) {
    $("exposed").append(cardButton(card, { trumps }));
  }

  const discarding = legal.length > 0 && legal[0].startsWith("discard ");
  $("kitty-box").hidden = !v.kitty;
  const discards = new Set(legal.filter((a) => a.startsWith("discard "))
    .map((a) => a.split(" ").slice(1).sort().join(" ")));
  const plays = v.phase === "play" ? legal : [];
  $("hand").innerHTML = "";
  $("kitty").innerHTML = "";
  for (const [n, group] of display.hand.entries()) {
    if (n > 0) {  // a gap between the trumps and each suit
      const gap = document.createElement("span");
      gap.className = "suit-gap";
      $("hand").append(gap);
    }
    for (const card of group) {
      const jokerPlays = plays.filter((a) => a.startsWith(`${card}:`));
      let onClick = v.to_act === answer.seat ? null : undefined;
      if (discarding) onClick = () => {
        chosen.has(card) ? chosen.delete(card) : chosen.add(card);
        render(shown);
      };
      else if (plays.includes(card)) onClick = () => act(card);
      else if (jokerPlays.length === 1) onClick = () => act(jokerPlays[0]);
      const el = cardButton(card, { trumps, onClick, legal: Boolean(onClick) });
      if (chosen.has(card)) el.classList.add("selected");
      if (discarding && (v.kitty || []).includes(card)) el.title = "from the kitty";
      $("hand").append(el);
    }
  }
  for (const card of display.kitty || []) $("kitty").append(cardButton(card, { trumps }));

  $("moves").innerHTML = "";
  if (discarding) {
    const pick = [...chosen].sort().join(" ");
    const button = document.createElement("button");
    button.textContent = `Discard ${chosen.size} of 3`;
    button.id = "discard";
    button.disabled = !discards.has(pick);
    button.addEventListener("click", () => act(`discard ${[...chosen].join(" ")}`));
    $("moves").append(button);
  }
  const jokers = plays.filter((a) => a.startsWith("Jo:"));
  for (const action of legal) {
    if (discarding || (plays.includes(action) && !(jokers.length > 1 && jokers.includes(action)))) {
      continue;
    }
    const button = document.createElement("button");
    button.textContent = action;
    button.dataset.action = action;
    button.addEventListener("click", () => act(action));
    $("moves").append(button);
  }

  const last = v.last_hand;
  $("last").innerHTML = "";
  if (last) {
    const p = document.createElement("p");
    p.textContent = `Last hand: ${last.contract || "no contract"}`
      + (last.contractor !== null ? ` by ${seatName(last.contractor)}` : "")
      + `, ${last.made ? "made" : "lost"}; changes ${last.changes.join(" / ")}.`;
    $("last").append(p);
  }
  if (v.result) {
    const p = document.createElement("p");
    p.id = "result";
    p.textContent = `Game over: side ${v.result.winners.join(" and ")} won.`;
    $("last").append(p);
  }
}

async function refresh(force) {
  if (!here) return;
  const { ok, data } = await call("GET", `/tables/${here.table}`);
  if (!ok) { showRefusal(data); return; }
  if (force || !shown || data.version !== shown.version) render(data);
}

function seatKinds() {
  const players = Number($("players").value);
  const box = $("seat-kinds");
  box.innerHTML = "";
  for (let seat = 0; seat < players; seat++) {
    const label = document.createElement("label");
    label.textContent = seat === 0 ? "Seat 0: you " : `Seat ${seat} `;
    if (seat > 0) {
      const select = document.createElement("select");
      select.dataset.seat = seat;
      for (const kind of KINDS) {
        const option = document.createElement("option");
        option.value = kind;
        option.textContent = kind === "human" ? "a person (send a link)" : `computer: ${kind}`;
        option.selected = kind === "heuristic";
        select.append(option);
      }
      label.append(select);
    }
    box.append(label);
  }
}

async function create(event) {
  event.preventDefault();
  const players = Number($("players").value);
  const seats = ["human", ...[...document.querySelectorAll("#seat-kinds select")].map((s) => s.value)];
  here = null;
  const { ok, data } = await call("POST", "/tables", { rules: players === 4 ? {} : { players }, seats });
  if (!ok) { showRefusal(data); $("status").textContent = `${data.error}: ${data.message}`; return; }
  const others = Object.entries(data.tokens).filter(([seat]) => seat !== "0");
  sessionStorage.setItem(`links:${data.table}`, JSON.stringify(others.map(([s, t]) => [s, link(data.table, t)])));
  location.hash = `table=${encodeURIComponent(data.table)}&token=${encodeURIComponent(data.tokens["0"])}`;
}

function enter() {
  here = fragment();
  shown = null;
  $("lobby").hidden = Boolean(here);
  $("table").hidden = !here;
  $("links").innerHTML = "";
  if (here) {
    const links = JSON.parse(sessionStorage.getItem(`links:${here.table}`) || "[]");
    for (const [seat, url] of links) {
      const label = document.createElement("label");
      label.textContent = `Link for seat ${seat}: `;
      const input = document.createElement("input");
      input.readOnly = true;
      input.value = url;
      label.append(input);
      $("links").append(label);
    }
    refresh(true);
  }
}

$("players").addEventListener("change", seatKinds);
$("create").addEventListener("submit", create);
window.addEventListener("hashchange", enter);
seatKinds();
enter();
setInterval(() => refresh(false), 1000);
