// Original SVG artwork of the Alhambra table: building tiles with their roofs, walls, the
// fountain and money cards. Every function returns a fresh SVG element (no innerHTML).

const NS = "http://www.w3.org/2000/svg";

export const KIND_COLORS = {
  pavilion: "#3f86c6",
  seraglio: "#c4453a",
  arcades: "#c98a2b",
  chambers: "#e9dfc4",
  garden: "#4a9a45",
  tower: "#8757a8",
  fountain: "#e8d7a5",
  // Granada's nine kinds (the catalogue's `kinds`; names from its `kind_names`)
  arena: "#c8553d",
  bathhouse: "#4aa3c8",
  library: "#8c6a4f",
  hostel: "#d99a3a",
  hospital: "#e4dccb",
  market: "#cfae3a",
  park: "#4f9a4a",
  school: "#6b6fc4",
  residential: "#a0527a",
};

export const KIND_NAMES = {
  pavilion: "Pavilion", seraglio: "Seraglio", arcades: "Arcades",
  chambers: "Chambers", garden: "Garden", tower: "Tower", fountain: "Fountain",
  arena: "Arena", bathhouse: "Bath house", library: "Library", hostel: "Hostel", hospital: "Hospital",
  market: "Market", park: "Park", school: "School", residential: "Residential area",
};

/** Learn the kinds of the game a catalogue describes (ids and names, `kinds` / `kind_names`),
 * so labels name every kind of any game of the family. */
export function learnKinds(catalogue) {
  if (!catalogue || !Array.isArray(catalogue.kinds)) return;
  catalogue.kinds.forEach((k, i) => {
    const name = Array.isArray(catalogue.kind_names) ? catalogue.kind_names[i] : null;
    if (name) KIND_NAMES[k] = name;
    if (!KIND_COLORS[k]) KIND_COLORS[k] = "#b0a48a";
  });
}

export const CURRENCY_COLORS = { blue: "#2f6db3", green: "#2f8f46", orange: "#e0772a", yellow: "#d9b21c" };
export const CURRENCY_NAMES = { blue: "denar", green: "dirham", orange: "ducat", yellow: "florin" };
export const CURRENCY_LETTER = { b: "blue", g: "green", o: "orange", y: "yellow" };

export const INK = "#3a2614";
export const CREAM = "#fdf6e3";
export const PAPER = "#fffaf0";
const WALL = "#2a1a0c";

