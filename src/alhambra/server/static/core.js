// The table's shared helpers: the API client, the game's words (kinds, wall, title, places), the seat colours, the page header and phase.
// Part of the browser table (app.js is the entry); see docs/server.md, "The browser table".
// ------------------------------------------------------------------------------ helpers

import { h, logoSVG } from "./art.js";
import { T } from "./state.js";

export const NETWORK_ERROR = "The server cannot be reached. Check your internet connection and try again; nothing was changed.";

export async function api(method, path, body, token) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (_) {
    // fetch only rejects when no answer came at all: say so in words, never "Failed to fetch"
    const err = new Error(NETWORK_ERROR);
    err.status = 0;
    throw err;
  }
  let data = null;
  try {
    data = await res.json();
  } catch (_) {
    data = null;
  }
  if (!res.ok) {
    const detail = data && typeof data.detail === "string" ? data.detail : null;
    const err = new Error(detail || (res.status >= 500 ? `The server had a problem (error ${res.status}). Please try again in a moment.` : `The server refused this (error ${res.status}).`));
    err.status = res.status;
    throw err;
  }
  return data;
}

export const CURRENCIES = ["blue", "green", "orange", "yellow"];
export const ALHAMBRA_KINDS = ["pavilion", "seraglio", "arcades", "chambers", "garden", "tower"];

/** The building kinds of this table's game, in scoring order (the catalogue's `kinds`). */
export function gameKinds() {
  return (T.catalogue && Array.isArray(T.catalogue.kinds) && T.catalogue.kinds.length) ? T.catalogue.kinds : ALHAMBRA_KINDS;
}

/** What this game calls its walls: "wall" (Alhambra), "moat" (Granada). */
export function wallName() {
  return (T.catalogue && T.catalogue.wall_name) || "wall";
}

/** The game's title ("Alhambra", "Granada"). */
export function gameTitle() {
  return (T.catalogue && T.catalogue.title) || "Alhambra";
}
/** Where a place of an Alhambra lies, in words: "2 north and 1 east of the fountain". */
export function placeText(x, y) {
  if (x === 0 && y === 0) return "on the fountain";
  const parts = [];
  if (y) parts.push(`${Math.abs(y)} ${y < 0 ? "north" : "south"}`);
  if (x) parts.push(`${Math.abs(x)} ${x > 0 ? "east" : "west"}`);
  return `${parts.join(" and ")} of the fountain`;
}

export const SEAT_COLORS = ["#d1495b", "#2e86ab", "#e09f3e", "#3a7d44", "#7b5ea7", "#5c5c5c"];

// ------------------------------------------------------------------------------ page
export function setPhase(phase) {
  document.body.dataset.phase = phase;
}

export function header(extra) {
  return h("header", { class: "topbar" },
    h("a", { href: "/", class: "brand", "aria-label": "Alhambra lobby" }, logoSVG(32), h("span", { text: gameTitle() })),
    extra || null);
}
