// The browser table of `fivehundred serve`: plain ES modules, no build step.
// The table id and the seat's token live in the page's #fragment (never sent to the
// server in a URL). The server says everything the page shows (answer.page, made by
// fivehundred.server._present, and answer.display, the cards in the library's order):
// this script holds no rule, no rank list and no points of its own.
import { cardElement } from "./cards.js";
import {
  currentFrame, drawAuction, drawBar, drawBox, drawSeats, drawSheet, drawTally, drawTrick,
  heldAnswer,
} from "./draw.js";
import { Connection } from "./live.js";
import { link, setupLobby, showLinks } from "./lobby.js";
import { cardText, drawReviewBody } from "./review.js";

const $ = (id) => document.getElementById(id);
const PACES = { instant: 0, fast: 350, normal: 800, slow: 1500 };
// Seconds the end of a hand stays up at each pace, unless the person says "Next hand".
const HOLDS = { instant: 0, fast: 15, normal: 30, slow: 60 };

let here = null;        // {table, token}
let connection = null;
let shown = null;       // the answer drawn now
let latest = null;      // the newest answer received
let animating = false;
let sending = false;    // an action is on its way: the controls wait
let chosen = new Set(); // cards chosen for the discard
let reviews = new Map();

function pace() {
  const name = localStorage.getItem("fivehundred.pace") || "normal";
  return PACES[name] ?? PACES.normal;
}
function holdSeconds() {  // the person's own choice ("fivehundred.hold"), else the pace's
  const chosen = Number(localStorage.getItem("fivehundred.hold"));
  if (localStorage.getItem("fivehundred.hold") !== null && Number.isFinite(chosen) && chosen >= 0) {
    return Math.min(chosen, 600);
  }
  const name = localStorage.getItem("fivehundred.pace") || "normal";
  return HOLDS[name] ?? HOLDS.normal;
}
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

// -- words -------------------------------------------------------------------------------

function nameOf(seat, { start = false } = {}) {
  const name = shown.page.seats[seat].name;
  return name === "You" && !start ? "you" : name;
}