/** Create an SVG element with attributes. */
/** An HTML element: `attrs` are attributes, except `text` (its text), `class`, `on...` (listeners),
 * `dataset` and `style` (set through the CSSOM: the pages' Content-Security-Policy forbids inline
 * styles); `children` are nodes or strings (null, undefined and false are skipped). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") el.textContent = String(v);
    else if (k === "class") el.className = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "dataset") {
      for (const [dk, dv] of Object.entries(v)) if (dv !== undefined && dv !== null) el.dataset[dk] = String(dv);
    }
    else if (k === "style") {
      // CSSOM, not the style attribute: the page's Content-Security-Policy forbids inline styles
      for (const part of String(v).split(";")) {
        const i = part.indexOf(":");
        if (i > 0) el.style.setProperty(part.slice(0, i).trim(), part.slice(i + 1).trim());
      }
    }
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  }
  return el;
}

export function svgEl(tag, attrs = {}, children = []) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null) el.setAttribute(k, String(v));
  }
  for (const c of children) el.appendChild(c);
  return el;
}

function path(d, fill, extra = {}) {
  return svgEl("path", { d, fill, stroke: INK, "stroke-width": 2, "stroke-linejoin": "round", ...extra });
}

// The roofs: one recognisable silhouette per kind, drawn in a 100 x 100 tile.
const ROOFS = {
  pavilion(g) {
    g.appendChild(path("M28 78 V58 H72 V78 Z", CREAM));
    g.appendChild(path("M22 58 Q50 18 78 58 Z", CREAM));
    g.appendChild(path("M47 78 V66 Q50 61 53 66 V78 Z", INK));
    g.appendChild(svgEl("line", { x1: 50, y1: 30, x2: 50, y2: 18, stroke: INK, "stroke-width": 2.5 }));
    g.appendChild(svgEl("circle", { cx: 50, cy: 17, r: 3, fill: "#f2c94c", stroke: INK, "stroke-width": 1.5 }));
  },
  seraglio(g) {
    g.appendChild(path("M26 80 V56 H74 V80 Z", CREAM));
    g.appendChild(path("M30 56 C28 40 46 36 50 16 C54 36 72 40 70 56 Z", CREAM));
    for (const x of [34, 46, 58]) g.appendChild(path(`M${x} 80 V68 Q${x + 4} 62 ${x + 8} 68 V80 Z`, INK));
    g.appendChild(svgEl("circle", { cx: 50, cy: 14, r: 2.5, fill: "#f2c94c", stroke: INK, "stroke-width": 1.2 }));
  },
  arcades(g) {
    g.appendChild(path("M18 80 V40 H82 V80 Z", CREAM));
    g.appendChild(path("M16 40 H84 V33 H16 Z", CREAM));
    for (const x of [22, 42, 62]) g.appendChild(path(`M${x} 80 V56 Q${x + 8} 42 ${x + 16} 56 V80 Z`, INK));
  },
  chambers(g) {
    g.appendChild(path("M22 80 V36 H30 V30 H38 V36 H46 V30 H54 V36 H62 V30 H70 V36 H78 V80 Z", "#b98e5a"));
    for (const [x, y] of [[30, 46], [46, 46], [62, 46], [30, 62], [62, 62]]) {
      g.appendChild(svgEl("rect", { x, y, width: 8, height: 10, rx: 4, fill: INK }));
    }
    g.appendChild(path("M45 80 V64 H55 V80 Z", INK));
  },
  garden(g) {
    g.appendChild(path("M47 80 V52 H53 V80 Z", "#7a4b24"));
    g.appendChild(path("M50 22 C66 22 76 36 70 48 C76 58 62 64 50 58 C38 64 24 58 30 48 C24 36 34 22 50 22 Z", "#bfe3a1"));
    g.appendChild(path("M20 82 Q30 70 40 82 Q50 70 60 82 Q70 70 80 82 Z", "#bfe3a1"));
    g.appendChild(svgEl("circle", { cx: 42, cy: 40, r: 3, fill: "#e2574c", stroke: INK, "stroke-width": 1 }));
    g.appendChild(svgEl("circle", { cx: 58, cy: 46, r: 3, fill: "#e2574c", stroke: INK, "stroke-width": 1 }));
  },
  tower(g) {
    g.appendChild(path("M36 82 V34 H64 V82 Z", CREAM));
    g.appendChild(path("M32 34 V26 H38 V30 H44 V26 H50 V30 H56 V26 H62 V30 H68 V34 Z", CREAM));
    g.appendChild(path("M34 26 L50 8 L66 26 Z", "#e2574c"));
    g.appendChild(path("M46 50 Q50 42 54 50 V60 H46 Z", INK));
    g.appendChild(path("M45 82 V70 Q50 64 55 70 V82 Z", INK));
  },
  // Granada
  arena(g) {
    g.appendChild(svgEl("ellipse", { cx: 50, cy: 56, rx: 34, ry: 24, fill: CREAM, stroke: INK, "stroke-width": 2 }));
    g.appendChild(svgEl("ellipse", { cx: 50, cy: 58, rx: 24, ry: 15, fill: "#e9c98f", stroke: INK, "stroke-width": 1.5 }));
    for (const x of [22, 34, 46, 58, 70]) g.appendChild(path(`M${x} 42 V36 H${x + 8} V42`, "none", { "stroke-width": 1.6 }));
    g.appendChild(svgEl("ellipse", { cx: 50, cy: 60, rx: 11, ry: 6, fill: "#d9b070", stroke: INK, "stroke-width": 1.2 }));
  },
  bathhouse(g) {
    g.appendChild(path("M24 80 V54 H76 V80 Z", CREAM));
    g.appendChild(path("M28 54 Q50 18 72 54 Z", CREAM));
    g.appendChild(path("M45 80 V66 Q50 60 55 66 V80 Z", INK));
    for (const x of [40, 50, 60]) g.appendChild(path(`M${x} 30 q-4 -5 0 -10 q4 -5 0 -10`, "none", { stroke: "#ffffff", "stroke-width": 2.2, "stroke-linecap": "round" }));
  },
  library(g) {
    g.appendChild(path("M20 40 L50 20 L80 40 Z", CREAM));
    g.appendChild(path("M22 40 H78 V46 H22 Z", CREAM));
    for (const x of [26, 40, 54, 68]) g.appendChild(path(`M${x} 46 H${x + 6} V76 H${x} Z`, CREAM, { "stroke-width": 1.5 }));
    g.appendChild(path("M18 76 H82 V82 H18 Z", CREAM));
    g.appendChild(path("M44 34 H56 V38 H44 Z", INK, { "stroke-width": 1 }));
  },
  hostel(g) {
    g.appendChild(path("M24 82 V48 H76 V82 Z", CREAM));
    g.appendChild(path("M18 50 L50 24 L82 50 Z", "#a8432f"));
    for (const x of [30, 60]) g.appendChild(svgEl("rect", { x, y: 56, width: 10, height: 9, fill: "#f2c94c", stroke: INK, "stroke-width": 1.5 }));
    g.appendChild(path("M45 82 V66 H55 V82 Z", INK));
    g.appendChild(path("M62 30 V20 H70 V38", CREAM));
  },
  hospital(g) {
    g.appendChild(path("M20 82 V40 H80 V82 Z", "#fffaf0"));
    g.appendChild(path("M30 40 V30 H70 V40", "#fffaf0"));
    g.appendChild(path("M45 33 H55 V38 H60 V48 H55 V53 H45 V48 H40 V38 H45 Z", "#c0392b", { "stroke-width": 1.2 }));
    for (const x of [26, 66]) g.appendChild(svgEl("rect", { x, y: 58, width: 8, height: 10, rx: 2, fill: INK }));
    g.appendChild(path("M44 82 V64 H56 V82 Z", INK));
  },
  market(g) {
    g.appendChild(path("M24 82 V52 H76 V82 Z", CREAM));
    g.appendChild(path("M18 52 L26 34 H74 L82 52 Z", "#fffaf0"));
    for (const x of [26, 42, 58]) g.appendChild(path(`M${x} 34 H${x + 8} L${x + 10} 52 H${x - 2} Z`, "#c0392b", { "stroke-width": 1 }));
    g.appendChild(path("M30 66 H70 V72 H30 Z", "#7a4b24", { "stroke-width": 1.2 }));
    for (const [x, c] of [[36, "#e2574c"], [46, "#f2c94c"], [56, "#6fae4a"], [64, "#e0772a"]]) {
      g.appendChild(svgEl("circle", { cx: x, cy: 63, r: 3.5, fill: c, stroke: INK, "stroke-width": 1 }));
    }
  },
  park(g) {
    for (const [x, r] of [[34, 15], [64, 12]]) {
      g.appendChild(path(`M${x - 2} 80 V56 H${x + 2} V80 Z`, "#7a4b24", { "stroke-width": 1.4 }));
      g.appendChild(svgEl("circle", { cx: x, cy: 50 - r / 2, r, fill: "#bfe3a1", stroke: INK, "stroke-width": 2 }));
    }
    g.appendChild(path("M40 74 H60 V70 H40 Z", "#a26b3c", { "stroke-width": 1.3 }));
    g.appendChild(path("M42 74 V80 M58 74 V80", "none", { "stroke-width": 1.5 }));
  },
  school(g) {
    g.appendChild(path("M20 82 V50 H80 V82 Z", CREAM));
    g.appendChild(path("M40 50 V30 H60 V50", CREAM));
    g.appendChild(path("M36 30 L50 14 L64 30 Z", "#e2574c"));
    g.appendChild(path("M47 40 Q50 32 53 40 V46 H47 Z", "#f2c94c", { "stroke-width": 1.4 }));
    for (const x of [26, 64]) g.appendChild(svgEl("rect", { x, y: 58, width: 10, height: 10, fill: INK }));
    g.appendChild(path("M44 82 V64 H56 V82 Z", INK));
  },
  residential(g) {
    for (const [x, h] of [[16, 44], [40, 36], [64, 46]]) {
      g.appendChild(path(`M${x} 82 V${h + 12} H${x + 20} V82 Z`, CREAM, { "stroke-width": 1.8 }));
      g.appendChild(path(`M${x - 2} ${h + 12} L${x + 10} ${h} L${x + 22} ${h + 12} Z`, "#a8432f", { "stroke-width": 1.8 }));
      g.appendChild(svgEl("rect", { x: x + 7, y: h + 20, width: 6, height: 7, fill: "#f2c94c", stroke: INK, "stroke-width": 1 }));
    }
  },
};

/** The kind of each tile-code letter, learnt from a catalogue's tiles (every game names its
 * own kinds: Alhambra's G is a garden, Granada's P a park); Alhambra's letters without one. */
