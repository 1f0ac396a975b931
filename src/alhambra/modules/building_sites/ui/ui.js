// Front-end plug-in of Building Sites (module building_sites).
// A site tile is drawn in the house style as a square tile: its front a construction site (sandy
// ground, a half-built brick wall, a wooden scaffold and a small crane), its back the colour and
// coin of its currency (a "?" where the viewer may not see it). On every Alhambra a building that
// carries a site shows the site: a sandy veil with a scaffold and a barrier over the building,
// and the site tile in the corner (front up; your own show their back, so you see the currency).
// The panel lists the stack, every player's sites (where they lie, what completing costs), the
// site tiles being chosen and the completed sites; the badges count each player's sites.
// Controls: set up a site on a market square (the table's payment picker: at least half the
// price), keep one of the two drawn site tiles (shown big, back up), complete a site (one button
// per way to pay, exact ones first). The log reads as sentences and never names a currency the
// viewer may not know. See docs/writing-a-module.md, "Front-end plug-in".

const ID = "building_sites";
const SAND = "#e6cf9f";
const SAND_DARK = "#b8955b";
const WOOD = "#8a5a2b";
const BRICK = "#c0673f";
const STEEL = "#d9a21c";

// ------------------------------------------------------------------ facts
const sites = (ctx) => (ctx.state && Array.isArray(ctx.state.sites) ? ctx.state.sites : []);
const completed = (ctx) => (ctx.state && Array.isArray(ctx.state.completed) ? ctx.state.completed : []);
const curName = (ctx, cur) => (cur ? ctx.art.CURRENCY_NAMES[cur] || cur : "a secret currency");
const letterCur = (ctx, letter) => ctx.art.CURRENCY_LETTER[letter] || null;
const cardsText = (ctx, cards) => cards.map(ctx.cardName).join(" + ");
/** The value of a payment: money cards by the catalogue, money held outside the hand (a coin, a
 * credit: a token) by the viewer's `money_sources`. */
function cardsValue(ctx, cards) {
  const seat = ctx.view && ctx.view.seats && ctx.me !== null ? ctx.view.seats[ctx.me] : null;
  const tokens = new Map(((seat && seat.money_sources) || []).map((m) => [m.token, m.value]));
  return cards.reduce((s, c) => {
    const f = ctx.catalogue && ctx.catalogue.cards ? ctx.catalogue.cards[c] : null;
    if (f && Number.isFinite(f.value)) return s + f.value;
    return s + (tokens.get(c) || 0);
  }, 0);
}
const half = (price) => Math.max(1, Math.floor(price / 2));
const tilePrice = (ctx, code) => {
  const t = ctx.catalogue && ctx.catalogue.tiles ? ctx.catalogue.tiles[code] : null;
  return t ? t.price : 0;
};

/** The site with item `item` (fin3) or number; null if none. */
function siteByItem(ctx, item) {
  return sites(ctx).find((s) => s.item === item) || null;
}

/** The site on tile `code`, in play or completed ({..., done}); null if none. */
function siteOnTile(ctx, code) {
  const s = sites(ctx).find((x) => x.tile === code);
  if (s) return { ...s, done: false };
  const c = completed(ctx).find((x) => x.tile === code);
  return c ? { ...c, done: true } : null;
}

const WHERE = { alhambra: "in the Alhambra", reserve: "on the reserve board", waiting: "waiting to be placed", neutral: "given to Dirk" };

/** The module's notations: `buy siteN CARDS`, `buy finN CARDS`, `site keep X`. */
function parse(ctx, notation) {
  const args = (kw) => (ctx.argsOf ? ctx.argsOf(notation, kw) : null);
  const buy = args("buy");
  const item = buy && typeof buy[0] === "string" ? /^(site)([1-4])$|^(fin\d+)$/.exec(buy[0]) : null;
  if (item && item[1]) return { type: "setup", square: Number(item[2]), cards: buy[1], action: notation };
  if (item && item[3]) return { type: "complete", item: item[3], cards: buy[1], action: notation };
  const keep = args("site keep");
  if (keep) return { type: "keep", currency: letterCur(ctx, keep[0]), action: notation };
  return null;
}

