// Drawing the table from the server's page: the seats around the felt, the trick, the
// contract and trump badge, the bidding box, the auction and the score sheet. Every word,
// mark and number here comes from answer.page (fivehundred.server._present).
import { cardElement, suitIcon } from "./cards.js";

const $ = (id) => document.getElementById(id);
const SYMBOL_SUIT = { "\u2660": "S", "\u2663": "C", "\u2666": "D", "\u2665": "H" };

// Where a seat sits: you at the bottom, the others clockwise around an oval; ``rx`` and
// ``ry`` are the oval's radii in percent of the felt's width and height.
export function place(seat, answer, rx, ry) {
  const n = answer.page.seats.length;
  const you = answer.page.you ?? 0;
  const angle = Math.PI / 2 + (2 * Math.PI * ((seat - you + n) % n)) / n;
  return { x: 50 + rx * Math.cos(angle), y: 50 + ry * Math.sin(angle) };
}

export function drawSeats(answer) {
  const box = $("seats");
  box.textContent = "";
  const shown = new Map();  // the marks on the table now, for the legend under it
  for (const seat of answer.page.seats) {
    const node = document.createElement("div");
    node.className = "seat";
    node.dataset.seat = seat.seat;
    const spot = place(seat.seat, answer, $("felt").clientWidth < 520 ? 36 : 42, 44);
    node.style.left = `${spot.x}%`;
    node.style.top = `${spot.y}%`;
    for (const flag of ["you", "to_act", "out"]) if (seat[flag]) node.classList.add(flag.replace("_", "-"));
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = seat.name;
    const marks = document.createElement("span");
    marks.className = "marks";
    const words = [];
    for (const [flag, letter, word] of [["dealer", "D", "dealer"], ["contractor", "C", "contractor"],
      ["partner", "P", "partner"]]) {
      if (!seat[flag]) continue;
      const mark = document.createElement("abbr");
      mark.className = `mark mark-${flag}`;
      mark.title = word;
      mark.textContent = letter;
      marks.append(mark);
      words.push(word);
      shown.set(flag, [letter, word]);
    }
    const count = document.createElement("span");
    count.className = "count";
    count.textContent = seat.out ? "sits out" : `${seat.cards} card${seat.cards === 1 ? "" : "s"}`;
    node.append(name, marks, count);
    const spoken = [seat.name, ...words, count.textContent];
    if (seat.to_act) spoken.push("to act");
    node.setAttribute("aria-label", spoken.join(", "));
    node.setAttribute("role", "group");
    box.append(node);
  }
  const legend = $("legend");  // the marks in words: seen, not spoken twice (each seat says them)
  const order = ["dealer", "contractor", "partner"].filter((flag) => shown.has(flag));
  legend.replaceChildren(...order.map((flag) => {
    const [letter, word] = shown.get(flag);
    const item = document.createElement("span");
    const mark = document.createElement("span");
    mark.className = `mark mark-${flag}`;
    mark.textContent = letter;
    item.append(mark, `${word} `);
    return item;
  }));
  legend.hidden = shown.size === 0;
}

// The oval the trick's cards lie on (in percent of the felt), inside the seats' oval: at
// 5 and 6 players wider, so that each card lies before its own seat, clear of the others.
function trickRadii(players, narrow) {
  if (players === 6) return narrow ? [15, 22] : [27, 22];
  if (players === 5) return narrow ? [15, 18] : [27, 19];
  return narrow ? [13, 20] : [22, 21];
}

// The trick area: the cards laid before their seats, and the winner once it is won. A
// card already on the felt keeps its node, so only the card just played lands (no card
// fades in again each time another is laid).
export function drawTrick(frame, answer) {
  const box = $("trick");
  const cards = answer.page.cards;
  const before = new Map([...box.children].map((node) => [node.dataset.key, node]));
  const nodes = [];
  const narrow = $("felt").clientWidth < 520;
  for (const { seat, card } of frame.plays) {
    const key = `${seat}:${card}`;
    let node = before.get(key);
    if (!node) {
      node = cardElement(card, cards[card] || {});
      node.dataset.key = key;
      node.classList.add("played");
    }
    const [rx, ry] = trickRadii(answer.page.seats.length, narrow);
    const spot = place(seat, answer, rx, ry);
    node.style.left = `${spot.x}%`;
    node.style.top = `${spot.y}%`;
    node.classList.toggle("winner", frame.winner === seat);
    node.setAttribute("aria-label", `${answer.page.seats[seat].name}: ${(cards[card] || {}).label || card}`
      + (frame.winner === seat ? ", winning" : ""));
    nodes.push(node);
  }
  box.classList.toggle("many", answer.page.seats.length > 4);
  // never detach a card that stays: a node put back in the page would land again
  const keep = new Set(nodes);
  for (const node of [...box.children]) if (!keep.has(node)) node.remove();
  for (const node of nodes) if (node.parentNode !== box) box.append(node);
  const caption = $("trick-caption");
  caption.textContent = "";
  if (frame.result) caption.textContent = frame.result;
  else if (frame.winner !== null && frame.winner !== undefined) caption.textContent = frame.words;
  caption.hidden = !caption.textContent;
  const last = frame.plays[frame.plays.length - 1];
  $("trick-words").textContent = caption.textContent
    || (last ? `${answer.page.seats[last.seat].name} played ${(cards[last.card] || {}).label}` : "");
}

