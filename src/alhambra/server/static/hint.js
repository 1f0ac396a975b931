// The hint button of the table: asks the server what the strongest bot would play now (only at
// private tables whose creator allowed hints) and shows it as a highlight on the table (the
// market square, the cards, the tile and its place, the button) with a sentence. The table
// redraws itself on every update, so decorate() is called after each redraw and puts the
// highlight back while the hint is for the version on screen. When the answer comes, the table
// selects what the move needs (hooks.show: the suggested waiting or reserve tile, the cards, the
// payment), so the spot, the exchange target and the buttons of that move are drawn and marked
// even when another tile was selected; a module's move marks its control and the face-up card
// it is offered on, else the market square it is offered on (then its payment and button), else
// its module's controls.

import { parseAction } from "./plugins.js";

const H = { version: null, action: null, text: "", loading: false, error: "", hooks: {} };

if (!document.querySelector('link[href="/static/hint.css"]')) {
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = "/static/hint.css";
  document.head.appendChild(link);
}

/** The hint button for the seat to act at version `version` (null when hints are off).
 * `hooks.show(action)` selects on the table what the hinted move needs (called once, when the
 * answer comes); `hooks.owner(action)` names the module whose controls offer a module's move;
 * `hooks.squares(action)` the market squares a module offers that move on; `hooks.cards(action)`
 * the slots (1-4) of the face-up cards a module offers it on. */
export function hintButton(table, token, version, hooks = {}) {
  if (!table || !table.hints || !token) return null;
  H.hooks = hooks;
  const b = document.createElement("button");
  b.id = "btn-hint";
  b.type = "button";
  b.className = "secondary hint-button";
  b.textContent = H.loading ? "Thinking…" : "Hint";
  b.title = "What would the strongest bot play? (it thinks for a moment)";
  b.setAttribute("aria-label", "Hint: what would the strongest bot play?");
  if (H.loading) b.setAttribute("aria-busy", "true");
  b.disabled = H.loading;
  b.addEventListener("click", () => ask(table.id, token, version));
  return b;
}

async function ask(tableId, token, version) {
  if (H.loading) return;
  Object.assign(H, { loading: true, error: "", action: null, text: "", version });
  decorate(version);
  try {
    const res = await fetch(`/api/tables/${encodeURIComponent(tableId)}/hint?version=${version}`, {
      headers: { Accept: "application/json", Authorization: `Bearer ${token}` },
    });
    const data = await res.json().catch(() => null);
    if (!res.ok) throw new Error((data && data.detail) || `The hint failed (${res.status}).`);
    Object.assign(H, { action: data.action, text: data.text, version: data.version });
    H.loading = false;
    if (data.version === version && typeof H.hooks.show === "function") H.hooks.show(data.action);
  } catch (e) {
    H.error = e instanceof TypeError ? "The server cannot be reached for a hint just now." : e.message;
  } finally {
    H.loading = false;
  }
  decorate(version);
}

/** The parts of the table the hinted move `action` (notation, never shown) points at. */
function targets(action) {
  const a = parseAction(action); // the server's structured action: nothing is parsed here
  const sel = [];
  // a module's move offered on a market square (hooks.squares): the square
  const squares = typeof H.hooks.squares === "function" ? H.hooks.squares(action) || [] : [];
  for (const n of squares) sel.push(`.market-square[data-square="${CSS.escape(String(n))}"]`);
  // a module's move offered on a face-up card of the display (hooks.cards): the card
  const slots = typeof H.hooks.cards === "function" ? H.hooks.cards(action) || [] : [];
  for (const n of slots) sel.push(`.display-card[data-slot="${CSS.escape(String(n))}"]`);
  const cards = (list, where) => { for (const c of list || []) if (c) sel.push(`${where}[data-code="${CSS.escape(c)}"]`); };
  if (a.type === "take") cards(a.cards, ".display-card");
  else if (a.type === "buy") { sel.push(`.market-square[data-square="${a.square}"]`); cards(a.cards, ".hand-card"); }
  else if (a.type === "place") {
    // the spot, the reserve and Dirk's buttons carry the move itself (data-action, below): a
    // spot at the same place for another waiting tile is not marked
    sel.push(`.waiting-tile[data-tile="${CSS.escape(a.tile || "")}"]`);
    if (a.target === "reserve") sel.push(".city.mine .reserve");
  } else if (a.type === "turn") {
    sel.push(`.waiting-tile[data-tile="${CSS.escape(a.tile || "")}"]`, "#btn-turn");
    cards(a.cards, ".hand-card");
  } else if (a.type === "rbuild" || a.type === "rremove" || a.type === "rexchange") {
    sel.push(`.reserve-tile[data-tile="${CSS.escape(a.tile || "")}"]`, `.city.mine [data-tile="${CSS.escape(a.tile || "")}"]`);
    if (a.type === "rexchange") sel.push(`.city.mine [data-tile="${CSS.escape(a.other || "")}"]`);
  }
  sel.push(`[data-action="${CSS.escape(action)}"]`);
  return sel;
}

/** Put the hint on the table drawn for `version` (call after every redraw). */
export function decorate(version) {
  for (const el of document.querySelectorAll(".hint-target")) el.classList.remove("hint-target");
  const old = document.getElementById("hint-text");
  if (old) old.remove();
  if (H.version !== version) return;
  const panel = document.getElementById("action-panel");
  const button = document.getElementById("btn-hint");
  if (button) {
    button.textContent = H.loading ? "Thinking…" : "Hint";
    button.disabled = H.loading;
  }
  if (H.action) {
    for (const s of targets(H.action)) {
      for (const el of document.querySelectorAll(s)) el.classList.add("hint-target");
    }
    // a module's move without a control of its own (nor a market square): its module's controls
    const owner = typeof H.hooks.owner === "function" ? H.hooks.owner(H.action) : null;
    const onSquare = typeof H.hooks.squares === "function" && (H.hooks.squares(H.action) || []).length > 0;
    if (owner && !onSquare && !document.querySelector(`[data-action="${CSS.escape(H.action)}"]`)) {
      for (const el of document.querySelectorAll(`.module-controls[data-module="${CSS.escape(owner)}"]`)) el.classList.add("hint-target");
    }
  }
  const text = H.loading ? "The strongest bot is thinking…" : H.error || (H.text ? `Hint: ${H.text}.` : "");
  if (panel && text) {
    const p = document.createElement("p");
    p.id = "hint-text";
    p.className = `hint-text ${H.error ? "error" : ""}`;
    p.setAttribute("role", "status");
    p.textContent = text;
    panel.prepend(p);
  }
  document.body.dataset.hint = H.action && !H.loading ? "shown" : H.loading ? "thinking" : "";
}