/** The open site choice of the viewer ({tile, site}); null otherwise. */
function myChoice(ctx) {
  const p = ctx.view ? ctx.view.pending : null;
  return p && p.type === "SiteChoice" && p.seat === ctx.me ? p : null;
}

// ------------------------------------------------------------------ art
/** The front of a site tile into `g` (100 x 100): a construction site. */
function drawFront(ctx, g) {
  const { INK, CREAM } = ctx.art;
  const svg = ctx.svg;
  g.appendChild(svg("rect", { x: 2, y: 2, width: 96, height: 96, rx: 6, fill: SAND, stroke: "#6b5235", "stroke-width": 1.5 }));
  g.appendChild(svg("rect", { x: 8, y: 8, width: 84, height: 84, rx: 4, fill: "none", stroke: "rgba(255,255,255,0.45)", "stroke-width": 1.5 }));
  for (const [x, y] of [[18, 84], [40, 88], [70, 86], [86, 80]]) g.appendChild(svg("circle", { cx: x, cy: y, r: 2.2, fill: SAND_DARK, opacity: 0.7 }));
  // a half-built wall: three courses of bricks, stepped
  const bricks = [[20, 70, 5], [26, 62, 4], [32, 54, 2]];
  for (const [x0, y, n] of bricks) {
    for (let i = 0; i < n; i++) g.appendChild(svg("rect", { x: x0 + i * 12, y, width: 11, height: 7, fill: BRICK, stroke: INK, "stroke-width": 1 }));
  }
  // the scaffold: two poles, two planks, a diagonal brace
  g.appendChild(svg("path", { d: "M24 78 V30 M76 78 V30", stroke: WOOD, "stroke-width": 4, "stroke-linecap": "round" }));
  g.appendChild(svg("path", { d: "M20 46 H80 M20 30 H80", stroke: WOOD, "stroke-width": 4.5, "stroke-linecap": "round" }));
  g.appendChild(svg("path", { d: "M26 46 L74 31", stroke: WOOD, "stroke-width": 2, opacity: 0.85 }));
  // a small crane over the site
  g.appendChild(svg("path", { d: "M62 30 V12 M46 14 H88 M62 12 L52 14 M62 12 L72 14", stroke: STEEL, "stroke-width": 3, "stroke-linecap": "round", fill: "none" }));
  g.appendChild(svg("path", { d: "M84 14 V24", stroke: INK, "stroke-width": 1.2 }));
  g.appendChild(svg("rect", { x: 80.5, y: 24, width: 7, height: 5, fill: CREAM, stroke: INK, "stroke-width": 1 }));
}

/** The back of a site tile into `g`: the currency's colour and coin with its name; a "?" when
 * the currency is not known to the viewer (`cur` null). */
function drawBack(ctx, g, cur) {
  const { INK, CREAM, CURRENCY_COLORS, coinGroup, svgText } = ctx.art;
  const svg = ctx.svg;
  const colour = cur ? CURRENCY_COLORS[cur] || "#777" : "#8c7a62";
  g.appendChild(svg("rect", { x: 2, y: 2, width: 96, height: 96, rx: 6, fill: colour, stroke: INK, "stroke-width": 2 }));
  g.appendChild(svg("rect", { x: 10, y: 10, width: 80, height: 80, rx: 5, fill: CREAM, stroke: INK, "stroke-width": 1.2 }));
  if (cur) {
    g.appendChild(coinGroup(50, 44, 22, colour));
    g.appendChild(svgText(50, 81, curName(ctx, cur), { "font-size": 14, "font-weight": 700 }));
  } else {
    g.appendChild(svg("circle", { cx: 50, cy: 50, r: 26, fill: "#d8cbb3", stroke: INK, "stroke-width": 1.5 }));
    g.appendChild(svgText(50, 62, "?", { "font-size": 34, "font-weight": 800 }));
  }
}