// While the end of a hand is held: the answer as that hand ended, with its contract,
// auction and seats' marks (page.previous, from the server), not the next deal's; and
// nobody to act.
export function heldAnswer(answer, hand) {
  const previous = answer.page.previous;
  const ended = previous && previous.hand === hand ? previous : null;
  const seats = answer.page.seats.map((seat, n) => ({
    ...seat, ...(ended ? ended.seats[n] : {}), to_act: false }));
  if (!ended) return { ...answer, page: { ...answer.page, seats } };
  return { ...answer, page: { ...answer.page, seats, contract: ended.contract,
    auction: ended.auction, phase: ended.phase, tally: null } };
}

export function currentFrame(page) {
  if (page.trick.length) return { plays: page.trick, winner: null };
  if (page.tricks.length) {
    const t = page.tricks[page.tricks.length - 1];  // the finished trick stays until the next lead
    return { plays: t.plays, winner: t.winner, words: t.words };
  }
  if (page.previous && page.box) return { plays: [], result: page.previous.words };
  return { plays: [], winner: null };
}

// A score as printed: a true minus sign, as the changes under it have ("−40", not "-40").
function points(score) {
  return score < 0 ? `\u2212${-score}` : String(score);
}

export function drawBar(answer) {
  const page = answer.page;
  const badge = $("badge");
  badge.textContent = "";
  badge.className = "badge";
  const contract = page.contract;
  if (!contract) {
    badge.append(Object.assign(document.createElement("span"), { textContent: "–" }));
    badge.setAttribute("aria-label", "No contract yet");
    $("contract-text").textContent = page.phase;
  } else {
    const suit = SYMBOL_SUIT[contract.badge];
    if (suit) badge.append(suitIcon(suit, "2.6rem"));
    else badge.append(Object.assign(document.createElement("span"), { textContent: contract.badge }));
    badge.classList.add(contract.badge === "NT" ? "nt" : suit ? "suit" : "misere");
    badge.setAttribute("aria-label", contract.badge_words);
    $("contract-text").innerHTML = "";
    const strong = document.createElement("strong");
    strong.textContent = `${contract.text} by ${contract.by}`;
    const small = document.createElement("span");
    small.textContent = ` · needs ${contract.need} · worth ${contract.points}`;
    $("contract-text").append(strong, small);
  }
  const scores = page.sides.map((s) => `${s.name} ${points(s.score)}`).join(" · ");
  $("target-text").textContent = `Game to ${page.target}. ${scores}`;
  $("last-trick-button").disabled = !(page.tricks.length || (page.previous && page.previous.tricks.length));
}

function bidButton(bid, mine, act) {
  const button = document.createElement("button");
  button.type = "button";
  button.dataset.action = bid.call;
  button.className = "bid";
  const sym = bid.text.match(/[\u2660-\u2666]/);
  const label = document.createElement("span");
  label.className = "call";
  if (sym) {
    label.append(bid.text.slice(0, -1), suitIcon(SYMBOL_SUIT[sym[0]]));
  } else label.textContent = bid.text;
  const points = document.createElement("span");
  points.className = "points";
  points.textContent = bid.points;
  button.append(label, points);
  button.setAttribute("aria-label", `${bid.words || bid.text}, ${bid.points} points`);
  if (mine && bid.legal) button.addEventListener("click", () => act(bid.call));
  else button.disabled = true;
  return button;
}

export function drawBox(answer, act) {
  const box = answer.page.box;
  $("bidding").hidden = !box;
  if (!box) {  // no call to make: no stale button stays behind, hidden
    $("box").textContent = "";
    $("misere").textContent = "";
    $("box-explain").textContent = "";
    return;
  }
  const mine = answer.page.seats.some((s) => s.you && s.to_act);
  $("box-title").textContent = mine ? "Your call" : "The bidding box";
  const grid = document.createElement("div");
  grid.className = "grid";
  grid.setAttribute("role", "group");
  grid.setAttribute("aria-label", "Bids: tricks and trumps, with their points");
  for (const bid of box.bids) grid.append(bidButton(bid, mine, act));
  $("box").replaceChildren(grid);
  const row = document.createElement("div");
  row.className = "misere-row";
  for (const call of box.misere) {
    const button = bidButton(call, mine, act);
    button.title = call.explain;
    button.setAttribute("aria-label", `${call.text}, ${call.points} points: ${call.explain}`);
    const explain = () => { $("box-explain").textContent = `${call.text}: ${call.explain}`; };
    button.addEventListener("pointerenter", explain);
    button.addEventListener("focus", explain);
    const wrap = document.createElement("span");
    wrap.className = "misere-call";
    wrap.addEventListener("pointerdown", explain);  // a tap on a disabled call explains it too
    wrap.append(button);
    row.append(wrap);
  }
  const pass = document.createElement("button");
  pass.type = "button";
  pass.className = "pass";
  pass.dataset.action = "pass";
  pass.textContent = "Pass";
  if (mine && box.pass) pass.addEventListener("click", () => act("pass"));
  else pass.disabled = true;
  row.append(pass);
  $("misere").replaceChildren(row);
}

