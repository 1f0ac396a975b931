// Front-end plug-in of the bonus cards (module bonus_cards).
// Ten cards, each picturing one wall-less building tile; a card laid face up counts as one more
// building of its kind while its tile is in its owner's Alhambra. Drawn here: the cards (the
// table's tile art in a gold card frame with a "+1" medal) and their backs; a panel with your own
// cards face up, every other player's hand as backs (cards everybody knows face up), the played
// cards and the cards set aside; seat badges (cards in hand, each played card); the controls
// ("Play bonus card" on your turn, a free move; the question before each scoring round: play a
// card or pass); sentences for the log and the confirmations; a column of the scoring breakdown.
// See docs/writing-a-module.md, "Front-end plug-in".

const ID = "bonus_cards";
const GOLD = "#d9a93a";
const BACK = "#1f5f5b";
const WINE = "#7b2d26";
const DARK_TEXT_KINDS = new Set(["chambers", "arcades"]);

// ------------------------------------------------------------------------------ facts
/** The tile pictured on bonus card `code` (e.g. "G10" for bcg10); null when not a bonus card. */
function tileOfCard(ctx, code) {
  const c = ctx.catalogue && ctx.catalogue.cards ? ctx.catalogue.cards[code] : null;
  if (!c || c.module !== ID) return null;
  const known = ctx.state && ctx.state.cards ? ctx.state.cards[code] : null;
  if (typeof known === "string") return known;
  const m = /^bc([psacgt])(\d+)$/.exec(code);
  return m ? `${m[1].toUpperCase()}${m[2]}` : null;
}

/** The card code of the card picturing `tile` (e.g. bcg10 for G10). */
function cardOfTile(ctx, tile) {
  const cards = ctx.state && ctx.state.cards ? ctx.state.cards : {};
  for (const [code, t] of Object.entries(cards)) if (t === tile) return code;
  return `bc${tile.toLowerCase()}`;
}

function facts(ctx, tile) {
  return ctx.art.tileFacts(tile, ctx.catalogue);
}

/** "Garden 10". */
function tileShort(ctx, tile) {
  const f = facts(ctx, tile);
  return `${ctx.art.KIND_NAMES[f.kind] || f.kind} ${f.price}`;
}

/** "garden". */
function kindWord(ctx, tile) {
  return String(ctx.art.KIND_NAMES[facts(ctx, tile).kind] || facts(ctx, tile).kind).toLowerCase();
}

/** `bonus play G10` → "G10" (from the server's structured action); null for anything else. */
function parsePlay(ctx, notation) {
  const a = ctx.argsOf ? ctx.argsOf(notation, "bonus play") : null;
  return a ? a[0] : null;
}

function isMine(ctx, notation) {
  return notation === "bonus pass" || parsePlay(ctx, notation) !== null;
}

function offer(ctx) {
  const p = ctx.view ? ctx.view.pending : null;
  return p && p.type === "BonusOffer" ? p : null;
}