// A refusal for a person: no code, names instead of seat numbers, cards with symbols.
function refusalWords(code, message) {
  switch (code) {
    case "STALE_VERSION":
      return "The table moved on before your move arrived. Here it is now: choose again.";
    case "NOT_YOUR_TURN":
      return "It is not your turn yet.";
    case "GAME_OVER": return "The game is over.";
    case "UNAUTHORIZED":
      return "This link is not a seat at this table, or the table is gone.";
    case "NO_SUCH_TABLE": return "There is no such table: it may have been closed.";
    case "BUSY": case "RATE_LIMITED":
      return "The server is busy and did not take your move. Try again.";
    case "DATABASE_UNAVAILABLE":
      return "The server lost its database for a moment. Here is the table now: try again.";
    case "BAD_NOTATION": return "That move could not be read. Choose again.";
    case "SEAT_IN_USE":
      return "That person is still at the table: only they can give their seat away.";
    case "LAST_PERSON": return "The last person's seat stays a person's.";
    case "NOT_GONE_LONG":
      return "That person has not been gone long enough: their seat can go to a computer later.";
    case "SEAT_GIVEN":
      return "Your seat went to a computer player while you were away.";
    default: break;
  }
  let text = (message || "That move is not allowed now.")
    .replace(/\s*\((?:R|P|V-)[^)]*\)/g, "")
    .replace(/:?\s*\bR\d+(\.\d+)*:/g, ":")
    .replace(/;\s*the order of a hand is R[\d.]+/g, "")
    .replace(/\b(seat) (\d+)(?:'s)?/gi, (all, word, seat) => (shown ? nameOf(Number(seat)) : all))
    .replace(/\b(10|11|12|13|[2-9AKQJ])([SCDH])\b/g, (all, rank, suit) =>
      `${rank}${"\u2660\u2663\u2666\u2665"["SCDH".indexOf(suit)]}`)
    .replace(/\bNT\b/g, " no trumps");
  text = text.replace(/^you called/, "You called").replace(/^you must/, "You must");
  text = text.charAt(0).toUpperCase() + text.slice(1);
  return text.endsWith(".") ? text : `${text}.`;
}

function showRefusal(text) {
  const box = $("refusal");
  box.hidden = !text;
  box.textContent = text || "";
}

// -- the connection ----------------------------------------------------------------------

const STATE_WORDS = {
  connecting: () => "Connecting…",
  live: () => "Live",
  polling: () => "Connected: checking the table every 2 s",
  offline: () => "Offline: the server is out of reach. Your move waits until it is back.",
};

function connectionState(state, detail) {
  const box = $("connection");
  box.dataset.state = state;
  box.textContent = STATE_WORDS[state](detail);
}

async function act(action) {
  if (!shown) return;
  if (sending) {  // a second click while the first is on its way: said, not dropped
    showNote("Your move is on its way: the table shows it in a moment.");
    return;
  }
  showRefusal(null);
  showNote(null);
  sending = true;
  catchUp();
  if (shown.view.view.phase === "play") showMyCard(action.split(":")[0]);
  markSending();
  const sent = await connection.send("action", { action, version: shown.version });
  chosen = new Set();
  if (!sent) showRefusal("Not sent yet: the server is out of reach. It will be sent when it is back.");
}

// The card the person played leaves the hand and lies before them at once, before the
// server answers; the server's view then draws the same (or its refusal puts it back).
function showMyCard(card) {
  const node = $("hand").querySelector(`[data-card="${CSS.escape(card)}"]`);
  if (!node) return;
  if (document.activeElement === node) {  // the keyboard stays in the hand
    (node.nextElementSibling || node.previousElementSibling || $("turn")).focus({ preventScroll: true });
  }
  node.remove();
  const frame = currentFrame(shown.page);
  const plays = frame.winner !== null && frame.winner !== undefined ? [] : [...frame.plays];
  plays.push({ seat: shown.seat, card });
  drawTrick({ plays, winner: null }, shown);
  $("turn").textContent = `You played ${(shown.page.cards[card] || {}).label || card}.`;
  $("turn").classList.remove("mine");
}

// A short sentence by the hand: why a click did nothing (never a silent click).
function showNote(text) {
  const note = $("note");
  note.textContent = text || "";
  note.hidden = !text;
}

async function claim() {
  if (!shown || sending) return;
  showRefusal(null);
  sending = true;
  markSending();
  await connection.send("claim", { version: shown.version });
}

function refused(code, message) {
  sending = false;
  showRefusal(refusalWords(code, message));
  if (shown) render(shown);
  if (code === "STALE_VERSION") connection.fetchView();
  else catchUp();  // a card laid before the answer goes back to the hand
}

function markSending() {
  for (const el of document.querySelectorAll("#table button.legal, #moves button, #box button, #misere button")) {
    el.setAttribute("aria-disabled", "true");
    el.classList.add("waiting");
  }
}

// -- receiving views: drawn at once; only the felt lays the cards out one at a time ------
//
// Everything but the felt (the hand, whose turn it is, the controls) shows the newest
// view the moment it arrives. The cards played since the felt was last drawn are laid
// on it one at a time at the person's pace; a move of the person's own ends that at once.

let felt = [];          // the frames still to lay on the felt, each {frame, answer}
let feltTarget = null;  // the answer the felt's frames lead to

function receive(answer) {
  const newest = latest || shown;
  // the same view again; a seat given to a computer player changes no version, only seats,
  // and a wait after a hand changes only its pause
  if (newest && answer.version === newest.version && answer.seat === newest.seat
    && String(answer.seats) === String(newest.seats)
    && JSON.stringify(answer.pause) === JSON.stringify(newest.pause)) return;
  latest = answer;
  const from = feltTarget || shown;
  const frames = pace() > 0 && from && from.seat === answer.seat ? framesBetween(from, answer) : [];
  felt.push(...frames.map((frame) => ({ frame, answer })));
  feltTarget = answer;
  const ended = shown && answer.page.previous && answer.page.hand !== shown.page.hand
    && answer.page.previous.hand === shown.page.hand;
  if (ended && answer.page.you !== null && answer.view.view.result === null && holdSeconds() > 0) {
    hold(answer.page.previous.hand, holdSeconds());
  }
  followPause(answer);
  if (shown === null || answer.version !== shown.version || answer.seat !== shown.seat) sending = false;
  render(answer);
  layOut();
}

function playsOf(tricks, current) {
  const frames = [];
  for (const trick of tricks) {
    trick.plays.forEach((_, n) => frames.push({ plays: trick.plays.slice(0, n + 1),
      winner: n + 1 === trick.plays.length ? trick.winner : null, words: trick.words }));
  }
  current.forEach((_, n) => frames.push({ plays: current.slice(0, n + 1), winner: null }));
  return frames;
}

// The frames between what is drawn and a newer answer: each card played, each trick's
// winner, and the result of a hand that ended meanwhile.
function framesBetween(old, next) {
  if (!old) return [];
  const before = old.page.tricks.reduce((n, t) => n + t.plays.length, 0) + old.page.trick.length;
  if (next.page.hand === old.page.hand) {
    return playsOf(next.page.tricks, next.page.trick).slice(before);
  }
  const previous = next.page.previous;
  if (!previous || previous.hand !== old.page.hand) return [];
  return [
    ...playsOf(previous.tricks, []).slice(before),
    { plays: [], result: previous.words },
    ...playsOf(next.page.tricks, next.page.trick),
  ];
}

// Lays the queued frames on the felt, one at a time; the newest view's felt at the end.
async function layOut() {
  if (animating) return;
  animating = true;
  try {
    while (felt.length) {
      if (pace() === 0) { felt = []; break; }
      const { frame, answer } = felt.shift();
      drawTrick(frame, answer);
      await sleep(frame.winner !== null && frame.winner !== undefined ? pace() * 2
        : frame.result ? pace() * 3 : pace());
    }
    if (shown) drawTrick(feltFrame(shown.page), shown);
  } finally {
    animating = false;
  }
}

// What the felt shows when no card is being laid: the trick, or while the end of a
// hand is held, that hand's last trick with its winner.
function feltFrame(page) {
  if (held && page.previous && page.previous.tricks.length) {
    const t = page.previous.tricks[page.previous.tricks.length - 1];
    return { plays: t.plays, winner: t.winner, words: t.words };
  }
  return currentFrame(page);
}

// -- the end of a hand: its result, last trick and review stay until "Next hand" --------

let held = null;  // {hand, until, timer, said}: the hand whose end is shown

function hold(hand, seconds) {
  if (held) clearInterval(held.timer);
  held = { hand, until: Date.now() + seconds * 1000, timer: setInterval(tick, 1000), said: false };
}

// The server's wait after a hand (answer.pause): the computers play on once each person
// present has said "Next hand", or when its time is up. This page's countdown ends no
// later than the server's, and then says "Next hand" for the person.
function pauseLeft(pause) {
  return Math.max(0, Math.min(pause.seconds, pause.until - Date.now() / 1000));
}

function waitsForMe(pause, answer) {
  return pause.waiting.includes(answer.seat);
}

function followPause(answer) {
  const pause = answer.pause;
  if (answer.page.you === null) return;
  if (!pause) {
    if (held && held.said) release();  // everyone was ready: every page moves on at once
    return;
  }
  const previous = answer.page.previous;
  if (!held && previous && waitsForMe(pause, answer)) {
    if (holdSeconds() > 0) hold(previous.hand, Math.min(holdSeconds(), pauseLeft(pause)));
    else sayNext();  // the instant pace: ready at once
  }
  if (!held) return;
  held.until = Math.min(held.until, Date.now() + pauseLeft(pause) * 1000);
  held.serverUntil = Date.now() + pauseLeft(pause) * 1000;
}

async function sayNext() {
  if (held) held.said = true;
  try {
    await connection.http("POST", `/tables/${here.table}/next`);
  } catch (err) {
    if (held) held.said = false;  // said again when the countdown or the button asks
  }
}

function tick() {
  if (!held) return;
  if (Date.now() >= held.until) { nextHand(); return; }
  $("hand-end-count").textContent = countdownWords();
}

function countdownWords() {
  const answer = latest || shown;
  const pause = answer ? answer.pause : null;
  if (held.said && pause && pause.waiting.length) {
    const left = Math.max(0, Math.ceil(((held.serverUntil || 0) - Date.now()) / 1000));
    const names = pause.waiting.filter((seat) => seat !== answer.seat)
      .map((seat) => answer.page.seats[seat].name);
    if (names.length) {
      return `Waiting for ${names.join(", ")} to be ready · the next hand starts within ${left} s.`;
    }
  }
  const left = Math.max(0, Math.ceil((held.until - Date.now()) / 1000));
  return `The next hand starts in ${left} s, or when you are ready.`;
}

// "Next hand" (the button, or the countdown's end): when the server waits for people,
// say so and keep the hand's end up until everyone is ready; else move on at once.
function nextHand() {
  if (!held) return;
  const pause = (latest || shown || {}).pause;
  const waits = pause && pause.waiting.length && (held.said || waitsForMe(pause, latest || shown));
  // past the server's time and a little more, the page moves on whatever it has heard
  if (waits && Date.now() < (held.serverUntil || 0) + 5000) {
    if (!held.said) sayNext();
    $("next-hand").disabled = true;
    $("next-hand").textContent = "Ready ✓";
    $("hand-end-count").textContent = countdownWords();
    return;
  }
  release();
}

function release() {
  if (!held) return;
  clearInterval(held.timer);
  held = null;
  if (shown) {
    render(shown);
    if (!animating && !felt.length) drawTrick(currentFrame(shown.page), shown);
    $("turn").focus({ preventScroll: true });
  }
}

// Whether the page shows a hand's end: one held for the person, or the game's end.
const showsEnd = (answer) => Boolean(held) || answer.view.view.result !== null;

function drawHandEnd(answer) {
  const page = answer.page;
  const over = answer.view.view.result !== null;
  $("hand-end").hidden = !held && !over;
  $("next-hand").hidden = !held;
  $("next-hand").disabled = Boolean(held && held.said);
  $("next-hand").textContent = held && held.said ? "Ready ✓" : "Next hand";
  $("game-over-moves").hidden = !over;
  if (!held && !over) return;
  const previous = page.previous;
  const hand = held ? held.hand : page.hand;
  $("hand-end-title").textContent = over ? "The game is over" : `Hand ${hand} is over`;
  const words = over ? [page.turn] : [];
  if (previous && previous.hand === hand) words.push(previous.words);
  else if (over && page.sheet.length) words.push(page.sheet[page.sheet.length - 1].words);
  $("hand-end-words").textContent = words.join(" ");
  $("hand-end-count").textContent = held ? countdownWords() : "";
}


// The person moves: the felt catches up at once (no card of theirs waits behind others').
function catchUp() {
  felt = [];
  if (shown) drawTrick(currentFrame(shown.page), shown);
}

// -- drawing -----------------------------------------------------------------------------

function drawHand(answer) {
  const page = answer.page;
  const v = answer.view.view;
  const legal = answer.legal_actions;
  const mine = v.to_act === answer.seat && page.you !== null;
  $("hand-box").hidden = page.you === null || answer.display.hand.length === 0;
  const discarding = mine && legal.length > 0 && legal[0].startsWith("discard ");
  const plays = v.phase === "play" && mine ? legal : [];
  const hand = $("hand");
  hand.textContent = "";
  hand.classList.toggle("discarding", discarding);
  const cards = answer.display.hand.flat();
  hand.style.setProperty("--count", cards.length);
  hand.style.setProperty("--gaps", Math.max(0, answer.display.hand.length - 1));
  for (const [n, group] of answer.display.hand.entries()) {
    for (const [m, card] of group.entries()) {
      const info = page.cards[card] || {};
      const el = cardElement(card, info, { button: true });
      if (n > 0 && m === 0) el.classList.add("suit-start");
      const jokerPlays = plays.filter((a) => a.startsWith(`${card}:`));
      let onClick = null;
      if (discarding) {
        onClick = () => {
          chosen.has(card) ? chosen.delete(card) : chosen.add(card);
          render(shown);
        };
      } else if (plays.includes(card)) onClick = () => act(card);
      else if (jokerPlays.length === 1) onClick = () => act(jokerPlays[0]);
      if (onClick) {
        el.classList.add("legal");
        el.addEventListener("click", onClick);
      } else {
        el.setAttribute("aria-disabled", "true");
        if (plays.length) el.classList.add("unplayable");
        el.addEventListener("click", () => showNote(!mine ? `Not your turn yet: ${page.turn}`
          : plays.length ? "That card cannot be played now: the raised cards can."
            : "Your turn is not a card: choose above or beside the table."));
      }
      if (chosen.has(card)) {
        el.classList.add("selected");
        el.setAttribute("aria-pressed", "true");
      } else if (discarding) el.setAttribute("aria-pressed", "false");
      hand.append(el);
    }
  }
  const exposed = answer.display.exposed_hand;  // an open misère hand, while it has cards
  $("exposed-box").hidden = !exposed || exposed.flat().length === 0;
  $("exposed").replaceChildren(...(exposed || []).flat().map((c) => cardElement(c, page.cards[c] || {})));
  return { discarding, plays, mine };
}

function drawMoves(answer, { discarding, plays, mine }) {
  const moves = $("moves");
  moves.textContent = "";
  if (!mine) return;
  const legal = answer.legal_actions;
  if (discarding) {
    const discards = new Set(legal.map((a) => a.split(" ").slice(1).sort().join(" ")));
    const pick = [...chosen].sort().join(" ");
    const button = document.createElement("button");
    button.type = "button";
    button.id = "discard";
    button.dataset.action = "discard";
    button.className = "primary";
    button.textContent = chosen.size === 3 ? "Discard these 3 cards" : `Choose 3 cards to discard (${chosen.size} chosen)`;
    if (discards.has(pick)) button.addEventListener("click", () => act(`discard ${[...chosen].join(" ")}`));
    else button.disabled = true;
    moves.append(button);
    return;
  }
  const jokers = plays.filter((a) => a.startsWith("Jo:"));
  const box = answer.page.box;
  const cardCalls = legal.filter((a) => /^partner (Jo|10|[2-9AKQJ]|1[1-3])[SCDH]?$/.test(a));
  if (cardCalls.length > 4) {  // a partner called by card: a compact grid, a row a suit
    const grid = document.createElement("div");
    grid.className = "partner-grid";
    grid.setAttribute("role", "group");
    grid.setAttribute("aria-label", "Call a partner: whoever holds the card plays with you");
    for (const suit of ["", "S", "C", "D", "H"]) {
      const row = cardCalls.filter((a) => (suit ? a.endsWith(suit) : a.endsWith("Jo")));
      if (!row.length) continue;
      const line = document.createElement("div");
      line.className = "partner-row";
      for (const action of row) {
        const card = action.split(" ")[1];
        const el = button(cardText(card), () => act(action), { kind: "partner" });
        el.dataset.action = action;
        el.classList.add("partner-card");
        if (/[DH]$/.test(card)) el.classList.add("red");
        el.setAttribute("aria-label", answer.page.actions[action] || action);
        line.append(el);
      }
      grid.append(line);
    }
    moves.append(grid);
  }
  for (const action of legal) {
    if (box) continue;  // the bidding box has every call
    if (cardCalls.length > 4 && cardCalls.includes(action)) continue;
    if (plays.includes(action) && !(jokers.length > 1 && jokers.includes(action))) continue;
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = answer.page.actions[action] || action;
    button.dataset.action = action;
    button.addEventListener("click", () => act(action));
    moves.append(button);
  }
  if (answer.view.view.phase === "play") {  // the server proves a claim, or refuses it
    const button = document.createElement("button");
    button.type = "button";
    button.id = "claim";
    button.textContent = "Claim the rest of the tricks";
    button.title = "Accepted only if your side takes every trick left, however the others play";
    button.addEventListener("click", claim);
    moves.append(button);
  }
}

function drawLastTrick() {
  const page = shown.page;
  const trick = page.tricks.length ? page.tricks[page.tricks.length - 1]
    : page.previous && page.previous.tricks[page.previous.tricks.length - 1];
  if (!trick) return;
  $("last-trick-cards").replaceChildren(...trick.plays.map(({ seat, card }) => {
    const figure = document.createElement("figure");
    const node = cardElement(card, page.cards[card] || {});
    if (seat === trick.winner) node.classList.add("winner");
    const caption = document.createElement("figcaption");
    caption.textContent = page.seats[seat].name;
    figure.append(node, caption);
    return figure;
  }));
  $("last-trick-words").textContent = trick.words;
}

// Where the keyboard was: the same control if it is still there, else the first live
// control of the same part of the page, else the sentence saying whose turn it is.
function focusKey() {
  const el = document.activeElement;
  if (!el || el === document.body || !$("table").contains(el)) return null;
  const region = el.closest("#hand, #box, #misere, #moves, #bar, #last-trick");
  return { card: el.dataset.card, action: el.dataset.action, id: el.id, region: region && region.id };
}

function restoreFocus(key) {
  if (!key) return;
  const usable = (el) => el && !el.disabled && el.getAttribute("aria-disabled") !== "true"
    && el.offsetParent !== null;
  let el = key.id ? $(key.id) : null;
  if (!usable(el) && key.card) el = $("hand").querySelector(`[data-card="${key.card}"]`);
  if (!usable(el) && key.action) el = $("table").querySelector(`[data-action="${CSS.escape(key.action)}"]`);
  if (!usable(el) && key.region) {
    el = [...$(key.region).querySelectorAll("button")].find(usable) || null;
  }
  if (!usable(el)) el = [...document.querySelectorAll("#box button, #misere button, #moves button, #hand button.legal")].find(usable) || $("turn");
  el.focus({ preventScroll: true });
}

function render(answer) {
  const key = focusKey();
  if (held && answer.page.you === null) { clearInterval(held.timer); held = null; }
  if (shown && (answer.version !== shown.version || answer.page.hand !== shown.page.hand)) {
    if (answer.page.hand !== shown.page.hand) chosen = new Set();
    const box = $("refusal");
    if (!box.hidden && !sending && box.dataset.version !== String(answer.version)) showRefusal(null);
    if (!sending) showNote(null);
  }
  shown = answer;
  $("refusal").dataset.version = answer.version;
  const turn = held ? `Hand ${held.hand} is over.` : answer.page.turn;
  document.title = answer.page.you === null ? "Five Hundred · watching" : `Five Hundred · ${turn}`;
  $("turn").textContent = turn;
  $("turn").classList.toggle("mine", !held && answer.page.seats.some((s) => s.you && s.to_act));
  const drawn = held ? heldAnswer(answer, held.hand) : answer;  // the held hand, as it ended
  drawBar(drawn);
  drawSeats(drawn);
  drawTally(drawn);
  if (!animating && !felt.length) drawTrick(feltFrame(answer.page), answer);
  drawBox(answer, act);
  if (held) $("bidding").hidden = true;  // the next auction waits for the person
  $("table").classList.toggle("auction", !$("bidding").hidden);
  $("table").classList.toggle("ended", showsEnd(answer));
  drawAuction(drawn);
  drawSheet(answer);
  drawMoves(answer, drawHand(answer));
  if (held) { $("hand-box").hidden = true; $("moves").textContent = ""; }
  drawHandEnd(answer);
  drawReview(answer);
  drawAway(answer);
  drawGiven(answer);
  if (!$("last-trick").hidden) drawLastTrick();
  if (sending) markSending();
  restoreFocus(key);
}

// -- a departed person's seat, given to a computer player -----------------------------
//
// Each other person's seat says whether they are here, or how long they have been gone;
// once they have been gone the server's grace, a button gives the seat to a computer
// player after a confirmation. A person whose seat went to a computer watches, with a
// sentence saying so and a button that takes the seat back.

let people = null;        // the server's GET /people answer, and when it came
let peopleTimer = null;
let confirming = null;    // the seat whose hand-over waits for a confirmation

function drawAway(answer) {
  const page = answer.page;
  const others = page.you === null || answer.view.view.phase === "game_over" ? []
    : page.seats.filter((s) => !s.computer && !s.you);
  $("away").hidden = others.length === 0;
  if (!others.length) { clearTimeout(peopleTimer); peopleTimer = null; }
  else if (peopleTimer === null) askPeople();
  const list = $("away-list");
  const info = new Map(((people && people.seats) || []).map((p) => [p.seat, p]));
  const rows = others.map((seat) => {
    const known = info.get(seat.seat);
    const wait = known && known.wait !== null ? Math.max(0, known.wait - (Date.now() - people.at) / 1000) : null;
    let state = "unknown";
    if (known && known.here) state = "here";
    else if (known && wait > 0) state = `wait:${Math.ceil(wait / 10)}`;
    else if (known) state = confirming === seat.seat ? "confirm" : "gone";
    return { seat, known, wait, state };
  });
  const key = rows.map((r) => `${r.seat.seat}:${r.seat.name}:${r.state}`).join(",");
  if (list.dataset.key === key) return;  // unchanged: the buttons (and the focus) stay
  list.dataset.key = key;
  list.replaceChildren(...rows.map(({ seat, known, wait, state }) => {
    const row = document.createElement("div");
    row.className = "away-seat";
    row.dataset.seat = seat.seat;
    const words = document.createElement("p");
    words.className = "hint";
    row.append(words);
    if (state === "unknown") words.textContent = `${seat.name}: checking whether they are here…`;
    else if (state === "here") words.textContent = `${seat.name} is here.`;
    else if (state.startsWith("wait")) {
      words.textContent = `${seat.name} has been gone ${minutes(known.gone)}: their seat can go `
        + `to a computer player in ${minutes(wait)}, if they have not come back.`;
    } else if (state === "gone") {
      words.textContent = `${seat.name} has been gone ${minutes(known.gone)}.`;
      row.append(button(`Give ${seat.name}'s seat to a computer…`, () => {
        confirming = seat.seat;
        drawAway(shown);
        $("away-list").querySelector(".confirm-yes").focus();
      }, { seat: seat.seat, kind: "give" }));
    } else {
      words.textContent = `Give ${seat.name}'s seat to a computer player? It plays their cards `
        + "from now on; they can take the seat back when they return.";
      row.append(
        button(`Yes, give ${seat.name}'s seat`, () => { confirming = null; handOver(seat.seat); },
          { seat: seat.seat, kind: "yes", className: "confirm-yes" }),
        button("Cancel", () => { confirming = null; drawAway(shown); }, { kind: "cancel" }),
      );
    }
    return row;
  }));
}

function minutes(seconds) {
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return `${m} min${s % 60 ? ` ${s % 60} s` : ""}`;
}

function button(text, onClick, { seat = null, kind = "", className = "" } = {}) {
  const el = document.createElement("button");
  el.type = "button";
  el.textContent = text;
  if (seat !== null) el.dataset.seat = seat;
  if (kind) el.dataset.kind = kind;
  if (className) el.className = className;
  el.addEventListener("click", onClick);
  return el;
}

async function askPeople() {  // every 5 s (2 s while someone is gone), and when a grace is over
  clearTimeout(peopleTimer);
  peopleTimer = setTimeout(askPeople, 5000);
  if (!connection || !shown || shown.page.you === null) return;
  try {
    const answer = await connection.http("GET", `/tables/${here.table}/people`);
    if (answer.ok) people = { ...answer.data, at: Date.now() };
  } catch (err) { return; }
  const waits = people.seats.map((p) => p.wait).filter((w) => w !== null && w > 0);
  // while someone is gone, ask more often: a friend who arrives is "here" within 2 s
  const soon = people.seats.some((p) => !p.here) ? 2 : 5;
  if (waits.length && Math.min(...waits) < soon) {
    clearTimeout(peopleTimer);
    peopleTimer = setTimeout(askPeople, Math.min(...waits) * 1000 + 200);
  } else if (soon < 5) {
    clearTimeout(peopleTimer);
    peopleTimer = setTimeout(askPeople, soon * 1000);
  }
  if (shown) drawAway(shown);
}

async function handOver(seat) {
  if (!shown || !connection) return;
  showRefusal(null);
  let answer;
  try {
    answer = await connection.http("POST", `/tables/${here.table}/seats/${seat}`, { player: "heuristic" });
  } catch (err) {
    showRefusal("Not done: the server is out of reach. Try again when it is back.");
    return;
  }
  if (!answer.ok) showRefusal(refusalWords(answer.data.error, answer.data.message));
  await askPeople();
  await connection.fetchView();
}

// The person's own link, once their seat went to a computer player: they watch.
function drawGiven(answer) {
  const given = Boolean(here && !here.watching && answer.page.you === null);
  $("given").hidden = !given;
}

async function takeBack() {
  if (!connection) return;
  let answer;
  try {
    answer = await connection.http("POST", `/tables/${here.table}/return`);
  } catch (err) {
    showRefusal("Not done: the server is out of reach. Try again when it is back.");
    return;
  }
  if (!answer.ok) {
    showRefusal(answer.status === 401 ? "This seat is a person's again: open your link again."
      : refusalWords(answer.data.error, answer.data.message));
    return;
  }
  enter();  // the link is the seat's again: connect as the seat
}

// -- the review after a hand (sent by the server when it is ready) ------------------------

// The review of the last hand (from the server's solver), for the person reading it:
// drawn by review.js. While the end of a hand is held (and at the game's end), under
// the felt: the result above it and the last trick on it stay on the screen with the
// review's first lines, at 1280x800 as on a phone.
function drawReview(answer) {
  const page = answer.page;
  const hand = page.reviewed;  // the last hand finished: never an older hand's review
  const review = hand !== null && reviews.get(hand);
  const box = $("review");
  box.hidden = !review;
  const home = showsEnd(answer) ? $("trick-caption") : $("exposed-box");
  if (box.previousElementSibling !== home) home.after(box);
  if (!review) { askReview(hand); return; }
  $("review-title").textContent = `Review of hand ${review.hand}`;
  drawReviewBody($("review-body"), review, page);
}

const asked = new Set();
async function askReview(hand) {  // a review missed while the socket was down, or on a reload
  if (hand === null || asked.has(hand) || !connection) return;
  asked.add(hand);
  for (let tries = 0; tries < 6; tries++) {
    let answer;
    try { answer = await connection.http("GET", `/tables/${here.table}/review/${hand}`); } catch (err) { return; }
    if (answer.status === 200) { onReview(answer.data); return; }
    if (answer.status !== 202) return;
    await sleep(3000);
  }
}

function onReview(message) {  // only the review's part of the page is drawn again
  reviews.set(message.hand, message);
  if (shown) drawReview(shown);
}

// -- game over: a new game with the same seats (and rules), or the lobby -----------------

async function newGame() {
  if (!shown) return;
  const body = { rules: shown.view.view.rules, seats: shown.seats };
  if (shown.names && shown.names.some((n) => n)) body.names = shown.names;
  let answer;
  try {
    const response = await fetch("/tables", { method: "POST",
      headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    answer = { ok: response.ok, data: await response.json() };
  } catch (err) {
    showRefusal("Not done: the server is out of reach. Try again when it is back.");
    return;
  }
  if (!answer.ok) { showRefusal(refusalWords(answer.data.error, answer.data.message)); return; }
  const data = answer.data;
  const mine = String(shown.seat ?? 0);
  const links = Object.entries(data.tokens).filter(([seat]) => seat !== mine)
    .map(([seat, token]) => [Number(seat), link(data.table, token)]);
  if (data.spectator) links.push([null, link(data.table, data.spectator, true)]);
  sessionStorage.setItem(`links:${data.table}`, JSON.stringify(links));
  location.hash = `table=${encodeURIComponent(data.table)}&token=${encodeURIComponent(data.tokens[mine])}`;
}

// -- the table chat: messages shown as text, never as markup ----------------------------

let chatSeen = 0;  // the number of the last message drawn

function onChat(message) {
  if (!message || typeof message.n !== "number" || message.n <= chatSeen) return;
  chatSeen = message.n;
  const item = document.createElement("li");
  const who = document.createElement("strong");
  const mine = shown && message.seat === shown.page.you;
  const known = shown && shown.page.seats[message.seat];
  who.textContent = `${mine ? "You" : known && !known.computer ? known.name : String(message.name)}: `;
  const text = document.createElement("span");
  text.textContent = String(message.text);  // text only: nothing a message holds is run
  item.append(who, text);
  const log = $("chat-log");
  log.append(item);
  while (log.children.length > 50) log.firstElementChild.remove();
  log.scrollTop = log.scrollHeight;
}

async function loadChat() {
  chatSeen = 0;
  $("chat-log").textContent = "";
  if (!connection) return;
  let answer;
  try { answer = await connection.http("GET", `/tables/${here.table}/chat`); } catch (err) { return; }
  if (answer.ok) for (const message of answer.data.messages) onChat(message);
}

async function sendChat(event) {
  event.preventDefault();
  const input = $("chat-text");
  const text = input.value.trim();
  const note = $("chat-note");
  note.hidden = true;
  if (!text || !connection) return;
  let answer;
  try {
    answer = await connection.http("POST", `/tables/${here.table}/chat`, { text });
  } catch (err) {
    note.textContent = "Not sent: the server is out of reach.";
    note.hidden = false;
    return;
  }
  if (!answer.ok) {
    note.textContent = answer.data.error === "RATE_LIMITED"
      ? "Not sent: you are sending messages too fast. Wait a moment."
      : `Not sent: ${answer.data.message || "the message was refused"}.`;
    note.hidden = false;
    return;
  }
  input.value = "";
  onChat(answer.data);
}

// -- entering a table --------------------------------------------------------------------

function fragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  const token = params.get("token") || params.get("watch");
  return params.get("table") && token
    ? { table: params.get("table"), token, watching: !params.get("token") } : null;
}

function enter() {
  if (connection) connection.stop();
  connection = null;
  here = fragment();
  shown = latest = feltTarget = people = null;
  if (held) clearInterval(held.timer);
  held = null;
  felt = [];
  confirming = null;
  reviews = new Map();
  asked.clear();
  $("lobby").hidden = Boolean(here);
  $("table").hidden = !here;
  if (!here) {
    connectionState("idle-lobby", "");
    return;
  }
  connection = new Connection(here.table, here.token, {
    onView: (answer) => {
      receive(answer);
      showLinks(here.table, answer.page.seats.map((s) => s.name));
    },
    onState: connectionState,
    onRefused: refused,
    onReview,
    onChat,
  });
  connection.start();
  $("chat-form").hidden = here.watching;  // a spectator reads the chat
  loadChat();
}

STATE_WORDS["idle-lobby"] = () => "";
$("pace").value = localStorage.getItem("fivehundred.pace") || "normal";
$("pace").addEventListener("change", () => localStorage.setItem("fivehundred.pace", $("pace").value));
$("take-back").addEventListener("click", takeBack);
$("next-hand").addEventListener("click", nextHand);
$("chat-form").addEventListener("submit", sendChat);
$("new-game").addEventListener("click", newGame);
$("to-lobby").addEventListener("click", () => { location.hash = ""; });
$("last-trick-button").addEventListener("click", () => {
  drawLastTrick();
  $("last-trick").hidden = false;
  $("last-trick-close").focus();
});
$("last-trick-close").addEventListener("click", () => {
  $("last-trick").hidden = true;
  $("last-trick-button").focus();
});
window.addEventListener("hashchange", enter);
// A page left (or frozen in the back-forward cache) closes its socket, so the others see
// the person gone; a page brought back connects again.
window.addEventListener("pagehide", () => { if (connection) connection.stop(); });
window.addEventListener("pageshow", (event) => { if (event.persisted) enter(); });
window.addEventListener("resize", () => { if (shown && !animating) render(shown); });
setupLobby();
enter();

// For the browser tests and for people curious in the console.
window.fivehundred = {
  get shown() { return shown; },
  get connection() { return connection; },
  get animating() { return animating; },
  get busy() { return animating || sending || latest !== shown || held !== null; },
  get held() { return held; },
  get state() { return connection ? connection.state : null; },
  render,
  act,
  showReview: onReview,
  refusalWords,
};
