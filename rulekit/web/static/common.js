// Drawing a table state (rulekit.web.table.table_state) for the table page and the replay viewer.
// The same drawing serves every rule file: it reads seats, zones, cards and actions, never a game's names.
"use strict";

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

function fmt(v) {
  if (v === true) return "yes";
  if (v === false) return "no";
  if (v === null || v === undefined) return "?";
  if (Array.isArray(v)) return v.map(fmt).join(" ") || "—";
  if (typeof v === "object") return Object.entries(v).map(([k, x]) => `${k} ${fmt(x)}`).join(", ");
  return String(v);
}

// ---- cards

function cardTip(face) {
  const lines = [face.name];
  for (const [k, v] of Object.entries(face.props || {})) lines.push(`${k}: ${fmt(v)}`);
  for (const [k, v] of Object.entries(face.state || {})) lines.push(`${k} now: ${fmt(v)}`);
  for (const s of face.skills || []) lines.push(`【${s.name}】 ${s.text}`);
  return lines.join("\n");
}

// A card face: its corner (rank and suit), its title, a line about it and its numbers.
// The numbers sit in a strip of their own below the title, never over it: a card with a
// state of its own (card variables) grows to hold them, whatever its size.
function cardEl(face, opts = {}) {
  const cls = ["card", face.color === "red" ? "red" : "", opts.small ? "small" : "",
               opts.pickable ? "pickable" : "", opts.selected ? "selected" : "", opts.dim ? "dim" : ""];
  const click = opts.onclick ? (e) => { e.stopPropagation(); opts.onclick(e); } : null;
  const node = el("div", {class: cls.join(" "), title: cardTip(face), "data-card": face.id, onclick: click});
  if (face.corner) {
    node.append(el("span", {class: "corner"}, face.corner), el("span", {class: "corner br"}, face.corner));
  }
  const body = el("div", {class: "face"});
  const title = face.title || "";
  if (title) body.append(el("div", {class: "ttl" + ([...title].length >= 6 ? " longer" : [...title].length >= 4 ? " long" : "")}, title));
  else if (face.rank && !/^\d+$/.test(face.rank)) body.append(el("div", {class: "big"}, face.rank, el("span", {class: "pip"}, face.suit)));
  else body.append(el("div", {class: "big"}, face.suit || face.name));
  const props = face.props || {};
  const sub = [props.type, props.kind, props.faction, props.kingdom]
    .find(v => typeof v === "string" && v !== face.title);
  if (sub && face.title) body.append(el("div", {class: "sub"}, sub));
  node.append(body);
  const stats = [];
  for (const [k, v] of Object.entries(face.state || {})) {
    if (typeof v === "number" && stats.length < 3) stats.push(el("span", {class: "st", title: `${k} ${v}`}, el("i", {}, k), el("b", {}, v)));
  }
  if (!stats.length && !face.corner) {
    for (const [k, v] of Object.entries(props)) {
      if (typeof v === "number" && stats.length < 3) stats.push(el("span", {title: `${k} ${v}`}, el("i", {}, k), el("b", {}, v)));
    }
  }
  if (stats.length) {
    node.classList.add(face.state && Object.keys(face.state).length ? "stated" : "numbered");
    node.append(el("div", {class: "stats"}, stats));
  }
  return node;
}

function backEl(count, tiny) {
  return el("div", {class: tiny ? "back tiny" : "back", title: `${count} face down`}, tiny ? "" : count);
}

// ---- what can be clicked: cards first, then an option

// The actions whose cards are exactly the selected ones, and the cards that can still join the selection.
function choiceFor(state, selected) {
  const sel = [...selected].sort((a, b) => a - b).join(",");
  const ready = [], plain = [];
  const pickable = new Set();
  let more = false;
  state.actions.forEach((a, i) => {
    const cards = a.action.cards || [];
    const item = {...a, index: i};
    if (!cards.length) { plain.push(item); return; }
    if ([...cards].sort((x, y) => x - y).join(",") === sel) ready.push(item);
    if ([...selected].every(c => cards.includes(c))) {
      for (const c of cards) pickable.add(c);
      if (cards.length > selected.size) more = true;
    }
  });
  for (const c of selected) pickable.add(c);
  return {ready: selected.size ? ready : [], plain, pickable, more,
          cardActions: state.actions.some(a => (a.action.cards || []).length)};
}