const DEFAULT_LETTERS = { P: "pavilion", S: "seraglio", A: "arcades", C: "chambers", G: "garden", T: "tower" };
const LETTERS = new WeakMap();

function letterKinds(catalogue) {
  if (!catalogue || !catalogue.tiles) return DEFAULT_LETTERS;
  let got = LETTERS.get(catalogue);
  if (!got) {
    got = {};
    for (const [code, t] of Object.entries(catalogue.tiles)) {
      const m = /^([A-Z])\d/.exec(code);
      if (m && !t.module && !got[m[1]]) got[m[1]] = t.kind;
    }
    LETTERS.set(catalogue, got);
  }
  return got;
}

/** Parse a tile code like G8sw into kind, price and wall letters (the catalogue's facts first;
 * else the letter is read with the kinds the catalogue's tiles show). */
export function tileFacts(code, catalogue) {
  const t = catalogue && catalogue.tiles ? catalogue.tiles[code] : null;
  // the walls a module changed in this game (the view's `walls`, kept by the page in `walls_now`)
  const now = catalogue && catalogue.walls_now ? catalogue.walls_now[code] : undefined;
  if (t) return { kind: t.kind, price: t.price, walls: now !== undefined ? now : t.walls || "" };
  if (code === "F") return { kind: "fountain", price: 0, walls: "" };
  const m = /^([A-Z])(\d+)([nesw]*)$/.exec(code || "");
  const kind = m ? letterKinds(catalogue)[m[1]] : null;
  return kind ? { kind, price: Number(m[2]), walls: m[3] } : { kind: "unknown", price: m ? Number(m[2]) : 0, walls: m ? m[3] : "" };
}

