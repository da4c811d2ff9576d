// The lobby: open a table with its rule options and seats, and the invite links.

const KINDS = [
  ["human", "a person (send them a link)"],
  ["heuristic", "computer: steady"],
  ["search", "computer: strong (slower)"],
  ["random", "computer: random"],
];
const $ = (id) => document.getElementById(id);

export function link(table, token, spectator = false) {
  const key = spectator ? "watch" : "token";
  return `${location.origin}/#table=${encodeURIComponent(table)}&${key}=${encodeURIComponent(token)}`;
}

function seatKinds() {
  const players = Number($("players").value);
  const box = $("seat-kinds");
  for (const old of box.querySelectorAll("label, p")) old.remove();
  for (let seat = 0; seat < players; seat++) {
    if (seat === 0) {
      const you = document.createElement("p");
      you.textContent = "Seat 1: you";
      box.append(you);
      continue;
    }
    const label = document.createElement("label");
    label.textContent = `Seat ${seat + 1} `;
    const select = document.createElement("select");
    select.dataset.seat = seat;
    for (const [kind, words] of KINDS) {
      const option = document.createElement("option");
      option.value = kind;
      option.textContent = words;
      option.selected = kind === "heuristic";
      select.append(option);
    }
    label.append(select);
    box.append(label);
  }
}

// The rules options the form chose: only those that differ from the defaults.
export function chosenRules() {
  const rules = {};
  const players = Number($("players").value);
  if (players !== 4) rules.players = players;
  const target = Number($("target").value);
  if (target !== 500) {
    rules.target = target;
    rules.losing_score = -target;
  }
  if (!$("opt-misere").checked) rules.misere = false;
  else if (!$("opt-blind").checked) rules.blind_misere = false;
  if ($("opt-allpass").checked) rules.all_pass_no_trumps = true;
  if ($("opt-american").checked) rules.single_round = true;
  if (!$("opt-slam").checked) rules.slam_bonus = false;
  return rules;
}

function myName() {
  const name = $("my-name").value.trim();
  if (name) localStorage.setItem("fivehundred.name", name);
  return name;
}

async function create(event) {
  event.preventDefault();
  const seats = ["human", ...[...document.querySelectorAll("#seat-kinds select")].map((s) => s.value)];
  const button = $("create-button");
  button.disabled = true;
  $("lobby-error").hidden = true;
  let answer;
  try {
    const response = await fetch("/tables", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(myName()
        ? { rules: chosenRules(), seats, names: [myName(), ...seats.slice(1).map(() => null)] }
        : { rules: chosenRules(), seats }),
    });
    answer = { ok: response.ok, data: await response.json() };
  } catch (err) {
    answer = { ok: false, data: { message: "the server is out of reach: try again in a moment" } };
  }
  button.disabled = false;
  if (!answer.ok) {
    $("lobby-error").hidden = false;
    $("lobby-error").textContent = `The table could not be opened: ${answer.data.message}.`;
    return;
  }
  const data = answer.data;
  const links = Object.entries(data.tokens).filter(([seat]) => seat !== "0")
    .map(([seat, token]) => [Number(seat), link(data.table, token)]);
  if (data.spectator) links.push([null, link(data.table, data.spectator, true)]);
  sessionStorage.setItem(`links:${data.table}`, JSON.stringify(links));
  location.hash = `table=${encodeURIComponent(data.table)}&token=${encodeURIComponent(data.tokens["0"])}`;
}

// The invite links of the table this page opened (kept for this browser tab only).
export function showLinks(table, names) {
  const links = JSON.parse(sessionStorage.getItem(`links:${table}`) || "[]");
  const list = $("link-list");
  const key = JSON.stringify([links, names]);
  if (list.dataset.key === key) return;  // unchanged: the keyboard stays on "Copy"
  list.dataset.key = key;
  list.textContent = "";
  $("links").hidden = links.length === 0;
  for (const [seat, url] of links) {
    const label = document.createElement("label");
    label.textContent = seat === null ? "Link to watch" : `Link for ${names[seat] || `seat ${seat + 1}`}`;
    const input = document.createElement("input");
    input.readOnly = true;
    input.value = url;
    input.dataset.seat = seat === null ? "watch" : seat;
    label.append(input);
    const copy = document.createElement("button");
    copy.type = "button";
    copy.textContent = "Copy";
    copy.addEventListener("click", async () => {
      input.select();
      try { await navigator.clipboard.writeText(url); copy.textContent = "Copied"; } catch (err) {
        copy.textContent = "Selected: copy it";
      }
    });
    list.append(label, copy);
  }
}

export function setupLobby() {
  $("my-name").value = localStorage.getItem("fivehundred.name") || "";
  $("players").addEventListener("change", seatKinds);
  $("opt-misere").addEventListener("change", () => {
    $("opt-blind").disabled = !$("opt-misere").checked;
  });
  $("create").addEventListener("submit", create);
  seatKinds();
}