// ---- the table

function seatTitle(seat) {
  return seat.title ? `${seat.title}` : seat.name;
}

function statusEl(status) {
  const out = el("div", {class: "status"});
  for (const s of status) {
    const v = s.value;
    if (v === false || v === "-" || v === "" || (Array.isArray(v) && !v.length)) continue;
    if (typeof v === "number" && typeof s.max === "number" && s.max > 0 && s.max <= 12) {
      const pips = el("span", {class: "pips"});
      for (let i = 0; i < s.max; i++) pips.append(el("span", {class: i < v ? "on" : "off"}, "♥"));
      out.append(el("span", {class: "chip", title: `${s.name} ${v}/${s.max}`}, `${s.name} `, pips, ` ${v}/${s.max}`));
    } else if (v === true) {
      out.append(el("span", {class: "chip"}, s.name));
    } else {
      const text = s.max !== undefined ? `${fmt(v)}/${fmt(s.max)}` : fmt(v);
      out.append(el("span", {class: "chip"}, `${s.name} `, el("b", {}, text)));
    }
  }
  return out;
}

function zoneEl(zone, ctx, small) {
  const cards = (zone.cards || []).map(f => ctx.card(f, small));
  return el("div", {class: "zone", "data-zone": zone.key},
            el("span", {class: "label"}, `${zone.name}${zone.count > 1 ? " · " + zone.count : ""}`),
            el("div", {class: "cards"}, cards));
}

// A zone holding just the card that names its seat (its hero) is shown as the seat's title,
// unless that card can be picked now: every card an action needs is drawn.
function namesSeat(z, seat, ctx) {
  return z.count === 1 && z.cards && z.cards[0].name === seat.title && !(ctx.isPickable && ctx.isPickable(z.cards[0].id));
}

function seatEl(seat, ctx) {
  const cls = ["seat", seat.current ? "current" : "", seat.deciding ? "deciding" : "", seat.out ? "out" : ""];
  const targets = ctx.targets.get(seat.seat);
  if (targets) cls.push("target");
  const badge = seat.out ? el("span", {class: "badge outb"}, "out")
    : seat.deciding ? el("span", {class: "badge"}, "deciding")
    : seat.current ? el("span", {class: "badge"}, "turn") : null;
  // the card that names the seat (its hero) is its title, with the card's text as a tooltip
  let tip = null;
  const zones = [];
  for (const z of seat.zones) {
    if (z.visibility === "owner" && seat.you) continue;
    if (namesSeat(z, seat, ctx)) { tip = cardTip(z.cards[0]); continue; }
    zones.push(zoneEl(z, ctx, true));
  }
  const counts = seat.counts.map(c => el("span", {class: "count chip"}, backEl(c.count, true), `${c.name} ${c.count}`));
  return el("div", {class: cls.join(" "), "data-seat": seat.seat,
                    onclick: targets ? () => ctx.act(targets) : null},
    el("div", {class: "who"}, el("span", {class: "title", title: tip}, seatTitle(seat)),
       seat.title ? el("span", {class: "name"}, seat.name + (seat.you ? " (you)" : "")) : (seat.you ? el("span", {class: "name"}, "(you)") : null),
       badge),
    statusEl(seat.status),
    zones.length ? el("div", {class: "zones"}, zones) : null,
    counts.length ? el("div", {class: "counts"}, counts) : null);
}