/** A site tile as a standalone picture: `side` "front" or "back" (then `cur`, null if secret). */
function siteTileSVG(ctx, side, cur, size, label) {
  const s = ctx.svg("svg", { viewBox: "0 0 100 100", width: size, height: size, role: "img", "aria-label": label, class: `site-tile site-${side}`, "data-currency": cur || "" });
  const g = ctx.svg("g", {});
  if (side === "front") drawFront(ctx, g);
  else drawBack(ctx, g, cur);
  s.appendChild(g);
  return s;
}

function siteLabel(ctx, side, cur) {
  if (side === "front") return "Building site tile (construction side)";
  return cur ? `Building site tile: ${curName(ctx, cur)} on its back` : "Building site tile, its back unknown to you";
}

/** The site drawn over the building of a cell (100 x 100): a sandy veil that leaves the price
 * readable, a barrier, scaffold poles, and the site tile in the corner (its back for its owner). */
function overlayGroup(ctx, site) {
  const { INK } = ctx.art;
  const svg = ctx.svg;
  const g = svg("g", { class: "site-overlay", "data-site": site.site });
  g.appendChild(svg("path", { d: "M30 4 H94 Q96 4 96 6 V94 Q96 96 94 96 H6 Q4 96 4 94 V30 Z", fill: SAND, opacity: 0.62 }));
  // barrier tape along the bottom
  g.appendChild(svg("rect", { x: 6, y: 78, width: 60, height: 8, fill: "#f7f1e3", stroke: INK, "stroke-width": 0.8 }));
  for (let x = 8; x < 64; x += 10) g.appendChild(svg("path", { d: `M${x} 86 L${x + 5} 78`, stroke: "#c4453a", "stroke-width": 3 }));
  // scaffold poles and a plank
  g.appendChild(svg("path", { d: "M12 92 V40 M60 92 V36", stroke: WOOD, "stroke-width": 3.2, "stroke-linecap": "round" }));
  g.appendChild(svg("path", { d: "M8 52 H66", stroke: WOOD, "stroke-width": 3.6, "stroke-linecap": "round" }));
  // the site tile in the corner
  const token = svg("g", { transform: "translate(66 66) scale(0.3)" });
  if (site.currency) drawBack(ctx, token, site.currency);
  else drawFront(ctx, token);
  g.appendChild(token);
  return g;
}

/** A small icon of a site (for badges and sentences). */
function siteIcon(ctx, size = 16) {
  return siteTileSVG(ctx, "front", null, size, "");
}

/** A building tile with its site drawn over it, `size` wide (for the panel and the controls). */
function tileWithSite(ctx, site, size) {
  const s = ctx.svg("svg", { viewBox: "0 0 100 100", width: size, height: size, role: "img", class: "site-on-tile", "aria-label": siteText(ctx, site) });
  const art = ctx.tileArt(site.tile, 100);
  if (art instanceof SVGSVGElement) {
    art.setAttribute("x", "0");
    art.setAttribute("y", "0");
    art.setAttribute("width", "100");
    art.setAttribute("height", "100");
    s.appendChild(art);
  }
  if (!site.done) s.appendChild(overlayGroup(ctx, site));
  return s;
}

/** "Building site on Garden 8 (complete for 8 florin)". */
function siteText(ctx, site) {
  const price = site.price || tilePrice(ctx, site.tile);
  if (site.done) return `${ctx.tileName(site.tile)}, completed (its site tile was ${curName(ctx, site.currency)})`;
  const cost = site.currency ? `${price} ${curName(ctx, site.currency)}` : `${price} in a currency you do not know`;
  return `Building site on ${ctx.tileName(site.tile)} (completing it costs ${cost})`;
}