export function drawAuction(answer) {
  const auction = answer.page.auction;
  const table = document.createElement("table");
  const head = table.createTHead().insertRow();
  for (const name of auction.names) head.append(heading(name, auction.names.length > 3));
  const body = table.createTBody();
  for (const row of auction.rows) {
    const tr = body.insertRow();
    for (const text of row) tr.insertCell().textContent = text;
  }
  if (!auction.rows.length) {
    const cell = body.insertRow().insertCell();
    cell.colSpan = auction.names.length;
    cell.textContent = "No call yet.";
  }
  $("auction").replaceChildren(table);
}

// "Computer 2" -> "C2", "You and Player 3" -> "You+P3": a name in a narrow column (a
// person's own name is kept whole).
function shortName(name) {
  return name.split(" and ").map((one) => one.replace(/^(Computer|Player) (\d+)$/,
    (all, word, seat) => `${word[0]}${seat}`)).join("+");
}

// A column heading: the name, or its short form with the full one on hover and spoken.
function heading(text, short) {
  const th = document.createElement("th");
  th.scope = "col";
  if (short && shortName(text) !== text) {
    const abbr = document.createElement("abbr");
    abbr.title = text;
    abbr.textContent = shortName(text);
    th.setAttribute("aria-label", text);
    th.append(abbr);
  } else th.textContent = text;
  return th;
}

export function drawSheet(answer) {
  const page = answer.page;
  const table = document.createElement("table");
  const caption = table.createCaption();
  caption.textContent = `Points by hand; the game is to ${page.target}.`;
  const head = table.createTHead().insertRow();
  const many = page.sides.length > 2;  // short column names, the full one on hover
  head.append(heading("Hand"), heading("Contract"));
  for (const side of page.sides) head.append(heading(side.name, many));
  const body = table.createTBody();
  for (const row of page.sheet) {
    const tr = body.insertRow();
    tr.title = row.words;
    tr.insertCell().textContent = row.hand;
    const made = row.made === null ? "" : row.made ? ", made" : ", lost";
    tr.insertCell().textContent = row.by ? `${row.contract} by ${row.by}${made}` : row.contract;
    row.changes.forEach((change, n) => {  // the score, and the hand's change under it
      const cell = tr.insertCell();
      const score = document.createElement("span");
      score.className = "score";
      score.textContent = points(row.scores[n]);
      const delta = document.createElement("span");
      delta.className = "change";
      delta.textContent = change ? `${change > 0 ? "+" : "−"}${Math.abs(change)}` : "±0";
      cell.append(score, delta);
    });
  }
  if (!page.sheet.length) {
    const cell = body.insertRow().insertCell();
    cell.colSpan = 2 + page.sides.length;
    cell.textContent = "No hand scored yet.";
  }
  const total = table.createTFoot().insertRow();
  total.insertCell().textContent = "Now";
  total.insertCell();
  for (const side of page.sides) total.insertCell().textContent = points(side.score);
  $("sheet").replaceChildren(table);
}

// The tricks each side has taken this hand, the contract's against what it needs, and
// who leads the trick: one line above the felt during the play.
export function drawTally(answer) {
  const tally = answer.page.tally;
  const box = $("tally");
  box.hidden = !tally;
  if (!tally) { box.textContent = ""; return; }
  const many = tally.sides.length > 2;
  const items = tally.sides.map((side) => {
    const item = document.createElement("span");
    item.className = side.contract ? "side contract" : "side";
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = many ? shortName(side.name) : side.name;
    who.title = side.name;
    const count = document.createElement("strong");
    count.className = "tricks";
    count.textContent = side.contract && !tally.misere ? `${side.tricks}/${tally.need}` : String(side.tricks);
    item.append(who, " ", count);
    return item;
  });
  const lead = document.createElement("span");
  lead.className = "lead";
  lead.textContent = tally.leader ? `${tally.leader === "You" ? "You lead" : `${tally.leader} leads`}` : "";
  const words = document.createElement("span");
  words.className = "visually-hidden";
  words.textContent = tally.words;
  box.replaceChildren(...items, lead, words);
  box.dataset.taken = tally.taken;
}