/** A readable name of a tile, e.g. "Garden 8 (walls south, west)"; walls by the game's name
 * for them (Granada: "School 2 (moats north, west)"). */
export function tileLabel(code, catalogue) {
  const f = tileFacts(code, catalogue);
  if (f.kind === "fountain") return "Fountain";
  const sides = { n: "north", e: "east", s: "south", w: "west" };
  const walls = [...f.walls].map((c) => sides[c]);
  const wall = (catalogue && catalogue.wall_name) || "wall";
  return `${KIND_NAMES[f.kind] || f.kind} ${f.price} (${walls.length ? `${wall}${walls.length > 1 ? "s" : ""} ${walls.join(", ")}` : `no ${wall}s`})`;
}

/** The other face of a two-sided tile (Granada), from the catalogue's `back`; null otherwise. */
export function backFacts(code, catalogue) {
  const t = catalogue && catalogue.tiles ? catalogue.tiles[code] : null;
  if (!t || !t.back) return null;
  return tileFacts(t.back, catalogue);
}

/** The band of a wall on the north side of a tile: 9 units deep, inside the tile's outline
 * (x and y from 2 to 98, corners rounded with radius 6). */
const WALL_BAND = "M2 11 V8 A6 6 0 0 1 8 2 H92 A6 6 0 0 1 98 8 V11 Z";