// ------------------------------------------------------------------ the boards
function boardOverlay(ctx, seat) {
  const seatView = ctx.view && ctx.view.seats ? ctx.view.seats[seat] : null;
  if (!seatView) return null;
  const items = [];
  for (const site of sites(ctx)) {
    if (site.seat !== seat || site.where !== "alhambra") continue;
    const cell = seatView.alhambra.find((c) => c.tile === site.tile);
    if (!cell) continue;
    const whose = site.seat === ctx.me ? "Your building site" : `Building site of ${ctx.seatName(site.seat)}`;
    const cur = site.currency ? `: complete it for ${site.price} ${curName(ctx, site.currency)}` : "; its currency is secret";
    items.push({ x: cell.x, y: cell.y, node: overlayGroup(ctx, site), className: "site-mark", title: `${whose} on ${ctx.tileName(site.tile)}${cur}. Its walls count; the building counts only once completed.` });
  }
  return items;
}

// ------------------------------------------------------------------ the panel
function siteItem(ctx, site) {
  const h = ctx.h;
  const where = WHERE[site.where] || site.where;
  const price = site.price || tilePrice(ctx, site.tile);
  const back = !site.chosen ? "choosing its site tile…" : site.where === "neutral" ? "stays unfinished" : site.currency ? `complete for ${price} ${curName(ctx, site.currency)}${site.revealed ? " (revealed)" : ""}` : "currency secret";
  return h("li", { class: `site-item where-${site.where}`, dataset: { site: site.site, tile: site.tile, currency: site.currency || "" } },
    tileWithSite(ctx, site, 40),
    site.chosen ? siteTileSVG(ctx, "back", site.currency, 22, siteLabel(ctx, "back", site.currency)) : siteTileSVG(ctx, "front", null, 22, "site tile being chosen"),
    h("span", { class: "site-caption" }, h("strong", { text: ctx.tileName(site.tile) }), h("span", { class: "muted", text: ` · ${where} · ${back}` })));
}

function panel(ctx) {
  const st = ctx.state;
  if (!st || !Array.isArray(st.sites)) return null;
  const h = ctx.h;
  const n = ctx.view && Array.isArray(ctx.view.seats) ? ctx.view.seats.length : 0;
  const rows = [];
  rows.push(h("div", { class: "site-stack", title: "The site tiles lie construction side up; nobody knows the order of the stack." },
    siteTileSVG(ctx, "front", null, 30, `Stack of ${st.stack} building site tiles`),
    h("span", { text: `${st.stack} of ${st.site_tiles} site tiles in the stack` }),
    st.choosing !== null && st.choosing !== undefined
      ? h("span", { class: "site-choosing", role: "status", text: st.choosing === ctx.me ? " · you are choosing a site tile" : ` · ${ctx.seatName(st.choosing)} is choosing a site tile in secret` })
      : null));
  rows.push(h("ul", { class: "site-seats", "aria-label": "Building sites of the players" }, ...[...Array(n).keys()].map((seat) => {
    const mine = sites(ctx).filter((s) => s.seat === seat);
    return h("li", { class: `site-seat ${seat === ctx.me ? "me" : ""}`, dataset: { seat } },
      h("div", { class: "site-who" }, h("span", { class: "swatch", style: `background:${ctx.seatColor(seat)}` }),
        h("strong", { text: seat === ctx.me ? `${ctx.seatName(seat)} (you)` : ctx.seatName(seat) })),
      mine.length ? h("ul", { class: "site-list" }, ...mine.map((s) => siteItem(ctx, s))) : h("span", { class: "muted", text: "no building site" }));
  })));
  const done = completed(ctx);
  if (done.length) {
    rows.push(h("div", { class: "site-done", "aria-label": "Completed buildings (their site tiles left the game)" },
      h("span", { class: "site-label", text: "Completed" }),
      ...done.map((c) => h("span", { class: "site-done-item", dataset: { site: c.site }, title: `${ctx.seatName(c.seat)} completed ${ctx.tileName(c.tile)} (${curName(ctx, c.currency)})` },
        ctx.tileArt(c.tile, 26), siteTileSVG(ctx, "back", c.currency, 16, siteLabel(ctx, "back", c.currency))))));
  }
  return h("div", { class: "site-panel" },
    h("p", { class: "muted site-help", text: "Set up a site: pay at least half a market tile's price (never an exact payment). Its walls count, the building does not until you complete it by paying the full price in the currency on the back of its site tile. At the end, each unfinished site in an Alhambra costs its owner all money of that currency." }),
    ...rows);
}

