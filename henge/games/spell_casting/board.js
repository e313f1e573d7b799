// Spell Casting: spell components on the four rings, figures on the inner stones, three dividers,
// and in the middle three bars with an inside and an outside cup of energy disks each.
"use strict";

(() => {
  const RING_SPACE = { outer: "outer", coloured: "colour", middle: "sarsen" };
  const CUPS = ["in1", "in2", "in3", "out1", "out2", "out3"];
  const DIRECTIONS = { left: -1, right: 1 };
  const CX = 500;
  const CY = 500;
  let claimed = new Set();

  function stoneIndex(text) {
    const [n, side] = text.split(" ");
    return 2 * (+n - 1) + (side === "day" ? 1 : 0);
  }

  function wrap(n) {
    return ((n - 1 + 30) % 30) + 1;
  }

  function fill(colour) {
    return Henge.box.fill[colour] || colour;
  }

  function layer(board) {
    return board.root ? board.root.querySelector("#pieces") : null;
  }

  function add(board, node) {
    const into = layer(board);
    if (into) into.append(node);
    return node;
  }

  // The unit vector from the centre to the middle of section s (0..2) and the angle in degrees.
  function sectionDirection(board, s) {
    const a = board.anchor(`sarsen:${10 * s + 5}`);
    const b = board.anchor(`sarsen:${10 * s + 6}`);
    if (!a || !b) return null;
    const dx = (a.x + b.x) / 2 - CX;
    const dy = (a.y + b.y) / 2 - CY;
    const length = Math.hypot(dx, dy) || 1;
    return { ux: dx / length, uy: dy / length, deg: (Math.atan2(dy, dx) * 180) / Math.PI };
  }

  // A bar of the neutral colour laid at an angle, its colour's letter upright in the middle.
  function rotatedBar(board, x, y, deg, colour, name, title, long = 46) {
    const g = Henge.svg("g", { class: "piece bar", "data-piece": name, "data-colour": colour });
    g.append(
      Henge.svg("title", {}, title),
      Henge.svg("rect", {
        x: x - long / 2,
        y: y - 7,
        width: long,
        height: 14,
        rx: 3,
        fill: fill(colour),
        stroke: "#333",
        class: "piece-body",
        transform: `rotate(${deg} ${x} ${y})`,
      }),
      board.colourMark(colour, x, y + 0.5, 11),
    );
    return add(board, g);
  }

  // A disk in a cup (energy or a seat's private disk), with its colour's letter.
  function smallDisk(board, colour, x, y, name, title, mine) {
    const g = Henge.svg("g", { class: `piece disk ${mine ? "mine" : ""}`, "data-piece": name, "data-colour": colour });
    g.append(
      Henge.svg("title", {}, title),
      Henge.svg("circle", { cx: x, cy: y, r: 7, fill: fill(colour), stroke: mine ? "#000" : "#444", "stroke-width": mine ? 3 : 1, class: "piece-body" }),
      board.colourMark(colour, x, y + 0.5, 9),
    );
    return add(board, g);
  }

  // Disks around a cup's centre: a ring of places, the first in the middle.
  function cupSpot(x, y, k) {
    if (k === 0) return { x, y };
    const ring = k <= 6 ? 1 : 2;
    const first = ring === 1 ? 1 : 7;
    const count = ring === 1 ? 6 : 12;
    const angle = ((k - first) / count) * 2 * Math.PI;
    return { x: x + 15 * ring * Math.cos(angle), y: y + 15 * ring * Math.sin(angle) };
  }

  function drawCups(board, obs) {
    for (let s = 0; s < 3; s++) {
      const dir = sectionDirection(board, s);
      if (!dir) continue;
      const bx = CX + dir.ux * 72;
      const by = CY + dir.uy * 72;
      rotatedBar(board, bx, by, dir.deg + 90, obs.neutral_colour, `bar-centre-${s + 1}`, `the neutral bar of section ${s + 1}`);
      for (const [name, radius] of [[`in${s + 1}`, 38], [`out${s + 1}`, 108]]) {
        const x = CX + dir.ux * radius;
        const y = CY + dir.uy * radius;
        add(board, Henge.svg("circle", { cx: x, cy: y, r: 27, class: "cup", fill: "rgba(255,255,255,0.25)", stroke: "#333", "stroke-dasharray": "4 3" }));
        add(board, Henge.svg("text", { x, y: y + 40, class: "piece-label", fill: "#222", "text-anchor": "middle", "font-size": 13 }, name));
        const cup = obs.cups[name];
        let k = 0;
        for (let i = 0; i < cup.energy; i++, k++) {
          const p = cupSpot(x, y, k);
          smallDisk(board, obs.neutral_colour, p.x, p.y, `energy-${name}-${i}`, `an energy disk in ${name}`, false);
        }
        cup.private.forEach((count, seat) => {
          for (let i = 0; i < count; i++, k++) {
            const p = cupSpot(x, y, k);
            const colour = obs.colours[seat];
            smallDisk(board, colour, p.x, p.y, `private-${name}-${seat}-${i}`, `a private disk of seat ${seat} (${colour}) in ${name}`, true);
          }
        });
      }
    }
  }

  function drawDividers(board, obs) {
    for (const [a, b] of [[30, 1], [10, 11], [20, 21]]) {
      const p = board.anchor(`sarsen:${a}`);
      const q = board.anchor(`sarsen:${b}`);
      if (!p || !q) continue;
      const x = (p.x + q.x) / 2;
      const y = (p.y + q.y) / 2;
      const deg = (Math.atan2(y - CY, x - CX) * 180) / Math.PI;
      rotatedBar(board, x, y, deg, obs.neutral_colour, `divider-${a}-${b}`, `divider between ${a} and ${b}`, 40);
    }
  }

  Henge.register("spell_casting", {
    draw(board, obs, _ctx) {
      claimed = new Set();
      drawDividers(board, obs);
      drawCups(board, obs);
      for (const [ring, space] of Object.entries(RING_SPACE)) {
        obs.rings[ring].forEach((seat, i) => {
          if (seat === null) return;
          const at = board.anchor(`${space}:${i + 1}`);
          if (!at) return;
          const colour = obs.colours[seat];
          board.disk(colour, at.x, at.y, {
            name: `component-${ring}-${i + 1}`,
            mine: seat === obs.seat,
            title: `a spell component of seat ${seat} (${colour}) on ${ring} ${i + 1}`,
          });
        });
      }
      const onStone = {};
      obs.rings.inner.forEach((seat, i) => {
        if (seat !== null) (onStone[i] = onStone[i] || []).push({ kind: "component", seat });
      });
      for (const [colour, stone] of Object.entries(obs.figures)) {
        if (stone === null) continue;
        const i = stoneIndex(stone);
        (onStone[i] = onStone[i] || []).push({ kind: "figure", colour, stone });
      }
      for (const [i, pieces] of Object.entries(onStone)) {
        const at = board.anchor(`inner:${i}`);
        if (!at) continue;
        pieces.forEach((piece, k) => {
          const p = board.spread(at, k, pieces.length, 22);
          if (piece.kind === "component") {
            const colour = obs.colours[piece.seat];
            board.disk(colour, p.x, p.y, {
              name: `component-inner-${i}`,
              mine: piece.seat === obs.seat,
              title: `a spell component of seat ${piece.seat} (${colour}) on the inner ring`,
            });
          } else {
            const whose = piece.colour === "gray" ? "the gray figure" : piece.colour === obs.neutral_colour ? "the neutral figure" : `the ${piece.colour} figure`;
            board.figure(piece.colour, p.x, p.y, {
              name: `figure-${piece.colour}`,
              mine: obs.seat !== null && obs.colours[obs.seat] === piece.colour,
              title: `${whose} on ${piece.stone}`,
            });
          }
        });
      }
    },

    hand(_obs) {
      return null;
    },

    // Where an action happens: the space a component, a figure or a pushed component goes to.
    place(text, obs) {
      const space = this.target(text, obs);
      if (!space || claimed.has(space)) return null;
      claimed.add(space);
      return { space };
    },

    target(text, obs) {
      const w = text.split(" ");
      if (w[0] === "move") return `${RING_SPACE[w[1]]}:${wrap(+w[2] + DIRECTIONS[w[3]])}`;
      if (w[0] === "figure") {
        const stone = obs.figures[w[1]];
        if (!stone) return null;
        const step = +w[2] * DIRECTIONS[w[3]];
        return `inner:${(((stoneIndex(stone) + step) % 60) + 60) % 60}`;
      }
      if (w[0] === "pull" && w[1] === "middle") return `inner:${stoneIndex(`${w[2]} ${w[3]}`)}`;
      if (w[0] === "pull") return `${w[1] === "outer" ? "colour" : "sarsen"}:${w[2]}`;
      if (w[0] === "push") return `${w[1] === "coloured" ? "outer" : "colour"}:${w[2]}`;
      if (w[0] === "displace" && obs.chain) {
        const [ring, n] = obs.chain.from.split(" ");
        const order = ["outer", "coloured", "middle"];
        const r = order.indexOf(ring);
        const dir = w.slice(1).join(" ");
        if (dir === "left" || dir === "right") return `${RING_SPACE[ring]}:${wrap(+n + DIRECTIONS[dir])}`;
        if (dir === "out" && r > 0) return `${RING_SPACE[order[r - 1]]}:${n}`;
        if (dir === "in" && r < 2) return `${RING_SPACE[order[r + 1]]}:${n}`;
        if (dir === "in night" || dir === "in day") return `inner:${stoneIndex(`${n} ${dir.split(" ")[1]}`)}`;
      }
      return null;
    },

    describe(obs, ctx) {
      if (!ctx.mine) return "";
      const phase = obs.phase;
      if (phase === "return held disks") return "put the disks you held back into cups (any cup)";
      if (phase === "place private disk") return "a component of yours reached the inner ring: put one of your private disks into a cup";
      if (phase === "replace disks") return `put the disk from ${obs.hand[0]} into a cup, not ${(obs.action_sources || []).join(" or ")}`;
      if (phase === "displace") return `a component of seat ${obs.chain.component} is pushed off ${obs.chain.from}: click where it goes`;
      if (phase === "use") return "use a disk: click where a component or figure goes (the rest are buttons), or done";
      if (obs.action === "a") return `take more disks from ${obs.action_cup}, or done`;
      if (obs.action === "b") return "take more disks from outside cups, or done";
      if (obs.action === "c") return "hold one more disk";
      return "take disks from one inside cup (move components), from outside cups (figures: move, pull, push), or hold two";
    },

    seatNote(obs, seat) {
      const parts = [`${obs.colours[seat]}`, `${obs.inner_counts[seat]}/${obs.target} inside`];
      if (obs.held[seat]) parts.push(`holds ${obs.held[seat]}`);
      return parts.join(", ");
    },

    info(obs, ctx) {
      const { el, chip } = Henge;
      const rows = [];
      const row = (name, ...v) => rows.push(el("tr", {}, el("th", {}, name), el("td", {}, ...v)));
      row("round", `${obs.round} (turn ${obs.turn + 1}, phase: ${obs.phase})`);
      if (obs.seat !== null) row("your colour", chip(obs.colours[obs.seat]), obs.colours[obs.seat]);
      row("neutral colour", chip(obs.neutral_colour), `${obs.neutral_colour} (energy disks, dividers, figure); gray figure too`);
      row(
        "inner ring",
        ...obs.colours.map((c, s) => el("div", {}, chip(c), `${Henge.seatName(s, ctx.seat)}: ${obs.inner_counts[s]} of ${obs.target}`)),
      );
      row(
        "cups",
        ...CUPS.map((name) => {
          const cup = obs.cups[name];
          const own = cup.private.map((n, s) => (n ? ` + ${n} of ${obs.colours[s]}` : "")).join("");
          return el("div", {}, `${name}: ${cup.energy} energy${own}`);
        }),
      );
      row("held (action c)", ...obs.colours.map((c, s) => el("div", {}, chip(c), `${obs.held[s]}`)));
      row("private disks left", obs.private_left.join(" / "));
      if (obs.action) row("this turn", `action ${obs.action}${obs.action_cup ? ` (${obs.action_cup})` : ""}; in hand: ${obs.hand.join(", ") || "none"}`);
      if (obs.chain) row("being pushed", `seat ${obs.chain.component}'s component off ${obs.chain.from}`);
      const recent = obs.recent.slice(-6).map((r) => el("div", {}, `${Henge.seatName(r.seat, ctx.seat)}: ${r.action}`));
      row("recent", ...(recent.length ? recent : ["none yet"]));
      return el("table", {}, rows);
    },

    result(obs, ctx) {
      const { el } = Henge;
      const counts = obs.colours.map((c, s) => el("li", {}, `${Henge.seatName(s, ctx.seat)} (${c}): ${obs.inner_counts[s]} inside`));
      return el("div", {}, el("p", {}, obs.result || ""), el("ul", {}, counts));
    },

    secrets(_obs, _spectator) {
      return Henge.el("div", {}, "nothing is hidden in this game");
    },
  });
})();
