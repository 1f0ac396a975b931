// The Alhambra table in the browser: lobby (create / join tables) and the live table.
// The server is the single source of truth: every move offered here is one of the view's
// legal_actions, sent back as notation. Names and texts are always inserted as text.
//
// The front end is split into ES modules by part, one room each, in layers with no import
// circle: each file imports only from files listed after it.
//   app.js      this entry: routing to the lobby or a table
//   lobby.js    the lobby (create / join tables)
//   table.js    the connection and the redraw of the whole table: it wires the parts
//   actions.js  the decision panel
//   log.js      the game log
//   hint.js     the hint button
//   dialogs.js  scoring, end screen, overview
//   board.js    the Alhambras
//   context.js  the ctx a module plug-in's hook gets
//   hand.js     hand and payment
//   moves.js    legal actions, sending a move, choosing (with its confirmation)
//   plugins.js  module plug-ins; cards, tiles and actions named and drawn
//   core.js     the API client, the game's words, the page header
//   state.js    the table state T, the redraw, notices, settings, motion
//   art.js      the house-style drawings
// The parts ask for a redraw through state.js's render(); table.js wires the function that
// draws (setRenderer) and the plug-in context (setPluginContext) once, when it is loaded.

import { lobby } from "./lobby.js";
import { tablePage } from "./table.js";

// ------------------------------------------------------------------------------ routing
export function start() {
  const m = /^\/table\/([A-Za-z0-9]{1,32})\/?$/.exec(location.pathname);
  if (m) tablePage(m[1]);
  else lobby();
}

start();