/** The walls of a tile with the wall letters `walls` ("nw"), in the tile's 100 x 100 units, as
 * a list of SVG elements to append after the tile's background and before its picture: a wall
 * (a moat in Granada) is a band along one side inside the tile's rounded outline, drawn for
 * the north side and turned for the others, never past the tile's edge. Module tiles with walls
 * use it to draw them exactly as the base tiles do. */
export function tileWalls(walls, catalogue) {
  const turn = { n: 0, e: 90, s: 180, w: 270 };
  const moat = catalogue && catalogue.wall_name === "moat";
  const out = [];
  for (const side of walls || "") {
    const at = { transform: `rotate(${turn[side]} 50 50)`, "data-side": side };
    if (moat) {
      // Granada's moats: water with a light ripple instead of a stone wall
      out.push(path(WALL_BAND, "#2f6db3", { ...at, stroke: "none", class: "wall moat" }));
      out.push(svgEl("line", { ...at, x1: 8, y1: 6.5, x2: 92, y2: 6.5, stroke: "#9cc9e8", "stroke-width": 2, "stroke-dasharray": "6 5", class: "moat-ripple" }));
    } else {
      out.push(path(WALL_BAND, WALL, { ...at, stroke: "none", class: "wall" }));
    }
  }
  return out;
}

/** The group of one tile, drawn at (x, y) with side `size` (in the parent's units). Options of
 * two-sided tiles (Granada): `backMark` draws the coloured mark of the other face's kind
 * (default: on the even fronts, as on the real tiles), `turned` a turn-over badge (a tile
 * built on the face it was turned to). */
export function tileGroup(code, catalogue, x = 0, y = 0, size = 100, opts = {}) {
  const f = tileFacts(code, catalogue);
  if (opts.walls !== undefined) f.walls = opts.walls; // walls a module changed (a fountain with city walls)
  const g = svgEl("g", { transform: `translate(${x} ${y}) scale(${size / 100})`, class: `tile kind-${f.kind}` });
  g.appendChild(svgEl("rect", { x: 2, y: 2, width: 96, height: 96, rx: 6, fill: KIND_COLORS[f.kind] || "#b0a48a", stroke: "#6b5235", "stroke-width": 1.5 }));
  g.appendChild(svgEl("rect", { x: 8, y: 8, width: 84, height: 84, rx: 4, fill: "none", stroke: "rgba(255,255,255,0.35)", "stroke-width": 1.5 }));
  // the walls, under the roof, the price and the marks
  for (const el of tileWalls(f.walls, catalogue)) g.appendChild(el);
  if (f.kind === "fountain") {
    g.appendChild(svgEl("circle", { cx: 50, cy: 54, r: 30, fill: "#9cc9e8", stroke: INK, "stroke-width": 2.5 }));
    g.appendChild(svgEl("circle", { cx: 50, cy: 54, r: 18, fill: "#5aa3d6", stroke: INK, "stroke-width": 1.5 }));
    g.appendChild(path("M50 54 V26 M50 30 Q40 22 34 34 M50 30 Q60 22 66 34", "none", { stroke: "#2f6db3", "stroke-width": 3, "stroke-linecap": "round" }));
    g.appendChild(svgEl("circle", { cx: 50, cy: 54, r: 5, fill: CREAM, stroke: INK, "stroke-width": 1.5 }));
  } else {
    (ROOFS[f.kind] || ROOFS.chambers)(g);
    g.appendChild(svgEl("circle", { cx: 17, cy: 17, r: 11, fill: CREAM, stroke: INK, "stroke-width": 1.8 }));
    const t = svgEl("text", { x: 17, y: 22, "text-anchor": "middle", "font-size": 15, "font-weight": 700, fill: INK, "font-family": "sans-serif" });
    t.textContent = String(f.price);
    g.appendChild(t);
  }
  const back = backFacts(code, catalogue);
  if (back && (opts.backMark ?? f.price % 2 === 0)) {
    // Granada: the coloured mark on the front shows the kind of the back
    const mark = svgEl("circle", { cx: 83, cy: 83, r: 9, fill: KIND_COLORS[back.kind] || "#999", stroke: INK, "stroke-width": 2, class: "back-mark", "data-back": back.kind });
    g.appendChild(mark);
    g.appendChild(svgEl("circle", { cx: 83, cy: 83, r: 3.5, fill: CREAM, stroke: "none", class: "back-mark-dot" }));
  }
  if (opts.turned) {
    // a tile built turned over: a curved arrow on a cream disc
    const badge = svgEl("g", { class: "turned-mark" });
    badge.appendChild(svgEl("circle", { cx: 17, cy: 83, r: 10, fill: CREAM, stroke: INK, "stroke-width": 1.8 }));
    badge.appendChild(path("M11 85 A6.5 6.5 0 1 1 17 89.5", "none", { "stroke-width": 2.2, "stroke-linecap": "round" }));
    badge.appendChild(path("M8 81 L11 86 L15.5 82.5", "none", { "stroke-width": 2.2, "stroke-linecap": "round" }));
    g.appendChild(badge);
  }
  return g;
}