function seatBadges(ctx, seat) {
  const mine = sites(ctx).filter((s) => s.seat === seat && s.where !== "neutral");
  if (!mine.length) return null;
  const built = mine.filter((s) => s.where === "alhambra").length;
  const list = mine.map((s) => `${ctx.tileName(s.tile)} (${WHERE[s.where] || s.where})`).join("; ");
  return {
    text: `${mine.length} site${mine.length === 1 ? "" : "s"}`,
    title: `${mine.length} unfinished building${mine.length === 1 ? "" : "s"} (${built} in the Alhambra): ${list}. They count for no majority until completed.`,
    className: "site-badge",
    icon: siteIcon(ctx, 16),
  };
}

// ------------------------------------------------------------------ controls
/** The set-ups the viewer may make now, by market square: {square, tile, currency, price, options}. */
function setups(ctx, actions) {
  const out = new Map();
  for (const a of actions) {
    const p = parse(ctx, a);
    if (!p || p.type !== "setup") continue;
    const sq = ctx.view.market[p.square - 1];
    if (!sq || !sq.tile) continue;
    if (!out.has(p.square)) out.set(p.square, { square: p.square, tile: sq.tile, currency: sq.currency, price: half(tilePrice(ctx, sq.tile)), options: [] });
    out.get(p.square).options.push({ cards: p.cards, action: a });
  }
  return out;
}

function isPayingFor(ctx, tile) {
  const p = ctx.payment;
  return Boolean(p && p.item && p.item.code === tile);
}

function startSetup(ctx, s) {
  if (isPayingFor(ctx, s.tile)) { ctx.select(null); return; }
  ctx.pay({
    item: s.tile,
    price: s.price,
    currency: s.currency,
    options: s.options,
    title: `Set up a building site on ${ctx.tileName(s.tile)}`,
    note: `Pay at least ${s.price} ${curName(ctx, s.currency)} (half of ${tilePrice(ctx, s.tile)}, rounded down). A site is never an exact payment: your actions end. You then draw 2 site tiles in secret and keep one.`,
    confirm: "Set up the site",
  });
}

/** The completions the viewer may pay now, by item: {site, options (sorted: exact first)}. */
function completions(ctx, actions) {
  const out = new Map();
  for (const a of actions) {
    const p = parse(ctx, a);
    if (!p || p.type !== "complete") continue;
    const site = siteByItem(ctx, p.item);
    if (!site) continue;
    if (!out.has(p.item)) out.set(p.item, { site, options: [] });
    out.get(p.item).options.push({ cards: p.cards, action: a, over: cardsValue(ctx, p.cards) - site.price });
  }
  for (const c of out.values()) c.options.sort((x, y) => x.over - y.over || x.cards.length - y.cards.length);
  return out;
}

function completeConfirm(over) {
  return over === 0
    ? { note: "It shows your site tile to everybody and cannot be taken back; you then act again.", button: "Complete the building" }
    : { note: "This ends your turn and shows your site tile to everybody — it cannot be taken back.", button: "Complete and end turn" };
}

