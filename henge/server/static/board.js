// The board drawn by the server (henge/server/board.py): find spaces, put pieces on them, mark legal ones.
//
// Every piece of a player colour carries its colour's letter (W, B, G, Y, R; K for black), so no
// colour depends on telling hues apart. Every legal target gets a hit area of its own in the
// board's top layer (#targets): at least TARGET_PX CSS pixels across, focusable, a button for
// assistive technology, activated by a click, Enter or Space. Where targets stand too close for
// that at the board's size (a phone), the board is drawn larger and its frame scrolls.
"use strict";

const Board = (() => {
  const root = document.getElementById("board");
  const layer = root ? root.querySelector("#pieces") : null;
  const CX = 500;
  const CY = 500;
  const SIZE = 1000;
  const TARGET_PX = 24.2; // a hit area's least width in CSS pixels: 24, and a little for rounding
  const MAX_SCALE = 1.2; // CSS pixels per board unit: the largest the board is drawn to make room for targets
  const LETTERS = { white: "W", blue: "B", green: "G", yellow: "Y", red: "R", black: "K" };
  const DARK_INK = new Set(["white", "yellow", "gray"]); // fills on which the letter is dark

  let targets = []; // {node (the hit area), source (the space or piece), x, y, w, h, piece, bx, by}
  let fitting = false;
  let zoom = null; // the scale the board is drawn at while targets need it, else null
  let drawnScale = null; // CSS pixels per board unit when the hit areas were last sized
  let seenWidth = 0;

  function targetLayer() {
    if (!root) return null;
    let node = root.querySelector("#targets");
    if (!node) {
      node = Henge.svg("g", { id: "targets" });
      root.append(node);
    }
    return node;
  }

  function space(name) {
    return root ? root.querySelector(`.space[data-space="${name}"]`) : null;
  }

  // The centre and angle of a space ("sarsen:13", "inner:24", "bluestone:5", "trilithon:2", "altar", ...).
  function anchor(name) {
    const node = space(name);
    if (!node) return null;
    return { x: +node.dataset.x, y: +node.dataset.y, a: +node.dataset.a };
  }

  // Where the k-th of n pieces on one space stands: rows of up to three across the ring,
  // the rows stacked along the line to the centre (k = 0 is outermost, leftmost).
  function spread(at, k, n, size = 26) {
    if (n <= 1) return { x: at.x, y: at.y };
    const dx = at.x - CX;
    const dy = at.y - CY;
    const length = Math.hypot(dx, dy) || 1;
    const ux = dx / length;
    const uy = dy / length;
    const cols = Math.min(n, 3);
    const rows = Math.ceil(n / cols);
    const row = Math.floor(k / cols);
    const inRow = Math.min(cols, n - row * cols);
    const across = (k % cols - (inRow - 1) / 2) * size;
    const along = ((rows - 1) / 2 - row) * size * 1.35;
    return { x: at.x + ux * along - uy * across, y: at.y + uy * along + ux * across };
  }

  function fill(colour) {
    return Henge.box.fill[colour] || colour;
  }

  // The letter of a colour (W, B, G, Y, R, K), or "" for gray and anything else.
  function letter(colour) {
    return LETTERS[colour] || "";
  }

  // The colour's letter centred at (x, y), dark on light fills and light on dark ones; null for gray.
  function colourMark(colour, x, y, size = 12) {
    const text = letter(colour);
    if (!text) return null;
    const ink = DARK_INK.has(colour) ? "#161616" : "#ffffff";
    return Henge.svg("text", { x, y, class: "colour-mark", fill: ink, stroke: "none", "font-size": size }, text);
  }

  function pieceGroup(kind, colour, opts, fallback) {
    const classes = ["piece", kind, opts.mine ? "mine" : ""].join(" ").trim();
    return Henge.svg("g", { class: classes, "data-piece": opts.name || fallback, "data-colour": colour });
  }

  // A figure (a druid): a head and a body, in a player colour (its letter on the body) or gray.
  function figure(colour, x, y, opts = {}) {
    const g = pieceGroup("figure", colour, opts, `figure-${colour}`);
    g.append(
      Henge.svg("title", {}, opts.title || `${colour} figure`),
      Henge.svg("path", {
        d: `M${x - 12},${y + 16} L${x - 7},${y - 3} L${x + 7},${y - 3} L${x + 12},${y + 16} Z`,
        fill: fill(colour),
        class: "piece-body",
      }),
      Henge.svg("circle", { cx: x, cy: y - 10, r: 8, fill: fill(colour), class: "piece-head" }),
      colourMark(colour, x, y + 7.5, 12),
    );
    return add(g);
  }

  function disk(colour, x, y, opts = {}) {
    const r = opts.r || 11;
    const g = pieceGroup("disk", colour, opts, `disk-${colour}`);
    g.append(
      Henge.svg("title", {}, opts.title || `${colour} disk`),
      Henge.svg("circle", { cx: x, cy: y, r, fill: fill(colour), class: "piece-body" }),
      colourMark(colour, x, y + 0.5, Math.round(r * 1.15)),
    );
    return add(g);
  }

  function bar(colour, x, y, opts = {}) {
    const g = pieceGroup("bar", colour, opts, `bar-${colour}`);
    g.append(
      Henge.svg("title", {}, opts.title || `${colour} bar`),
      Henge.svg("rect", { x: x - 15, y: y - 7, width: 30, height: 14, rx: 3, fill: fill(colour), class: "piece-body" }),
      colourMark(colour, x, y + 0.5, 11),
    );
    return add(g);
  }

  function label(text, x, y, opts = {}) {
    return add(Henge.svg("text", { x, y, class: "piece-label", fill: opts.fill || "#fff" }, text));
  }

  function ring(name, opts = {}) {
    const at = anchor(name);
    if (!at) return null;
    return add(Henge.svg("circle", { cx: at.x, cy: at.y, r: opts.r || 26, class: opts.class || "finish-mark" }));
  }

  function add(node) {
    if (layer) layer.append(node);
    return node;
  }

  // Removes every piece, every legal mark and hit area, and every highlight.
  function clear() {
    if (!layer) return;
    layer.replaceChildren();
    targetLayer().replaceChildren();
    targets = [];
    for (const node of root.querySelectorAll(".space.legal")) {
      node.classList.remove("legal");
      delete node.dataset.legal;
    }
    for (const node of root.querySelectorAll(".last-move")) node.classList.remove("last-move");
    schedule();
  }

  // The text a screen reader says for a legal target: the action and, where the game gives one,
  // its preview.
  function spoken(text, preview) {
    if (preview === undefined && typeof Henge !== "undefined" && Henge.lastView && Henge.lastView.previews) {
      preview = Henge.lastView.previews[text];
    }
    return preview ? `${text} — ${preview}` : text;
  }

  // A hit area for one legal action over the board's pieces: a focusable button of its own.
  function target(source, text, onclick, opts) {
    const box = source.getBBox();
    const x = opts.x !== undefined ? opts.x : box.x + box.width / 2;
    const y = opts.y !== undefined ? opts.y : box.y + box.height / 2;
    const g = Henge.svg("g", {
      class: "board-target",
      tabindex: 0,
      role: "button",
      "aria-label": spoken(text, opts.preview),
      "data-action": text,
    });
    g.append(Henge.svg("title", {}, spoken(text, opts.preview)));
    g.addEventListener("click", (event) => {
      event.stopPropagation();
      onclick(event);
    });
    g.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " " || event.key === "Spacebar") {
        event.preventDefault();
        onclick(event);
      }
    });
    targetLayer().append(g);
    // A space's hit area keeps to its centre; a piece's covers its box (a card on the board).
    const t = { node: g, source, x, y, w: box.width, h: box.height, piece: !!opts.piece };
    t.bx = box.x + box.width / 2; // the middle of its own shapes (a space's anchor may lie off it)
    t.by = box.y + box.height / 2;
    targets.push(t);
    shape(t, drawnScale || scale());
    schedule();
    return g;
  }

  // Makes a space clickable for one legal action (opts.preview: its preview, else the view's).
  function markLegal(name, text, onclick, opts = {}) {
    const node = space(name);
    if (!node) return false;
    node.classList.add("legal");
    node.dataset.legal = text;
    target(node, text, onclick, { ...opts, x: +node.dataset.x, y: +node.dataset.y });
    return true;
  }

  // Makes a piece the game drew (a card on the board) clickable for one legal action.
  function markPiece(node, text, onclick, opts = {}) {
    if (!node || !node.isConnected) return null;
    node.classList.add("legal");
    return target(node, text, onclick, { ...opts, piece: true });
  }

  // Marks a space as part of the last turn another seat played.
  function highlight(name) {
    const node = space(name);
    if (!node) return false;
    node.classList.add("last-move");
    return true;
  }

  // CSS pixels per board unit, as drawn now.
  function scale() {
    if (!root) return 1;
    const width = root.getBoundingClientRect().width;
    return width > 0 ? width / SIZE : 1;
  }

  // The hit area of a target at scale s (board units): a circle TARGET_PX across round a space
  // smaller than that, the space's own shapes for a larger one, a piece's box grown to TARGET_PX.
  function hitArea(t, s) {
    const m = TARGET_PX / s;
    if (t.piece) return { kind: "rect", w: Math.max(t.w, m), h: Math.max(t.h, m) };
    if (Math.min(t.w, t.h) < m) return { kind: "circle", r: m / 2 };
    return { kind: "own", w: t.w, h: t.h };
  }

  function shape(t, s) {
    for (const old of t.node.querySelectorAll(".hit")) old.remove();
    const area = hitArea(t, s);
    let hits;
    if (area.kind === "circle") {
      hits = [Henge.svg("circle", { cx: t.x, cy: t.y, r: area.r })];
    } else if (area.kind === "rect") {
      hits = [Henge.svg("rect", { x: t.x - area.w / 2, y: t.y - area.h / 2, width: area.w, height: area.h, rx: 4 })];
    } else {
      // A copy of the space's shapes (its ring sector, its stone): exactly where the space is.
      hits = [...t.source.children].filter((c) => !["title", "text"].includes(c.tagName)).map((c) => c.cloneNode(true));
    }
    for (const hit of hits) {
      hit.setAttribute("class", "hit");
      hit.setAttribute("pointer-events", "all");
      for (const node of [hit, ...hit.querySelectorAll("*")]) {
        node.setAttribute("fill", "transparent");
        node.setAttribute("stroke", "none");
        node.removeAttribute("class");
      }
      hit.setAttribute("class", "hit");
      t.node.append(hit);
    }
  }

  // Whether two targets' hit areas at scale s overlap, or their middles stand closer than
  // TARGET_PX (two on one spot never part: not counted).
  function overlap(a, b, s) {
    if (Math.hypot(a.x - b.x, a.y - b.y) < 1) return false;
    const ha = hitArea(a, s);
    const hb = hitArea(b, s);
    const [ax, ay] = ha.kind === "own" ? [a.bx, a.by] : [a.x, a.y];
    const [bx, by] = hb.kind === "own" ? [b.bx, b.by] : [b.x, b.y];
    if (Math.hypot(ax - bx, ay - by) * s < TARGET_PX) return true;
    if (ha.kind === "own" && hb.kind === "own") return false; // the board's own spaces do not overlap
    if (ha.kind === "circle" && hb.kind === "circle") return Math.hypot(a.x - b.x, a.y - b.y) < ha.r + hb.r;
    if (ha.kind === "circle") return distanceToBox(a.x, a.y, b, hb) < ha.r;
    if (hb.kind === "circle") return distanceToBox(b.x, b.y, a, ha) < hb.r;
    return Math.abs(a.x - b.x) < (ha.w + hb.w) / 2 && Math.abs(a.y - b.y) < (ha.h + hb.h) / 2;
  }

  // How far a point is from a box of size area.w x area.h centred on a target.
  function distanceToBox(x, y, t, area) {
    const dx = Math.max(Math.abs(x - t.x) - area.w / 2, 0);
    const dy = Math.max(Math.abs(y - t.y) - area.h / 2, 0);
    return Math.hypot(dx, dy);
  }

  function crowded(s) {
    for (let i = 0; i < targets.length; i++) {
      for (let j = i + 1; j < targets.length; j++) if (overlap(targets[i], targets[j], s)) return true;
    }
    return false;
  }

  function schedule() {
    if (fitting || !root) return;
    fitting = true;
    queueMicrotask(fit);
  }

  // Sizes every hit area for the board as drawn, drawing the board larger (its frame scrolls)
  // where targets stand too close together for hit areas of TARGET_PX that leave each other be.
  function fit() {
    fitting = false;
    const wrap = root.parentElement;
    const width = frame(wrap);
    if (!wrap || width === 0) return;
    seenWidth = width;
    const base = width / SIZE;
    let want = null;
    if (targets.length > 1 && crowded(base)) {
      let s = base;
      while (s < MAX_SCALE && crowded(s)) s *= 1.02;
      want = Math.min(MAX_SCALE, s);
    }
    const before = zoom;
    zoom = want;
    if (want === null) {
      root.style.width = root.style.height = "";
      wrap.classList.remove("board-zoomed");
    } else {
      root.style.width = root.style.height = `${Math.ceil(SIZE * want)}px`;
      wrap.classList.add("board-zoomed");
    }
    const s = scale();
    drawnScale = s;
    for (const t of targets) shape(t, s);
    // The small hit areas over the large ones, so that a small target inside a large one stays reachable.
    if (targets.some((t) => hitArea(t, s).kind !== "circle")) {
      const focused = document.activeElement;
      for (const t of targets) if (hitArea(t, s).kind === "circle") t.node.parentNode.append(t.node);
      if (focused && focused !== document.activeElement && focused.isConnected) focused.focus();
    }
    if (want !== null && targets.length && (before === null || !anyInView(wrap, s))) centre(wrap, s);
  }

  // The size of the board's frame when the board is not enlarged: as wide as the page on a
  // phone; on a wide window, as tall as the window allows.
  function frame(wrap) {
    if (!wrap) return 0;
    if (zoom === null) return Math.min(wrap.clientWidth, wrap.clientHeight || wrap.clientWidth);
    return wrap.clientWidth;
  }

  function anyInView(wrap, s) {
    return targets.some(
      (t) =>
        t.x * s >= wrap.scrollLeft &&
        t.x * s <= wrap.scrollLeft + wrap.clientWidth &&
        (wrap.scrollHeight <= wrap.clientHeight || (t.y * s >= wrap.scrollTop && t.y * s <= wrap.scrollTop + wrap.clientHeight)),
    );
  }

  // Scrolls the enlarged board's frame to the middle of the legal targets.
  function centre(wrap, s) {
    const xs = targets.map((t) => t.x);
    const ys = targets.map((t) => t.y);
    wrap.scrollLeft = Math.max(0, ((Math.min(...xs) + Math.max(...xs)) / 2) * s - wrap.clientWidth / 2);
    if (wrap.scrollHeight > wrap.clientHeight) {
      wrap.scrollTop = Math.max(0, ((Math.min(...ys) + Math.max(...ys)) / 2) * s - wrap.clientHeight / 2);
    }
  }

  if (root && typeof ResizeObserver !== "undefined" && root.parentElement) {
    new ResizeObserver(() => {
      if (frame(root.parentElement) !== seenWidth) schedule();
    }).observe(root.parentElement);
  }

  return {
    root,
    anchor,
    spread,
    figure,
    disk,
    bar,
    label,
    ring,
    clear,
    markLegal,
    markPiece,
    highlight,
    space,
    letter,
    colourMark,
    fill,
  };
})();