/** A standalone SVG of one tile (for the market, reserve, waiting tiles). */
export function tileSVG(code, catalogue, size = 64, opts = {}) {
  const s = svgEl("svg", { viewBox: "0 0 100 100", width: size, height: size, role: "img", "aria-label": tileLabel(code, catalogue) });
  s.appendChild(tileGroup(code, catalogue, 0, 0, 100, opts));
  return s;
}

/** Card facts from a code like b7 (catalogue preferred). */
export function cardFacts(code, catalogue) {
  const c = catalogue && catalogue.cards ? catalogue.cards[code] : null;
  if (c) return { currency: c.currency, value: c.value, kind: c.kind };
  const m = /^([bgoy])(\d+)$/.exec(code || "");
  return m ? { currency: CURRENCY_LETTER[m[1]], value: Number(m[2]), kind: "money" } : { currency: null, value: 0, kind: "special" };
}

/** An empty card (60 x 84 units, drawn `width` wide) with an accessible label: the frame of
 * every card of the table, money or module cards alike. */
export function cardShell(label, width = 48) {
  return svgEl("svg", { viewBox: "0 0 60 84", width, height: Math.round((width * 84) / 60), role: "img", "aria-label": label });
}

/** SVG text in the house font. */
export function svgText(x, y, text, attrs = {}) {
  const t = svgEl("text", { x, y, "text-anchor": "middle", "font-family": "sans-serif", fill: INK, ...attrs });
  t.textContent = String(text);
  return t;
}

/** A coin of the money cards: a disc in `colour` with a dotted ring and an optional label. */
export function coinGroup(cx, cy, r, colour, label = "") {
  const g = svgEl("g", { class: "coin" });
  g.appendChild(svgEl("circle", { cx, cy, r, fill: colour, stroke: INK, "stroke-width": 1.5 }));
  g.appendChild(svgEl("circle", { cx, cy, r: r * 0.7, fill: "none", stroke: PAPER, "stroke-width": 1.2, "stroke-dasharray": "2 2" }));
  if (label !== "") g.appendChild(svgText(cx, cy + r * 0.43, label, { "font-size": r * 1.2, "font-weight": 800, fill: PAPER }));
  return g;
}

