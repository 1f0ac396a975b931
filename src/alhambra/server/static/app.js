// The Alhambra table in the browser: lobby (create / join tables) and the live table.
// The server is the single source of truth: every move offered here is one of the view's
// legal_actions, sent back as notation. Names and texts are always inserted as text.
//
// The front end is split into ES modules by part, one room each: core.js (shared helpers),
// plugins.js (module plug-ins), lobby.js, table.js (state, connection, redraw, supply),
// hand.js (hand and payment), actions.js (the decision panel), board.js (the Alhambras),
// log.js (the game log) and dialogs.js (scoring, end screen, overview).

import { start } from "./core.js";

start();
