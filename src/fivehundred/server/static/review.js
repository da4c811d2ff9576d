// The review of a hand, for the person reading it: at each trick the card they played
// beside the best card for them and the tricks that choice cost (or, for a best card,
// saved against the worst card they held), their own mistakes picked out, and what the
// contract could have made with every card seen. Every number is the server's solver's.

const SUITS = "\u2660\u2663\u2666\u2665";

export function cardText(card) {  // "A♥": the notation with its suit's symbol
  return card === "Jo" ? "Joker" : card.slice(0, -1) + SUITS["SCDH".indexOf(card.slice(-1))];
}

const MISERES = { M: "misère", OM: "open misère", BM: "blind misère" };
export function contractText(call) {
  return MISERES[call] || call.replace(/[SCDH]$/, (s) => cardText(`2${s}`).slice(1));
}

const tricks = (n) => `${n} trick${n === 1 ? "" : "s"}`;
// the card itself, or the Joker's lead ("Jo:H") as the Joker
const bare = (action) => action.split(":")[0];
// Cards in words, each once: "K♣ or A♣" (the Joker's leads are one card). Of more than
// three, the first three and how many more: "7♣, J♣, A♣ or 4 more" (a cell stays short).
const SHOWN_CARDS = 3;
function cardsText(actions) {
  const cards = [...new Set(actions.map((a) => cardText(bare(a))))];
  if (cards.length <= SHOWN_CARDS) return cards.join(" or ");
  return `${cards.slice(0, SHOWN_CARDS).join(", ")} or ${cards.length - SHOWN_CARDS} more`;
}
// a best card that kept tricks a worse card would have lost (from the solver's values)
const saving = (play) => play.analysed && !play.forced && play.lost === 0 && play.saved > 0;

// The person's side: their seat's side (the contract's, or the defence).
function sideOf(review, seat) {
  return review.side.includes(seat) ? "contract" : "defence";
}

// Who a card's "best" is best for, in words: "you", "your side", "Computer 2's side".
function forWhom(review, seat, you, name) {
  if (seat === you) return review.side.length > 1 && review.side.includes(you) ? "your side" : "you";
  if (you !== null && sideOf(review, seat) === sideOf(review, you) && review.side.includes(you)) {
    return "your side";
  }
  return review.side.includes(seat) ? "the contract" : "the defence";
}

// What a review cut short at its time limit left out, in words. Your own cards and the
// first lead are valued first, so what is left out is mostly other players' first cards.
function unanalysed(review, you) {
  const yours = (review.tricks || []).filter((t) => t.cards.some((p) => p.seat === you
    && !p.analysed)).map((t) => t.number);
  const parts = [];
  if (yours.length) {
    const numbers = yours.length === 1 ? `${yours[0]}`
      : `${yours.slice(0, -1).join(", ")} and ${yours[yours.length - 1]}`;
    parts.push(`your card${yours.length === 1 ? "" : "s"} of trick${yours.length === 1 ? "" : "s"} `
      + `${numbers} ${yours.length === 1 ? "is" : "are"} not analysed`);
  }
  if (review.could_make === null || review.could_make === undefined) {
    parts.push("what the contract could make was not reached");
  }
  if (parts.length) return parts.join("; ");
  return `some ${you === null ? "" : "other "}players' first cards are not analysed`;
}

