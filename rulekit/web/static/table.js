// The table page: one seat of one match, played over the websocket /ws/ID.
// The seat's token comes from the URL fragment (#token=...), which browsers never send to the server's logs.
"use strict";

const matchId = new URLSearchParams(location.search).get("match") || "";
const token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
const ui = {state: null, ws: null, selected: new Set(), retry: 0, stopped: false, autoSent: -1,
            endShown: false, errors: [], states: 0};
window.rulekitTable = ui;       // for the browser tests: the last state, the errors received, a raw send

const autopass = document.getElementById("autopass");
autopass.checked = localStorage.getItem("rulekit.autopass") !== "off";
autopass.addEventListener("change", () => {
  localStorage.setItem("rulekit.autopass", autopass.checked ? "on" : "off");
  if (ui.state) maybeAutoPass(ui.state);
});

ui.send = function (message) {
  if (!ui.ws || ui.ws.readyState !== WebSocket.OPEN) { toast("Not connected: reconnecting…"); return false; }
  ui.ws.send(typeof message === "string" ? message : JSON.stringify(message));
  return true;
};

function toast(text) {
  const box = document.getElementById("toast");
  box.textContent = text;
  box.classList.remove("hidden");
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => box.classList.add("hidden"), 6000);
}

function setConn(up, text) {
  const c = document.getElementById("conn");
  c.textContent = text || (up ? "connected" : "reconnecting…");
  c.classList.toggle("down", !up);
}

function act(item) {
  if (!ui.state || !ui.state.yours) return;
  if (ui.send({type: "act", action: item.action, step: ui.state.step})) {
    ui.selected.clear();
    document.body.dataset.sent = String(ui.state.step);
  }
}

const ctx = {
  interactive: true,
  selected: ui.selected,
  pick(id) { ui.selected.has(id) ? ui.selected.delete(id) : ui.selected.add(id); draw(); },
  clear() { ui.selected.clear(); draw(); },
  act,
};

function draw() {
  const s = ui.state;
  document.getElementById("game").textContent = s.game;
  document.title = `${s.game} — ${s.seat === "all" ? "all" : "player " + s.seat}`;
  document.getElementById("turninfo").textContent = headerText(s);
  drawTable(document.getElementById("table"), s, ctx);
  drawLog(document.getElementById("log"), s);
}

function showEnd(s) {
  const box = document.getElementById("end");
  box.replaceChildren(endEl(s, [
    el("button", {onclick: () => box.classList.add("hidden")}, "look at the table"),
    el("a", {href: `/replay?match=${encodeURIComponent(matchId)}`}, el("button", {class: "quiet"}, "watch the replay")),
    el("a", {href: "/"}, el("button", {class: "quiet"}, "back to the lobby"))]));
  box.classList.remove("hidden");
}

function maybeAutoPass(s) {
  if (s.yours && s.decision && s.decision.only_pass && autopass.checked && ui.autoSent !== s.step) {
    ui.autoSent = s.step;
    act(s.actions[0]);
  }
}

// A state carries the log lines from log_from on (all of them after a hello): they replace ours from there.
function onState(s) {
  if (!ui.state || ui.state.step !== s.step) ui.selected.clear();
  const held = ui.state ? ui.state.log : [];
  s.log = held.slice(0, s.log_from || 0).concat(s.log);
  ui.state = s;
  ui.states += 1;
  document.body.dataset.step = String(s.step);
  document.body.dataset.yours = String(s.yours);
  document.body.dataset.over = String(!!s.end);
  draw();
  if (s.end && !ui.endShown) { ui.endShown = true; showEnd(s); }
  maybeAutoPass(s);
}

function onError(msg) {
  ui.errors.push(msg);
  document.body.dataset.errors = String(ui.errors.length);
  toast(`${msg.code}: ${msg.message}`);
  if (msg.code === "token") {
    ui.stopped = true;
    setConn(false, "not seated");
  }
}

function connect() {
  const proto = location.protocol === "https:" ? "wss://" : "ws://";
  const ws = new WebSocket(`${proto}${location.host}/ws/${encodeURIComponent(matchId)}`);
  ui.ws = ws;
  ws.onopen = () => { ui.retry = 0; setConn(true); ws.send(JSON.stringify({type: "hello", token})); };
  ws.onmessage = (e) => {
    let msg;
    try { msg = JSON.parse(e.data); } catch (err) { return; }
    if (msg.type === "state") onState(msg);
    else if (msg.type === "error") onError(msg);
  };
  ws.onclose = () => {
    if (ui.ws !== ws) return;
    if (ui.stopped) { setConn(false, "not seated"); return; }
    setConn(false);
    const wait = Math.min(5000, 400 * 2 ** ui.retry++);
    setTimeout(connect, wait);
  };
}

if (!matchId || !token) {
  document.getElementById("turninfo").textContent = "";
  document.getElementById("table").replaceChildren(el("div", {class: "center"}, el("div", {class: "prompt"},
    "This link has no match or no seat token. Open the link the lobby gave for your seat: ",
    el("code", {}, "/table?match=ID#token=…"), ". ", el("a", {href: "/"}, "Back to the lobby"))));
} else {
  connect();
}
