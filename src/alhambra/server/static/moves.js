// What the table does with moves: the legal actions as the table presents them, sending a move, undo, choosing (with its confirmation).
// Part of the browser table (app.js is the entry); see docs/server.md, "The browser table".

import { api } from "./core.js";
import { describeMove, parseAction } from "./plugins.js";
import { T, isMyTurn, notify, render } from "./state.js";

export function legal() {
  if (!T.msg) return [];
  // the server's structured actions (notation, keyword, arguments): nothing is parsed here
  if (Array.isArray(T.msg.actions) && T.msg.actions.length === T.msg.view.legal_actions.length) return T.msg.actions.map(describeMove);
  return T.msg.view.legal_actions.map(parseAction);
}

/** The pass action when it is my decision and Pass is its only answer, else null. */
export function onlyPass() {
  if (!isMyTurn()) return null;
  const acts = T.msg.view.legal_actions;
  return acts.length === 1 && parseAction(acts[0]).type === "pass" ? acts[0] : null;
}

export async function send(action) {
  // a second click on the same table version is a double click: its move is already on its way.
  // Once an update moved the version on, the next move goes out even if the previous request's
  // response has not arrived yet (the update can come first over the socket).
  const version = T.msg.version;
  if (T.sending === version) return;
  T.sending = version;
  try {
    // the selection is cleared by the update that carries the new version (it may arrive
    // before this response does, and the next move may already be under way)
    await api("POST", `/api/tables/${T.id}/actions`, { action, version }, T.token);
  } catch (e) {
    notify(e.message, true);
  } finally {
    if (T.sending === version) T.sending = null;
  }
}

export async function undo() {
  try {
    await api("POST", `/api/tables/${T.id}/undo`, { version: T.msg.version }, T.token);
  } catch (e) {
    notify(e.message, true);
  }
}

/** Choose an action: final ones (end the turn, reveal something) wait for an explicit confirmation. */
export function choose(action, label, confirm = null) {
  if (!T.msg.view.legal_actions.includes(action)) { notify("That move is not possible now.", true); return; }
  if (T.msg.final_actions.includes(action)) {
    // a plug-in may word the confirmation of a move that does not end the turn (it only reveals)
    const text = (k) => (confirm && typeof confirm[k] === "string" && confirm[k] ? confirm[k] : null);
    T.staged = { action, label, note: text("note"), button: text("button") };
    render();
    const b = document.getElementById("btn-confirm");
    if (b) b.focus();
  } else {
    send(action);
  }
}