// Draws the review into ``body``; answers the person's mistakes (for the tests).
export function drawReviewBody(body, review, page) {
  const you = page.you;
  const name = (seat) => (seat === you ? "You" : page.seats[seat].name);
  body.textContent = "";
  const head = document.createElement("p");
  head.className = "review-head";
  if (review.contract && review.contractor !== null) {
    const took = review.tricks_taken;
    let text = `${name(review.contractor)} ${review.made ? "made" : "lost"} `
      + `${contractText(review.contract)}` + (took !== null ? ` with ${tricks(took)}` : "");
    if (review.could_make !== null && review.could_make !== undefined) {
      text += `; ${tricks(review.could_make)} ${review.could_make === 1 ? "was" : "were"} there `
        + "with every card seen.";
    } else text += ".";
    head.textContent = text;
  } else head.textContent = "A hand with no contract: nothing to review.";
  body.append(head);
  if (!review.contract || review.contractor === null) return [];
  const mistakes = [];
  for (const trick of review.tricks || []) {
    for (const play of trick.cards) {
      if (play.seat === you && play.analysed && play.lost > 0) mistakes.push({ trick, play });
    }
  }
  const summary = document.createElement("p");
  summary.className = "review-you";
  if (you === null) summary.textContent = "";
  else if (mistakes.length) {
    const cost = mistakes.reduce((n, m) => n + m.play.lost, 0);
    summary.textContent = `Your cards cost ${forWhom(review, you, you, name)} ${tricks(cost)}: `
      + mistakes.map(({ trick, play }) => `trick ${trick.number}, ${cardText(play.card)} `
        + `(${cardsText(play.best)} was best)`).join("; ") + ".";
  } else {
    const yours = (review.tricks || []).flatMap((t) => t.cards.filter((p) => p.seat === you));
    if (!yours.some((p) => p.analysed)) summary.textContent = "";
    else if (yours.every((p) => p.analysed)) {
      summary.textContent = "Every card you played was a best card: no trick lost.";
    } else summary.textContent = "Every card of yours that was analysed was a best card.";
  }
  const saves = you === null ? [] : (review.tricks || []).flatMap((trick) => trick.cards
    .filter((p) => p.seat === you && saving(p)).map((play) => ({ trick, play })));
  if (saves.length) {
    const kept = saves.reduce((n, s) => n + s.play.saved, 0);
    summary.textContent += ` Your best cards saved ${forWhom(review, you, you, name)} ${tricks(kept)}: `
      + saves.map(({ trick, play }) => `trick ${trick.number}, ${cardText(play.card)} `
        + `(against ${cardsText(play.worst)})`).join("; ") + ".";
    summary.textContent = summary.textContent.trim();
  }
  summary.hidden = !summary.textContent;
  body.append(summary);
  if (!review.complete) {
    const note = document.createElement("p");
    note.className = "hint";
    note.textContent = `The review stopped at its time limit: ${unanalysed(review, you)}.`;
    body.append(note);
  }
  const table = document.createElement("table");
  table.className = "review";
  table.createCaption().textContent = you === null
    ? "Each card played, and the best card for its player"
    : "Your card at each trick beside the best card for you, and other players' costly cards";
  const headRow = table.createTHead().insertRow();
  const titles = you === null ? ["Trick", "Costly cards"]
    : ["Trick", "You played", "Best for you", "Cost or saved", "Others"];
  for (const text of titles) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = text;
    headRow.append(th);
  }
  const rows = table.createTBody();
  for (const trick of review.tricks || []) {
    const tr = rows.insertRow();
    tr.insertCell().textContent = trick.number;
    if (you !== null) {
      const mine = trick.cards.find((p) => p.seat === you);
      const played = tr.insertCell();
      const best = tr.insertCell();
      const cost = tr.insertCell();
      if (!mine) {
        played.textContent = "—";
      } else {
        played.textContent = cardText(mine.card);
        if (!mine.analysed) best.textContent = "not analysed";
        else if (mine.forced) best.textContent = "the only card";
        else if (mine.lost > 0) {
          best.textContent = cardsText(mine.best);
          cost.textContent = `−${tricks(mine.lost)}`;
          tr.classList.add("mistake");
        } else {
          best.textContent = "✓ a best card";
          if (saving(mine)) {
            cost.textContent = `saved ${tricks(mine.saved)} against ${cardsText(mine.worst)}`;
            tr.classList.add("saved");
          }
        }
      }
    }
    const others = trick.cards.filter((p) => p.seat !== you && p.analysed && p.lost > 0);
    tr.insertCell().textContent = others.map((p) => `${name(p.seat)}: ${cardText(p.card)} `
      + `(${cardsText(p.best)} kept ${tricks(p.lost)} more for `
      + `${forWhom(review, p.seat, you, name)})`).join(" · ");
  }
  body.append(table);
  return mistakes;
}