function actionControls(ctx, actions) {
  const h = ctx.h;
  const parts = [];
  const handled = [];
  // the secret choice: keep one of the two drawn site tiles
  const keeps = actions.map((a) => parse(ctx, a)).filter((p) => p && p.type === "keep");
  if (keeps.length) {
    const choice = myChoice(ctx);
    const drawn = ctx.state && Array.isArray(ctx.state.drawn) ? ctx.state.drawn : keeps.map((k) => k.currency);
    const tile = choice ? choice.tile : null;
    const price = tile ? tilePrice(ctx, tile) : 0;
    parts.push(h("div", { class: "site-decision" },
      tile ? tileWithSite(ctx, { tile, site: choice.site, currency: null, price, done: false }, 64) : null,
      h("p", {}, h("strong", { text: `You drew ${drawn.length === 2 ? "two site tiles" : "a site tile"}: ${drawn.map((c) => curName(ctx, c)).join(" and ")}.` }),
        ` Keep one on ${tile ? ctx.tileName(tile) : "your new site"}; the other goes back into the stack. You complete the building later by paying its full price${price ? ` (${price})` : ""} in the currency you keep; an unfinished site in your Alhambra costs you all money of that currency at the end. Only you see it.`)));
    parts.push(h("div", { class: "button-row site-keeps", role: "group", "aria-label": "Site tile to keep" }, ...keeps.map((k) => {
      handled.push(k.action);
      return h("button", {
        class: "secondary site-keep", dataset: { currency: k.currency, action: k.action }, onclick: () => ctx.act(k.action, describeAction(ctx, k.action)),
      }, siteTileSVG(ctx, "back", k.currency, 56, siteLabel(ctx, "back", k.currency)), h("span", { text: `Keep the ${curName(ctx, k.currency)} site tile` }));
    })));
  }
  // set up a site on a market square (the table's payment picker)
  const ups = setups(ctx, actions);
  const squares = [];
  if (ups.size) {
    for (const a of actions) if (parse(ctx, a) && parse(ctx, a).type === "setup") handled.push(a);
    const paying = [...ups.values()].some((s) => isPayingFor(ctx, s.tile));
    parts.push(h("p", { class: "site-offer" }, siteIcon(ctx, 20), h("span", { text: paying
      ? " Pick the cards for the building site (at least half the price), then Set up the site."
      : " Or set up a building site: buy a market tile for at least half its price (no further action; complete it later)." })));
    parts.push(h("div", { class: "button-row site-setups", role: "group", "aria-label": "Building sites you can set up" }, ...[...ups.values()].map((s) => {
      const on = isPayingFor(ctx, s.tile);
      const label = `Building site on ${ctx.tileName(s.tile)}: at least ${s.price} ${curName(ctx, s.currency)}`;
      squares.push({ square: s.square, label: `set up a building site for at least ${s.price} ${curName(ctx, s.currency)}`, pick: () => startSetup(ctx, s) });
      return h("button", {
        class: `secondary small site-setup ${on ? "selected" : ""}`, dataset: { square: s.square, tile: s.tile }, "aria-pressed": on ? "true" : "false",
        onclick: () => startSetup(ctx, s),
      }, ctx.tileArt(s.tile, 26), h("span", { text: label }));
    })));
  }
  // complete a site: one button per way to pay
  const comps = completions(ctx, actions);
  for (const c of comps.values()) {
    const site = c.site;
    for (const o of c.options) handled.push(o.action);
    parts.push(h("div", { class: "site-complete-row", dataset: { site: site.site } },
      tileWithSite(ctx, { ...site, done: false }, 44),
      h("span", { class: "site-complete-text", text: `Complete ${ctx.tileName(site.tile)} (${WHERE[site.where] || site.where}): ${site.price} ${curName(ctx, site.currency)}` }),
      h("span", { class: "button-row site-pays" }, ...c.options.slice(0, 6).map((o) => {
        const how = o.over === 0 ? "exact: act again" : `overpay ${o.over}`;
        return h("button", {
          class: `secondary small site-complete ${o.over === 0 ? "exact" : "over"}`, dataset: { action: o.action, site: site.site },
          "aria-label": `Complete ${ctx.tileName(site.tile)} with ${cardsText(ctx, o.cards)} (${how})`,
          onclick: () => ctx.act(o.action, describeAction(ctx, o.action), completeConfirm(o.over)),
        }, h("span", { class: "site-pay-cards" }, ...o.cards.map((code) => ctx.cardArt(code, 18))), h("em", { text: how }));
      }))));
    if (c.options.length > 6) parts.push(h("p", { class: "muted", text: `${c.options.length - 6} more ways to pay with more cards are not shown.` }));
  }
  if (!parts.length) return null;
  return { node: h("div", { class: "site-controls" }, ...parts), handled, squares };
}