/** A money card: currency colour, value, currency name, a coin. */
export function cardSVG(code, catalogue, width = 48) {
  const f = cardFacts(code, catalogue);
  const colour = (f.currency && CURRENCY_COLORS[f.currency]) || "#777";
  const name = CURRENCY_NAMES[f.currency] || f.currency; // a module's currency (diamond) by its own name
  const label = f.currency ? `${f.value} ${name} (${f.currency})` : code;
  const s = cardShell(label, width);
  s.appendChild(svgEl("rect", { x: 1.5, y: 1.5, width: 57, height: 81, rx: 6, fill: colour, stroke: "#3a2614", "stroke-width": 2 }));
  s.appendChild(svgEl("rect", { x: 7, y: 7, width: 46, height: 70, rx: 4, fill: "#fffaf0", stroke: colour, "stroke-width": 1.5 }));
  if (f.currency) {
    s.appendChild(coinGroup(30, 35, 15, colour, f.value));
    for (const [x, y] of [[13, 18], [47, 66]]) {
      const corner = svgEl("text", { x, y, "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: colour, "font-family": "sans-serif" });
      corner.textContent = String(f.value);
      s.appendChild(corner);
    }
    const n = svgEl("text", { x: 30, y: 64, "text-anchor": "middle", "font-size": 8.5, fill: "#3a2614", "font-family": "sans-serif" });
    n.textContent = name;
    s.appendChild(n);
  } else {
    const n = svgEl("text", { x: 30, y: 46, "text-anchor": "middle", "font-size": 10, fill: "#3a2614", "font-family": "sans-serif" });
    n.textContent = code;
    s.appendChild(n);
  }
  return s;
}

/** Money held outside the hand (a coin, a credit...) when its module draws nothing of its own:
 * a coin of `currency` (a colour word; grey if unknown) showing `value`, drawn `width` wide. */
export function moneySourceSVG(label, currency, value, width = 40) {
  const s = svgEl("svg", { viewBox: "0 0 60 60", width, height: width, role: "img", "aria-label": label, class: "money-source-art" });
  const colour = CURRENCY_COLORS[currency] || "#777";
  s.appendChild(svgEl("circle", { cx: 30, cy: 30, r: 27, fill: CREAM, stroke: INK, "stroke-width": 2 }));
  s.appendChild(coinGroup(30, 30, 22, colour, value));
  return s;
}

/** Granada's black marker, showing which face refills the market: `face` "even" (the fronts,
 * prices 2-12) or "odd" (the backs, 3-13), drawn `size` wide. */
export function markerSVG(face, size = 34) {
  const odd = face === "odd";
  const label = `The black marker shows the ${face} side: the market is refilled with the ${odd ? "backs (odd prices)" : "fronts (even prices)"}`;
  const s = svgEl("svg", { viewBox: "0 0 60 60", width: size, height: size, role: "img", "aria-label": label, class: "marker-art" });
  s.appendChild(svgEl("circle", { cx: 30, cy: 32, r: 26, fill: "#6b5235", stroke: "none" }));
  s.appendChild(svgEl("circle", { cx: 30, cy: 29, r: 26, fill: "#111", stroke: INK, "stroke-width": 2 }));
  s.appendChild(svgEl("circle", { cx: 30, cy: 29, r: 20, fill: "none", stroke: "#eee", "stroke-width": 1.2, "stroke-dasharray": "3 3" }));
  s.appendChild(svgText(30, 37, odd ? "3" : "2", { "font-size": 22, "font-weight": 800, fill: "#fff" }));
  return s;
}

/** A small card back for the draw pile. */
export function cardBackSVG(width = 40) {
  const s = svgEl("svg", { viewBox: "0 0 60 84", width, height: Math.round((width * 84) / 60), "aria-hidden": "true" });
  s.appendChild(svgEl("rect", { x: 1.5, y: 1.5, width: 57, height: 81, rx: 6, fill: "#7b2d26", stroke: "#3a2614", "stroke-width": 2 }));
  s.appendChild(path("M30 14 L48 42 L30 70 L12 42 Z", "#e9c46a", { "stroke-width": 1.5 }));
  s.appendChild(svgEl("circle", { cx: 30, cy: 42, r: 7, fill: "#7b2d26", stroke: "#3a2614", "stroke-width": 1.5 }));
  return s;
}

/** A tile bag for the bag counter. */
export function bagSVG(width = 40) {
  const s = svgEl("svg", { viewBox: "0 0 60 70", width, height: Math.round((width * 70) / 60), "aria-hidden": "true" });
  s.appendChild(path("M18 20 Q10 60 20 66 H40 Q50 60 42 20 Z", "#a26b3c"));
  s.appendChild(path("M16 20 Q30 10 44 20 Q30 26 16 20 Z", "#c58b55"));
  s.appendChild(path("M24 14 L30 4 L36 14", "none", { "stroke-width": 2.5 }));
  return s;
}

/** The app icon (also the favicon). */
export function logoSVG(size = 36) {
  const s = svgEl("svg", { viewBox: "0 0 100 100", width: size, height: size, "aria-hidden": "true" });
  s.appendChild(tileGroup("T13e", null));
  return s;
}
