// The lobby: choose a game, its players, who plays each seat, its options and seed; create the match and
// share one link per person seat. Lists the matches the server is running.
"use strict";

let games = [];
const $ = (id) => document.getElementById(id);

function current() { return games.find(g => g.id === $("game").value); }

function drawSeats() {
  const g = current();
  const n = Math.max(g.players[0], Math.min(g.players[1], Number($("players").value) || g.players[0]));
  const old = [...$("seats").querySelectorAll("select")].map(s => s.value);
  $("seats").replaceChildren(...Array.from({length: n}, (_, i) => {
    const kinds = ["person", ...g.agents];
    const sel = el("select", {name: `seat${i}`, "data-seat": i}, kinds.map(k => el("option", {value: k}, k)));
    sel.value = old[i] || (i === 0 ? "person" : (g.agents.includes("heuristic") ? "heuristic" : g.agents[0] || "person"));
    return el("label", {}, el("span", {}, `player ${i}`), sel);
  }));
}

function drawOptions() {
  const g = current();
  const entries = Object.entries(g.options || {});
  $("options").replaceChildren(...(entries.length ? entries.map(([name, spec]) => {
    let input;
    if (Array.isArray(spec.values)) {
      input = el("select", {"data-option": name}, spec.values.map(v => el("option", {value: JSON.stringify(v)}, fmt(v))));
      input.value = JSON.stringify(spec.default);
    } else if (typeof spec.default === "boolean") {
      input = el("input", {type: "checkbox", "data-option": name, checked: spec.default});
    } else if (typeof spec.default === "number") {
      input = el("input", {type: "number", "data-option": name, value: spec.default});
    } else {
      input = el("input", {type: "text", "data-option": name, value: spec.default ?? ""});
    }
    return el("label", {class: "opt"}, el("b", {}, name), input, el("span"), spec.doc ? el("small", {}, spec.doc) : null);
  }) : [el("span", {class: "muted"}, "none")]));
}

function chooseGame() {
  const g = current();
  $("players").min = g.players[0];
  $("players").max = g.players[1];
  const n = Number($("players").value);
  if (!(n >= g.players[0] && n <= g.players[1])) $("players").value = Math.max(g.players[0], Math.min(g.players[1], 2));
  drawSeats();
  drawOptions();
}

function optionValues() {
  const out = {};
  for (const input of $("options").querySelectorAll("[data-option]")) {
    const name = input.dataset.option;
    if (input.tagName === "SELECT") out[name] = JSON.parse(input.value);
    else if (input.type === "checkbox") out[name] = input.checked;
    else if (input.type === "number") out[name] = Number(input.value);
    else out[name] = input.value;
  }
  return out;
}

function seatLink(mid, token) {
  return `${location.origin}/table?match=${encodeURIComponent(mid)}#token=${encodeURIComponent(token)}`;
}

async function create(event) {
  event.preventDefault();
  $("formerror").textContent = "";
  const seats = [...$("seats").querySelectorAll("select")].map(s => s.value);
  const seed = $("seed").value === "" ? null : Number($("seed").value);
  const body = {game: $("game").value, players: seats.length, seats, seed, options: optionValues()};
  let reply;
  try {
    const resp = await fetch("/api/matches", {method: "POST", headers: {"Content-Type": "application/json"},
                                              body: JSON.stringify(body)});
    reply = await resp.json();
    if (!resp.ok) { $("formerror").textContent = reply.error || `error ${resp.status}`; return; }
  } catch (err) { $("formerror").textContent = `the server did not answer: ${err}`; return; }
  const links = reply.seats.map(s => {
    const url = seatLink(reply.match, s.token);
    const input = el("input", {value: url, readonly: true, "data-link": s.seat, onfocus: (e) => e.target.select()});
    return el("div", {class: "link"}, el("b", {}, `player ${s.seat}`), input,
      el("button", {class: "quiet", type: "button", onclick: () => navigator.clipboard && navigator.clipboard.writeText(url)}, "copy"),
      el("a", {href: url, target: "_blank", "data-open": s.seat}, "open"));
  });
  $("created").replaceChildren(
    el("div", {}, el("b", {}, `Match ${reply.match} created.`),
       " Send each person the link of their seat: whoever has a seat's link plays that seat, and can reopen it to rejoin."),
    ...(links.length ? links : [el("div", {class: "muted"}, "No person seats: the agents play it out; watch the replay when it is over.")]));
  refresh();
}

async function refresh() {
  try {
    const list = await (await fetch("/api/matches")).json();
    $("matches").replaceChildren(...(list.length ? list.slice().reverse().map(m => el("tr", {"data-match": m.match},
      el("td", {}, m.title || m.game), el("td", {}, m.seats.join(", ")), el("td", {}, m.step),
      el("td", {}, m.over ? el("a", {href: `/replay?match=${encodeURIComponent(m.match)}`}, "replay") : "playing")))
      : [el("tr", {}, el("td", {colspan: 4, class: "muted"}, "no matches yet"))]));
  } catch (err) { /* the list is refreshed again shortly */ }
}

async function start() {
  games = await (await fetch("/api/games")).json();
  $("game").replaceChildren(...games.map(g => el("option", {value: g.id},
    `${g.title} (${g.players[0] === g.players[1] ? g.players[0] : g.players.join("–")} players)`)));
  $("game").addEventListener("change", chooseGame);
  $("players").addEventListener("input", drawSeats);
  $("newmatch").addEventListener("submit", create);
  chooseGame();
  refresh();
  setInterval(refresh, 3000);
  document.body.dataset.ready = "1";
}

start();