// ------------------------------------------------------------------ texts
function describeAction(ctx, notation) {
  const p = parse(ctx, notation);
  if (!p) return null;
  if (p.type === "keep") {
    const choice = ctx.view ? ctx.view.pending : null;
    const on = choice && choice.type === "SiteChoice" ? ` on ${ctx.tileName(choice.tile)}` : "";
    return `Keep the ${curName(ctx, p.currency)} site tile${on}; the other goes back into the stack`;
  }
  if (p.type === "setup") {
    const sq = ctx.view && ctx.view.market ? ctx.view.market[p.square - 1] : null;
    const tile = sq && sq.tile ? ctx.tileName(sq.tile) : `the tile on square ${p.square}`;
    return `Set up a building site on ${tile} for ${cardsText(ctx, p.cards)}`;
  }
  const site = siteByItem(ctx, p.item);
  return `Complete the building on ${site ? ctx.tileName(site.tile) : "your site"} for ${cardsText(ctx, p.cards)}`;
}

function describeEvent(ctx, e) {
  const who = (seat) => ctx.seatName(seat);
  switch (e.type) {
    case "ItemBought": {
      const m = /^(site|fin)(\d+)$/.exec(e.item || "");
      if (!m) return null;
      const t = / on ([A-Z][A-Za-z0-9]*)/.exec(e.label || "");
      const tile = t ? ctx.tileName(t[1]) : "a building";
      if (m[1] === "site") return `${who(e.seat)} sets up a building site on ${tile} for ${cardsText(ctx, e.payment)} (half price or more; no further action)`;
      return `${who(e.seat)} pays ${cardsText(ctx, e.payment)} to complete ${tile}${e.exact ? " (exactly: another action)" : ""}`;
    }
    case "SiteTilesDrawn":
      return e.currencies && e.currencies.length
        ? `You draw ${e.count} site tiles in secret for ${ctx.tileName(e.tile)}: ${e.currencies.map((c) => curName(ctx, c)).join(" and ")}`
        : `${who(e.seat)} draws ${e.count} site tiles in secret for ${ctx.tileName(e.tile)}`;
    case "SiteTileKept":
      if (e.kept) {
        const back = e.returned ? `; the ${curName(ctx, e.returned)} one goes back into the stack` : "";
        return e.forced ? `You take the last site tile (${curName(ctx, e.kept)}) for ${ctx.tileName(e.tile)}` : `You keep the ${curName(ctx, e.kept)} site tile for ${ctx.tileName(e.tile)}${back}`;
      }
      return e.forced ? `${who(e.seat)} takes the last site tile for ${ctx.tileName(e.tile)}` : `${who(e.seat)} keeps one of the two site tiles for ${ctx.tileName(e.tile)} and shuffles the other back`;
    case "SiteCompleted":
      return `${who(e.seat)} completes ${ctx.tileName(e.tile)}: it counts from now on; its ${curName(ctx, e.currency)} site tile leaves the game`;
    case "SiteRevealed":
      return `${who(e.seat)} reveals the ${curName(ctx, e.currency)} site tile on ${ctx.tileName(e.tile)} and ${e.payment && e.payment.length ? `discards ${cardsText(ctx, e.payment)}` : `holds no ${curName(ctx, e.currency)} money`}`;
    default:
      return null;
  }
}

/** The panel's one-line summary (the table shows it while the panel is folded). */
function summary(ctx) {
  const st = ctx.state;
  if (!st) return null;
  const seats = ctx.seatsLine;
  const n = ctx.count;
  const mine = (i) => (st.sites || []).filter((s) => s.seat === i && (s.where === "alhambra" || s.where === "reserve")).length;
  return `${st.stack} site tiles in the stack · ` + seats((i) => n(mine(i), "site", "sites"));
}

window.Alhambra.registerModule(ID, { summary, panel, seatBadges, boardOverlay, actionControls, describeAction, describeEvent });