function pileEl(zone, ctx) {
  const cards = zone.cards || [];
  let body;
  if (!zone.count) body = el("div", {class: "empty-slot"});
  else if (!cards.length) body = backEl(zone.count);
  else if (zone.visibility === "public" && cards.length <= 6) body = el("div", {class: "fan"}, cards.map(f => ctx.card(f, false)));
  else {        // the top card, and any other that can be picked now
    const shown = cards.filter((f, i) => i === 0 || (ctx.isPickable && ctx.isPickable(f.id)));
    body = el("div", {class: "fan"}, shown.map(f => ctx.card(f, false)));
  }
  const label = `${zone.name} · ${zone.count}`;
  return el("div", {class: "pile" + (zone.count ? "" : " empty"), "data-zone": zone.key}, body, el("span", {class: "label"}, label));
}

// Others around the table in seat order after the viewer: right side upwards, the top leftwards, left side down.
function arrange(state) {
  const n = state.players;
  const me = state.seat === "all" ? 0 : state.seat;
  const others = [];
  for (let k = 1; k < n; k++) others.push(state.seats[(me + k) % n]);
  const side = others.length < 4 ? 0 : others.length < 7 ? 1 : 2;
  const right = others.slice(0, side).reverse();
  const top = others.slice(side, others.length - side).reverse();
  const left = others.slice(others.length - side);
  return {me: state.seats[me], right, top, left};
}

function whoText(state, p) {
  if (p === null || p === undefined) return "";
  const s = state.seats[p];
  const you = p === state.seat ? " (you)" : "";
  return s && s.title ? `${s.name}${you} · ${s.title}` : `player ${p}${you}`;
}

function headerText(state) {
  const phase = state.phase === null ? "setup" : `phase ${state.phase}`;
  return `turn ${state.turn} · ${whoText(state, state.current)}'s turn · ${phase} · step ${state.step}`;
}

// ctx: {selected: Set, pick(id), act(actionItem), interactive}
function drawTable(root, state, ctx) {
  const choice = ctx.interactive && state.yours ? choiceFor(state, ctx.selected)
    : {ready: [], plain: [], pickable: new Set(), more: false, cardActions: false};
  ctx.targets = new Map();
  for (const a of choice.ready.length ? choice.ready : choice.plain) {
    const p = a.action.player;
    if (p !== undefined && p !== null) {
      ctx.targets.set(p, ctx.targets.has(p) ? null : a);
    }
  }
  for (const [p, a] of [...ctx.targets]) if (!a) ctx.targets.delete(p);
  ctx.isPickable = (id) => choice.pickable.has(id);
  ctx.card = (face, small) => {
    const pickable = choice.pickable.has(face.id);
    return cardEl(face, {small, pickable, selected: ctx.selected.has(face.id),
                         onclick: pickable ? () => ctx.pick(face.id) : null});
  };
  const place = arrange(state);
  const center = el("div", {class: "center"},
    el("div", {class: "shared"}, state.shared.filter(z => z.count || z.visibility !== "hidden").map(z => pileEl(z, ctx))),
    Object.keys(state.info || {}).length
      ? el("div", {class: "info"}, Object.entries(state.info).map(([k, v]) => el("span", {class: "chip"}, `${k} `, el("b", {}, fmt(v)))))
      : null,
    promptEl(state));
  root.replaceChildren(
    el("div", {class: "row-top"}, place.top.map(s => seatEl(s, ctx))),
    el("div", {class: "col-left"}, place.left.map(s => seatEl(s, ctx))),
    center,
    el("div", {class: "col-right"}, place.right.map(s => seatEl(s, ctx))),
    el("div", {class: "bottom"}, meEl(state, place.me, ctx, choice)));
}

function promptEl(state) {
  const d = state.decision;
  if (!d) return state.end ? el("div", {class: "prompt"}, `Game over: ${state.end.outcome} — ${state.end.reason}`) : null;
  if (d.yours) return el("div", {class: "prompt yours", id: "prompt"}, el("b", {}, "Your move: "), d.prompt);
  return el("div", {class: "prompt", id: "prompt"}, `Waiting for ${whoText(state, d.player)}: `, d.prompt);
}

