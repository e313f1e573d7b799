// The board drawn by the server (henge/server/board.py): find spaces, put pieces on them, mark legal ones.
"use strict";

const Board = (() => {
  const root = document.getElementById("board");
  const layer = root ? root.querySelector("#pieces") : null;
  const CX = 500;
  const CY = 500;

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

  // A figure (a druid): a head and a body, in a player colour or gray.
  function figure(colour, x, y, opts = {}) {
    const classes = ["piece", "figure", opts.mine ? "mine" : ""].join(" ");
    const g = Henge.svg("g", { class: classes, "data-piece": opts.name || `figure-${colour}` });
    g.append(
      Henge.svg("title", {}, opts.title || `${colour} figure`),
      Henge.svg("path", {
        d: `M${x - 11},${y + 15} L${x - 6},${y - 3} L${x + 6},${y - 3} L${x + 11},${y + 15} Z`,
        fill: fill(colour),
        class: "piece-body",
      }),
      Henge.svg("circle", { cx: x, cy: y - 10, r: 8, fill: fill(colour), class: "piece-head" }),
    );
    return add(g);
  }

  function disk(colour, x, y, opts = {}) {
    const g = Henge.svg("g", { class: `piece disk ${opts.mine ? "mine" : ""}`, "data-piece": opts.name || `disk-${colour}` });
    g.append(Henge.svg("title", {}, opts.title || `${colour} disk`), Henge.svg("circle", { cx: x, cy: y, r: 11, fill: fill(colour) }));
    return add(g);
  }

  function bar(colour, x, y, opts = {}) {
    const g = Henge.svg("g", { class: `piece bar ${opts.mine ? "mine" : ""}`, "data-piece": opts.name || `bar-${colour}` });
    g.append(
      Henge.svg("title", {}, opts.title || `${colour} bar`),
      Henge.svg("rect", { x: x - 14, y: y - 5, width: 28, height: 10, rx: 3, fill: fill(colour) }),
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

  // Removes every piece and every legal mark.
  function clear() {
    if (!layer) return;
    layer.replaceChildren();
    for (const node of root.querySelectorAll(".space.legal")) {
      node.classList.remove("legal");
      delete node.dataset.action;
      node.onclick = null;
    }
  }

  // Makes a space clickable for one legal action.
  function markLegal(name, text, onclick) {
    const node = space(name);
    if (!node) return false;
    node.classList.add("legal");
    node.dataset.action = text;
    node.onclick = onclick;
    return true;
  }

  return { root, anchor, spread, figure, disk, bar, label, ring, clear, markLegal, space };
})();