function plural(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

// ------------------------------------------------------------------------------ art
/** The front of the card picturing `tile`: a gold frame, "BONUS", the tile as the table draws
 * it, a "+1" medal and a ribbon in the kind's colour naming the kind. */
function cardFront(ctx, tile, width = 48) {
  const { INK, PAPER, KIND_COLORS, KIND_NAMES, cardShell, svgText, tileGroup } = ctx.art;
  const svg = ctx.svg;
  const f = facts(ctx, tile);
  const s = cardShell(`bonus card ${tileShort(ctx, tile)}: one more ${kindWord(ctx, tile)}`, width);
  s.classList.add("bonus-card");
  s.appendChild(svg("rect", { x: 1.5, y: 1.5, width: 57, height: 81, rx: 6, fill: GOLD, stroke: INK, "stroke-width": 2 }));
  s.appendChild(svg("rect", { x: 5, y: 5, width: 50, height: 74, rx: 4, fill: PAPER, stroke: INK, "stroke-width": 0.8 }));
  s.appendChild(svgText(30, 13.2, "BONUS", { "font-size": 6.8, "font-weight": 800, "letter-spacing": 1.2, fill: WINE }));
  s.appendChild(tileGroup(tile, ctx.catalogue, 8, 16, 44));
  // the "+1 building" medal
  s.appendChild(svg("circle", { cx: 47, cy: 56, r: 8.5, fill: WINE, stroke: INK, "stroke-width": 1.2 }));
  s.appendChild(svg("circle", { cx: 47, cy: 56, r: 6.6, fill: "none", stroke: GOLD, "stroke-width": 0.8 }));
  s.appendChild(svgText(47, 59.3, "+1", { "font-size": 9, "font-weight": 800, fill: PAPER }));
  const colour = KIND_COLORS[f.kind] || GOLD;
  s.appendChild(svg("rect", { x: 8, y: 65.5, width: 44, height: 10.5, rx: 3, fill: colour, stroke: INK, "stroke-width": 1 }));
  const text = DARK_TEXT_KINDS.has(f.kind) ? INK : PAPER;
  s.appendChild(svgText(30, 73.3, KIND_NAMES[f.kind] || f.kind, { "font-size": 7.4, "font-weight": 700, fill: text }));
  return s;
}

/** The back of a bonus card: dark green with a gold eight-pointed star (nothing to tell them apart). */
function cardBack(ctx, width = 48, label = "a bonus card, face down") {
  const { INK, cardShell, svgText } = ctx.art;
  const svg = ctx.svg;
  const s = cardShell(label, width);
  s.classList.add("bonus-back");
  s.appendChild(svg("rect", { x: 1.5, y: 1.5, width: 57, height: 81, rx: 6, fill: BACK, stroke: INK, "stroke-width": 2 }));
  s.appendChild(svg("rect", { x: 6, y: 6, width: 48, height: 72, rx: 4, fill: "none", stroke: GOLD, "stroke-width": 1.2 }));
  const star = { fill: GOLD, stroke: INK, "stroke-width": 1 };
  s.appendChild(svg("rect", { x: 19, y: 31, width: 22, height: 22, ...star }));
  s.appendChild(svg("rect", { x: 19, y: 31, width: 22, height: 22, transform: "rotate(45 30 42)", ...star }));
  s.appendChild(svg("circle", { cx: 30, cy: 42, r: 7.5, fill: BACK, stroke: INK, "stroke-width": 1 }));
  s.appendChild(svgText(30, 45.2, "+1", { "font-size": 8.5, "font-weight": 800, fill: GOLD }));
  return s;
}

/** A badge-sized card (no texts, unreadable that small): the gold frame and the tile's colour and
 * roof, or the back's star. */
function cardMini(ctx, tile, width = 13) {
  const { INK, KIND_COLORS, cardShell } = ctx.art;
  const svg = ctx.svg;
  const s = cardShell(tile ? `bonus card ${tileShort(ctx, tile)}` : "bonus cards, face down", width);
  s.classList.add(tile ? "bonus-card-mini" : "bonus-back-mini");
  s.appendChild(svg("rect", { x: 1.5, y: 1.5, width: 57, height: 81, rx: 6, fill: tile ? GOLD : BACK, stroke: INK, "stroke-width": 4 }));
  if (tile) {
    s.appendChild(svg("rect", { x: 9, y: 18, width: 42, height: 48, rx: 4, fill: KIND_COLORS[facts(ctx, tile).kind] || GOLD, stroke: INK, "stroke-width": 3 }));
  } else {
    s.appendChild(svg("rect", { x: 17, y: 29, width: 26, height: 26, transform: "rotate(45 30 42)", fill: GOLD, stroke: INK, "stroke-width": 3 }));
  }
  return s;
}

function cardArt(ctx, code, width = 48) {
  const tile = tileOfCard(ctx, code);
  return tile ? cardFront(ctx, tile, width) : null;
}

function cardName(ctx, code) {
  const tile = tileOfCard(ctx, code);
  return tile ? `bonus card ${tileShort(ctx, tile)}` : null;
}

// ------------------------------------------------------------------------------ state at a glance
/** Where the tile of one of my cards is: "city", "reserve" or null. */
function whereIsTile(ctx, seat, tile) {
  const s = ctx.view && ctx.view.seats ? ctx.view.seats[seat] : null;
  if (!s) return null;
  if ((s.alhambra || []).some((c) => c.tile === tile)) return "city";
  if ((s.reserve || []).includes(tile)) return "reserve";
  return null;
}

/** One card with a caption under it. */
function figure(ctx, art, caption, cls, tile = null) {
  const h = ctx.h;
  return h("figure", { class: `bc-card ${cls || ""}`, role: "listitem", dataset: { tile } }, art, caption ? h("figcaption", { text: caption }) : null);
}

function panel(ctx) {
  const st = ctx.state;
  if (!st || !Array.isArray(st.hand_counts)) return null;
  const h = ctx.h;
  const n = st.hand_counts.length;
  const me = ctx.me;
  const parts = [h("p", { class: "muted bc-help", text: "A card laid face up counts as one more building of its kind while its tile is in the Alhambra." })];
  const q = offer(ctx);
  if (q) {
    parts.push(h("p", { class: "bc-question", text: q.seat === me
      ? `Before scoring round ${q.round_no}: you are asked to play a bonus card or pass.`
      : `Before scoring round ${q.round_no}: ${ctx.seatName(q.seat)} may play a bonus card.` }));
  }
  const order = [...Array(n).keys()];
  if (me !== null && me !== undefined) order.sort((a, b) => (a === me ? -1 : b === me ? 1 : a - b));
  for (const seat of order) {
    const mine = seat === me && Array.isArray(st.hand);
    const played = (st.played && st.played[seat]) || [];
    const known = (st.known && st.known[seat]) || [];
    const count = st.hand_counts[seat] || 0;
    const cards = [];
    for (const tile of played) cards.push(figure(ctx, cardFront(ctx, tile, 44), whereIsTile(ctx, seat, tile) === "city" ? "counts" : "played", "played", tile));
    if (mine) {
      for (const tile of st.hand) {
        const where = whereIsTile(ctx, seat, tile);
        const caption = where === "city" ? "can be played" : where === "reserve" ? "tile in reserve" : "tile not built";
        cards.push(figure(ctx, cardFront(ctx, tile, 44), caption, `in-hand ${where === "city" ? "ready" : ""}`, tile));
      }
    } else {
      for (const tile of known) cards.push(figure(ctx, cardFront(ctx, tile, 44), "in hand, known", "in-hand known", tile));
      for (let i = known.length; i < count; i++) cards.push(figure(ctx, cardBack(ctx, 44, `a bonus card of ${ctx.seatName(seat)}, face down`), "secret", "in-hand secret"));
    }
    const what = [];
    what.push(`${count} in hand`);
    if (played.length) what.push(`${played.length} played`);
    parts.push(h("div", { class: `bc-seat ${mine ? "mine" : ""}`, dataset: { seat } },
      h("div", { class: "bc-seat-head" },
        h("span", { class: "swatch", style: `background:${ctx.seatColor(seat)}` }),
        h("strong", { text: mine ? "Your bonus cards" : ctx.seatName(seat) }),
        h("span", { class: "muted bc-count", text: what.join(", ") })),
      cards.length ? h("div", { class: "bc-cards", role: "list", "aria-label": mine ? "Your bonus cards" : `Bonus cards of ${ctx.seatName(seat)}` }, ...cards)
        : h("p", { class: "muted bc-none", text: "No bonus cards." })));
  }
  if (st.aside_count) {
    parts.push(h("div", { class: "bc-aside" }, cardMini(ctx, null, 16),
      h("span", { class: "muted", text: `${plural(st.aside_count, "card", "cards")} set aside face down (nobody knows them)` })));
  }
  return h("div", { class: "bc-panel" }, ...parts);
}

function seatBadges(ctx, seat) {
  const st = ctx.state;
  if (!st || !Array.isArray(st.hand_counts) || seat < 0 || seat >= st.hand_counts.length) return null;
  const count = st.hand_counts[seat] || 0;
  const known = (st.known && st.known[seat]) || [];
  const mine = seat === ctx.me && Array.isArray(st.hand);
  let title = mine ? `Your bonus cards: ${st.hand.map((t) => tileShort(ctx, t)).join(", ") || "none"}.`
    : "Bonus cards in hand, face down.";
  if (!mine && known.length) title += ` Known to all: ${known.map((t) => tileShort(ctx, t)).join(", ")}.`;
  const out = [{ text: plural(count, "bonus card", "bonus cards"), title, className: "bc-badge bc-hand", icon: cardMini(ctx, null, 11) }];
  for (const tile of (st.played && st.played[seat]) || []) {
    out.push({
      text: `+1 ${ctx.art.KIND_NAMES[facts(ctx, tile).kind]}`,
      title: `Bonus card ${tileShort(ctx, tile)} played: it counts as one more ${kindWord(ctx, tile)} while ${tileShort(ctx, tile)} is in the Alhambra.`,
      className: "bc-badge bc-played",
      icon: cardMini(ctx, tile, 13),
    });
  }
  return out;
}

// ------------------------------------------------------------------------------ controls
function playButton(ctx, notation, tile, question) {
  const h = ctx.h;
  const note = question
    ? "It is laid face up for everyone to see and cannot be taken back. You may then play another card or pass."
    : "It is laid face up for everyone to see and cannot be taken back. It is a free move: it uses no action and your turn goes on.";
  return h("button", {
    class: "secondary bc-play", dataset: { tile, action: notation },
    "aria-label": `Play your bonus card ${tileShort(ctx, tile)}: one more ${kindWord(ctx, tile)}${question ? "" : " (free move, your turn goes on)"}`,
    onclick: () => ctx.act(notation, describeAction(ctx, notation), { note, button: "Play the card" }),
  }, cardFront(ctx, tile, question ? 40 : 28), h("span", { class: "bc-play-text" },
    h("strong", { text: question ? `Play ${tileShort(ctx, tile)}` : `Play bonus card ${tileShort(ctx, tile)}` }),
    h("span", { class: "bc-sub", text: `+1 ${kindWord(ctx, tile)}` })));
}

function actionControls(ctx, actions) {
  const mine = actions.filter((a) => isMine(ctx, a));
  if (!mine.length) return null;
  const h = ctx.h;
  const plays = mine.map((a) => [a, parsePlay(ctx, a)]).filter(([, t]) => t !== null);
  const pass = mine.includes("bonus pass") ? "bonus pass" : null;
  const q = offer(ctx);
  const parts = [];
  if (q) {
    const again = ctx.events.some((e) => e.type === "BonusCardPlayed" && e.seat === ctx.me && e.round_no === q.round_no);
    parts.push(h("p", { class: "bc-offer" }, cardMini(ctx, null, 18), h("span", { text: plays.length
      ? ` Scoring round ${q.round_no} is about to be counted. Lay a bonus card face up now to count it as one more building, or pass.`
      : ` Scoring round ${q.round_no} is about to be counted. You cannot play a bonus card now (a card's tile must be in your Alhambra): pass. Everybody who might play one is asked, so passing gives nothing away.` })));
    if (plays.length) parts.push(h("div", { class: "bc-plays", role: "group", "aria-label": "Your bonus cards you can play" }, ...plays.map(([a, t]) => playButton(ctx, a, t, true))));
    if (pass) {
      parts.push(h("div", { class: "button-row" }, h("button", {
        id: "btn-bonus-pass", class: plays.length ? "secondary" : "primary",
        text: again ? "Pass: play no more bonus cards" : "Pass: play no bonus card",
        onclick: () => ctx.act(pass, describeAction(ctx, pass), { note: "This cannot be taken back.", button: "Pass" }),
      })));
    }
  } else if (plays.length) {
    parts.push(h("p", { class: "bc-free" }, h("strong", { text: "Bonus cards: " }),
      h("span", { text: "playing one is a free move — it uses no action and your turn goes on." })));
    parts.push(h("div", { class: "bc-plays", role: "group", "aria-label": "Bonus cards you can play" }, ...plays.map(([a, t]) => playButton(ctx, a, t, false))));
  }
  return { node: h("div", { class: "bc-controls" }, ...parts), handled: mine };
}

function describeAction(ctx, notation) {
  const tile = parsePlay(ctx, notation);
  if (tile) return `Play your bonus card ${tileShort(ctx, tile)}: one more ${kindWord(ctx, tile)}`;
  if (notation === "bonus pass") {
    const q = offer(ctx);
    return q ? `Play no (more) bonus card before scoring round ${q.round_no}` : "Play no (more) bonus card";
  }
  return null;
}

function describeEvent(ctx, e) {
  if (e.type === "BonusCardPlayed") {
    const when = e.round_no ? ` before scoring round ${e.round_no}` : "";
    return `${ctx.seatName(e.seat)} plays the bonus card ${tileShort(ctx, e.tile)}${when}: one more ${kindWord(ctx, e.tile)}`;
  }
  if (e.type === "BonusCardReturned") {
    return `${tileShort(ctx, e.tile)} left the Alhambra of ${ctx.seatName(e.seat)}: the bonus card ${tileShort(ctx, e.tile)} goes back to the hand (it no longer counts)`;
  }
  if (e.type === "BonusPassed") return `${ctx.seatName(e.seat)} plays no bonus card before scoring round ${e.round_no}`;
  return null;
}

// ------------------------------------------------------------------------------ scoring
/** The cards lying face up (and counting) when `roundEvent` was scored, per seat. */
function playedAt(ctx, roundEvent, players) {
  const events = ctx.events || [];
  let end = events.indexOf(roundEvent);
  if (end < 0) end = events.findIndex((e) => e.type === "RoundScored" && e.round === roundEvent.round);
  if (end < 0) end = events.length;
  const played = [...Array(players)].map(() => []);
  for (const e of events.slice(0, end)) {
    if (!played[e.seat]) continue;
    if (e.type === "BonusCardPlayed") played[e.seat].push(e.tile);
    else if (e.type === "BonusCardReturned") played[e.seat] = played[e.seat].filter((t) => t !== e.tile);
  }
  return played;
}

function scoring(ctx, roundEvent) {
  const n = Array.isArray(roundEvent.points) ? roundEvent.points.length : 0;
  if (!n) return null;
  const played = playedAt(ctx, roundEvent, n);
  const values = played.map((tiles) => (tiles.length ? tiles.map((t) => `+1 ${ctx.art.KIND_NAMES[facts(ctx, t).kind]}`).join(", ") : "—"));
  return [{
    label: "Bonus cards counted",
    title: "Played bonus cards: each counted as one more building of its kind; they are already included in the building counts to the left.",
    values,
  }];
}

/** The panel's one-line summary (the table shows it while the panel is folded). */
function summary(ctx) {
  const st = ctx.state;
  if (!st) return null;
  const seats = ctx.seatsLine;
  const n = ctx.count;
  return Array.isArray(st.hand_counts) ? seats((i) => `${st.hand_counts[i] || 0} in hand, ${((st.played || [])[i] || []).length} played`) : null;
}

window.Alhambra.registerModule(ID, { summary, panel, seatBadges, actionControls, describeAction, describeEvent, cardArt, cardName, scoring });