function meEl(state, seat, ctx, choice) {
  const hands = state.seat === "all" ? seat.zones.filter(z => z.visibility === "owner") : state.mine;
  const open = seat.zones.filter(z => z.visibility !== "owner" && !namesSeat(z, seat, ctx));
  const left = seatEl({...seat, zones: open, counts: seat.counts}, ctx);
  left.classList.remove("deciding");
  const mine = el("div", {class: "mine"});
  for (const z of hands) {
    mine.append(el("div", {class: "handlabel"}, `${z.name} · ${z.count}`),
                el("div", {class: "hand", "data-zone": z.key}, (z.cards || []).map(f => ctx.card(f, false))));
  }
  const box = el("div", {class: "me" + (state.yours ? " deciding" : "")}, left, mine);
  if (ctx.interactive) box.append(actionsEl(state, ctx, choice));
  else if (state.next) box.append(el("div", {class: "actions"}, el("span", {class: "next"},
    `next: ${whoText(state, state.next.player)} — ${state.next.text}`)));
  return box;
}

function actionsEl(state, ctx, choice) {
  const bar = el("div", {class: "actions", id: "actions"});
  if (!state.yours) {
    bar.append(el("span", {class: "hint"}, state.decision ? "Not your turn to decide." : ""));
    return bar;
  }
  const button = (a, ready) => el("button", {class: ready ? "ready" : "", "data-action": a.index, title: a.text,
                                             onclick: () => ctx.act(a)}, ready ? a.label || a.text : a.text);
  for (const a of choice.ready) bar.append(button(a, true));
  for (const a of choice.plain) bar.append(button(a, false));
  if (choice.cardActions) {
    const hint = ctx.selected.size
      ? (choice.more ? "Choose more cards, or an option." : choice.ready.length ? "" : "No option with these cards.")
      : "Click a card, then an option.";
    if (hint) bar.append(el("span", {class: "hint"}, hint));
    if (ctx.selected.size) bar.append(el("button", {class: "quiet", onclick: () => ctx.clear()}, "clear"));
  }
  if (state.actions.length > 1) {
    bar.append(el("details", {class: "all"}, el("summary", {}, `all ${state.actions.length} options`),
      el("div", {}, state.actions.map((a, i) => el("button", {class: "quiet", "data-all": i, onclick: () => ctx.act({...a, index: i})}, a.text)))));
  }
  return bar;
}

function drawLog(box, state) {
  const stick = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
  box.replaceChildren(...state.log.map(line => el("div", {
    class: line.kind + (line.player === state.seat ? " you" : "")}, line.text)));
  if (stick || !box.dataset.drawn) box.scrollTop = box.scrollHeight;
  box.dataset.drawn = "1";
}

function endEl(state, extra) {
  const end = state.end;
  const secrets = end.secrets || [];
  const stats = end.player_stats || {};
  const keys = [...new Set(secrets.flatMap(s => Object.keys(s.values)))];
  const statNames = Object.keys(stats).filter(k => !keys.includes(k));
  const rows = state.seats.map(s => el("tr", {class: end.winners.includes(s.seat) ? "winner" : ""},
    el("td", {}, whoText(state, s.seat)),
    keys.map(k => el("td", {}, fmt((secrets[s.seat] || {values: {}}).values[k]))),
    statNames.map(k => el("td", {}, fmt(stats[k][s.seat])))));
  const head = el("tr", {}, el("th", {}, "seat"), keys.map(k => el("th", {}, k)), statNames.map(k => el("th", {}, k)));
  const general = Object.entries(end.stats || {});
  return el("div", {class: "endbox", id: "endbox"},
    el("h2", {}, end.you_won ? `${end.outcome} — you won!` : end.outcome),
    el("div", {}, end.reason),
    el("div", {class: "muted"}, `after ${end.turns} turns · winners: ${end.winners_text}`),
    el("table", {}, head, rows),
    general.length ? el("div", {class: "status"}, general.map(([k, v]) => el("span", {class: "chip"}, `${k} `, el("b", {}, fmt(v))))) : null,
    el("div", {class: "buttons"}, extra || []));
}
