// The replay viewer: a saved match posted to /api/replays, then the table after any step, seen by everyone
// or by one seat, stepped forwards and backwards.
"use strict";

const $ = (id) => document.getElementById(id);
const rp = {id: null, steps: 0, players: 0, step: 0, seat: "all", frames: new Map(), timer: null, shown: null};
window.rulekitReplay = rp;      // for the browser tests

function toast(text) {
  const box = $("toast");
  box.textContent = text;
  box.classList.remove("hidden");
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => box.classList.add("hidden"), 6000);
}

async function load(saved) {
  const resp = await fetch("/api/replays", {method: "POST", headers: {"Content-Type": "application/json"},
                                            body: typeof saved === "string" ? saved : JSON.stringify(saved)});
  const reply = await resp.json();
  if (!resp.ok) { toast(reply.error || `error ${resp.status}`); return; }
  Object.assign(rp, {id: reply.replay, steps: reply.steps, players: reply.players, frames: new Map()});
  $("slider").max = reply.steps;
  $("seat").replaceChildren(el("option", {value: "all"}, "everyone"),
    ...Array.from({length: reply.players}, (_, i) => el("option", {value: String(i)}, `player ${i}`)));
  $("seat").value = rp.seat = "all";
  await go(0);
}

async function frame(step, seat) {
  const key = `${step}/${seat}`;
  if (!rp.frames.has(key)) {
    const resp = await fetch(`/api/replays/${encodeURIComponent(rp.id)}/${step}?seat=${seat}`);
    const body = await resp.json();
    if (!resp.ok) throw new Error(body.error || `error ${resp.status}`);
    rp.frames.set(key, body);
  }
  return rp.frames.get(key);
}

async function go(step) {
  if (!rp.id) return;
  step = Math.max(0, Math.min(rp.steps, step));
  const seq = rp.seq = (rp.seq || 0) + 1;      // a later step asked for wins over an earlier one still loading
  let s;
  try { s = await frame(step, rp.seat); } catch (err) { toast(String(err.message || err)); stop(); return; }
  if (seq !== rp.seq) return;
  rp.step = step;
  rp.shown = s;
  $("slider").value = step;
  $("game").textContent = s.game;
  $("stepinfo").textContent = `step ${step} / ${rp.steps} · ${headerText(s).replace(/ · step \d+$/, "")}`;
  const ctx = {interactive: false, selected: new Set(), pick() {}, act() {}, clear() {}};
  drawTable($("table"), s, ctx);
  drawLog($("log"), s);
  $("log").scrollTop = $("log").scrollHeight;
  document.body.dataset.step = String(step);
  if (step === rp.steps && s.end) {
    $("end").replaceChildren(endEl(s, [el("button", {onclick: () => $("end").classList.add("hidden")}, "close")]));
    $("end").classList.remove("hidden");
  } else {
    $("end").classList.add("hidden");
  }
}

function stop() { clearInterval(rp.timer); rp.timer = null; $("play").textContent = "play"; }

function play() {
  if (rp.timer) { stop(); return; }
  $("play").textContent = "pause";
  rp.timer = setInterval(() => { if (rp.step >= rp.steps) stop(); else go(rp.step + 1); }, 500);
}

$("first").onclick = () => go(0);
$("back").onclick = () => go(rp.step - 1);
$("fwd").onclick = () => go(rp.step + 1);
$("last").onclick = () => go(rp.steps);
$("play").onclick = play;
$("slider").oninput = (e) => go(Number(e.target.value));
$("seat").onchange = (e) => { rp.seat = e.target.value; go(rp.step); };
$("file").onchange = async (e) => {
  const f = e.target.files[0];
  if (f) await load(await f.text());
};
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "INPUT" && e.target.type !== "range") return;
  if (e.key === "ArrowLeft") go(rp.step - 1);
  else if (e.key === "ArrowRight") go(rp.step + 1);
  else if (e.key === "Home") go(0);
  else if (e.key === "End") go(rp.steps);
  else if (e.key === " ") { e.preventDefault(); play(); }
  else return;
  e.preventDefault();
});

const fromMatch = new URLSearchParams(location.search).get("match");
if (fromMatch) {
  fetch(`/api/matches/${encodeURIComponent(fromMatch)}/saved`).then(async (resp) => {
    const body = await resp.json();
    if (!resp.ok) { toast(body.error || `that match cannot be replayed yet (${resp.status})`); return; }
    await load(body);
  });
}
