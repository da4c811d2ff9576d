// Card faces drawn as SVG: the suits are paths and the Joker a drawn star, so nothing
// depends on an emoji font. The card's order, name and marks come from the server.

const NS = "http://www.w3.org/2000/svg";

// Each suit's pip, a path in a 100 x 100 box.
export const SUIT_PATHS = {
  S: "M50 4 C62 26 96 40 92 64 C89 82 68 86 56 74 C58 86 62 92 70 96 H30 C38 92 42 86 44 74 "
    + "C32 86 11 82 8 64 C4 40 38 26 50 4 Z",
  H: "M50 94 C38 80 4 58 6 32 C8 12 30 4 42 14 C46 17 48 21 50 26 C52 21 54 17 58 14 "
    + "C70 4 92 12 94 32 C96 58 62 80 50 94 Z",
  D: "M50 2 L86 50 L50 98 L14 50 Z",
  C: "M50 6 A20 20 0 0 1 67 38 A20 20 0 1 1 60 70 C62 82 66 90 74 96 H26 C34 90 38 82 40 70 "
    + "A20 20 0 1 1 33 38 A20 20 0 0 1 50 6 Z",
};
const STAR = "M50 4 L61 38 L97 38 L68 59 L79 94 L50 73 L21 94 L32 59 L3 38 L39 38 Z";
export const RED = new Set(["D", "H"]);

function el(name, attrs = {}) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

export function suitOf(card) { return card === "Jo" ? null : card.slice(-1); }
export function rankOf(card) { return card === "Jo" ? "Jo" : card.slice(0, -1); }

// A suit symbol as a small inline SVG (for bids, badges and trick captions).
export function suitIcon(suit, size = "1em") {
  const svg = el("svg", { viewBox: "0 0 100 100", width: size, height: size,
    class: `suit-icon ${RED.has(suit) ? "red" : "black"}`, "aria-hidden": "true",
    focusable: "false" });
  svg.append(el("path", { d: SUIT_PATHS[suit] }));
  return svg;
}

function pip(suit, x, y, size, flip = false) {
  const g = el("g", { transform: `translate(${x} ${y}) scale(${size / 100})`
    + (flip ? " rotate(180 50 50)" : "") });
  g.append(el("path", { d: SUIT_PATHS[suit] }));
  return g;
}

// The face of a card: 60 x 84 units, the rank and suit in two corners, a large pip.
export function cardFace(card) {
  const svg = el("svg", { viewBox: "0 0 60 84", class: "face", "aria-hidden": "true",
    focusable: "false" });
  svg.append(el("rect", { x: 1, y: 1, width: 58, height: 82, rx: 5, class: "paper" }));
  const suit = suitOf(card);
  const ink = suit && RED.has(suit) ? "red" : "black";
  const g = el("g", { class: `ink ${card === "Jo" ? "joker" : ink}` });
  if (card === "Jo") {
    const star = el("g", { transform: "translate(17 26) scale(.34)" });  // the left edge free for marks
    star.append(el("path", { d: STAR }));
    g.append(star);
    for (const [y, flip] of [[13, false], [77, true]]) {
      const text = el("text", { x: flip ? 54 : 6, y, class: "rank small",
        "text-anchor": flip ? "end" : "start" });
      text.textContent = "JOKER";
      g.append(text);
    }
  } else {
    const rank = rankOf(card);
    const top = el("text", { x: 5, y: 17, class: `rank${rank.length > 1 ? " wide" : ""}` });
    top.textContent = rank;
    g.append(top, pip(suit, 5, 20, 11));
    const bottom = el("text", { x: 55, y: 78, class: `rank${rank.length > 1 ? " wide" : ""}`,
      "text-anchor": "end" });
    bottom.textContent = rank;
    g.append(bottom, pip(suit, 44, 53, 11, true));
    g.append(pip(suit, 21, 27, 26));  // the left edge below the corner free for marks
  }
  svg.append(g);
  return svg;
}

// A card as a button (in the hand) or a figure (on the table), with its spoken name.
export function cardElement(card, info = {}, { button = false } = {}) {
  const node = document.createElement(button ? "button" : "div");
  if (button) node.type = "button";
  else node.setAttribute("role", "img");
  node.className = "card";
  node.dataset.card = card;
  node.setAttribute("aria-label", info.label || card);
  if (info.trump) node.classList.add("trump");
  if (info.bower) node.classList.add(`bower-${info.bower}`);
  if (info.kitty) node.classList.add("kitty");
  node.append(cardFace(card));
  // The marks sit at the card's left edge, the part of a fanned card that shows, in their
  // short form ("T", "RB", "LB", "K"), so that no mark covers a rank or a suit; the card's
  // spoken name has them in words.
  const marks = [];
  if (info.bower) marks.push(info.bower === "right" ? ["Right bower", "RB", "trump"] : ["Left bower", "LB", "trump"]);
  else if (info.trump) marks.push(["Trump", "T", "trump"]);
  if (info.kitty) marks.push(["Kitty", "K", "kitty"]);
  if (marks.length) {
    const tags = document.createElement("span");
    tags.className = "tags";
    tags.setAttribute("aria-hidden", "true");
    for (const [text, short, kind] of marks) {
      const tag = document.createElement("span");
      tag.className = `tag tag-${kind}`;
      tag.dataset.short = short;
      tag.textContent = text;
      tag.title = text;
      tags.append(tag);
    }
    node.append(tags);
  }
  return node;
}
