// Druid Olympics: the runners race from the coloured ring over the sarsens, the inner stones and the
// bluestones to the altar; bars, disks and trilithons block the way.
"use strict";

(() => {
  const COLOURS = ["white", "blue", "green", "yellow", "red"];

  function plural(n, word) {
    return `${n} ${word}${n === 1 ? "" : "s"}`;
  }

  // The board space of a course place: "coloured 7", "numbered 13", "inner 4 night", "bluestone 5", "altar".
  function boardSpace(text) {
    if (!text) return null;
    if (text === "altar") return "altar";
    const [ring, n, phase] = text.split(" ");
    if (ring === "coloured") return `colour:${n}`;
    if (ring === "numbered") return `sarsen:${n}`;
    if (ring === "inner") return `inner:${2 * (+n - 1) + (phase === "day" ? 1 : 0)}`;
    if (ring === "bluestone") return `bluestone:${n}`;
    return null;
  }

  // The board spaces a placed trilithon covers: "numbered 13" (and coloured 13), "inner 4 night" and
  // the three stones after it, "bluestones 4-6".
  function trilithonSpaces(place) {
    const [ring, n, phase] = place.split(" ");
    if (ring === "numbered") return [`colour:${n}`, `sarsen:${n}`];
    if (ring === "inner") {
      const first = 2 * (+n - 1) + (phase === "day" ? 1 : 0);
      return [0, 1, 2, 3].map((k) => `inner:${first + k}`);
    }
    const [low, high] = n.split("-").map(Number);
    const spaces = [];
    for (let k = low; k <= high; k++) spaces.push(`bluestone:${k}`);
    return spaces;
  }

  function layer(board) {
    return board.root ? board.root.querySelector("#pieces") : null;
  }

  // A trilithon: a gray capstone laid across the spaces it covers, its colour's disk in the middle.
  function drawTrilithon(board, colour, place) {
    const points = trilithonSpaces(place)
      .map((s) => board.anchor(s))
      .filter(Boolean);
    const into = layer(board);
    if (!points.length || !into) return;
    const g = Henge.svg("g", { class: "piece trilithon", "data-piece": `trilithon-${colour}`, "data-colour": colour });
    g.append(Henge.svg("title", {}, `the ${colour} trilithon on ${place}`));
    const d = points.map((p, k) => `${k ? "L" : "M"}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" ");
    const single = points.length === 1;
    g.append(
      Henge.svg("path", {
        d: single ? `M${points[0].x - 14},${points[0].y} L${points[0].x + 14},${points[0].y}` : d,
        stroke: "#444",
        "stroke-width": 26,
        "stroke-linecap": "round",
        "stroke-linejoin": "round",
        fill: "none",
        opacity: 0.85,
      }),
      Henge.svg("path", {
        d: single ? `M${points[0].x - 14},${points[0].y} L${points[0].x + 14},${points[0].y}` : d,
        stroke: Henge.box.fill.gray || "#8d8d87",
        "stroke-width": 18,
        "stroke-linecap": "round",
        "stroke-linejoin": "round",
        fill: "none",
      }),
    );
    const mid = points.length % 2 ? points[(points.length - 1) / 2] : midpoint(points[points.length / 2 - 1], points[points.length / 2]);
    g.append(
      Henge.svg("circle", { cx: mid.x, cy: mid.y, r: 9, fill: Henge.box.fill[colour] || colour, stroke: "#222", "stroke-width": 1.5, class: "piece-body" }),
      board.colourMark(colour, mid.x, mid.y + 0.5, 10),
    );
    into.append(g);
  }

  function midpoint(a, b) {
    return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
  }

  // A trilithon still in the centre of the board: its colour's disk in the capstone of its space.
  function drawIdleTrilithon(board, colour) {
    const at = board.anchor(`trilithon:${COLOURS.indexOf(colour) + 1}`);
    if (!at) return;
    board.disk(colour, at.x, at.y - 12, { name: `trilithon-${colour}`, title: `the ${colour} trilithon, in the centre` });
  }

  Henge.register("druid_olympics", {
    boardSpace,

    draw(board, obs, ctx) {
      for (const [colour, place] of Object.entries(obs.trilithons || {})) {
        if (place) drawTrilithon(board, colour, place);
        else drawIdleTrilithon(board, colour);
      }
      for (const block of obs.blocks || []) {
        if (block.owner === null || block.owner === undefined) continue;
        const at = board.anchor(boardSpace(block.space));
        if (!at) continue;
        const colour = obs.runners[block.owner].colour;
        const mine = block.owner === ctx.seat;
        const opts = { name: `${block.piece}-${colour}`, mine, title: `${colour} ${block.piece} on ${block.space}` };
        if (block.piece === "bar") board.bar(colour, at.x, at.y, opts);
        else board.disk(colour, at.x, at.y, opts);
      }
      const bySpace = {};
      for (const runner of obs.runners || []) {
        const space = boardSpace(runner.at);
        if (space) (bySpace[space] = bySpace[space] || []).push(runner);
      }
      for (const [space, runners] of Object.entries(bySpace)) {
        const at = board.anchor(space);
        if (!at) continue;
        runners.forEach((runner, k) => {
          const p = board.spread(at, k, runners.length, 22);
          const mine = runner.seat === ctx.seat;
          const notes = [];
          if (runner.lost_turns) notes.push(`owes ${plural(runner.lost_turns, "turn")}`);
          if (runner.skipping) notes.push("loses this turn");
          board.figure(runner.colour, p.x, p.y - 6, {
            name: `runner-${runner.colour}`,
            mine,
            title: `seat ${runner.seat}, the ${runner.colour} runner on ${runner.at}${notes.length ? ` (${notes.join(", ")})` : ""}`,
          });
        });
      }
    },

    place(text, obs) {
      const words = text.split(" ");
      if (["move", "use", "pay"].includes(words[0]) && (obs.hand || []).includes(words[1])) return { card: words[1] };
      if (words[0] === "enter") return { space: `bluestone:${words[2]}` };
      if ((words[0] === "bar" || words[0] === "disk") && words[1] === "on") return { space: boardSpace(words.slice(2).join(" ")) };
      return null;
    },

    describe(obs, ctx) {
      if (!ctx.mine) return "";
      const me = obs.runners[obs.seat];
      switch (obs.phase) {
        case "block": {
          // Only the choices this seat has: a bar or disk it still holds, a trilithon whose card it holds.
          const legal = (ctx.view && ctx.view.legal ? ctx.view.legal : []).map((a) => a.text.split(" ")[0]);
          const ways = [];
          if (legal.includes("bar") || legal.includes("disk")) ways.push("click a space to lay your bar or disk there");
          if (legal.includes("trilithon")) ways.push("choose a trilithon below");
          return `blocking round: ${ways.length ? `${ways.join(", ")}, or pass` : "pass"}`;
        }
        case "block cards":
          return `pay for ${obs.target}: lay the cards (laid so far: ${obs.table.join(" ") || "none"})`;
        case "move":
          // obs.horseshoe_sum is there only where a designer changed D4's 10.
          if (me.progress >= 120) return `in the horseshoe: play cards (every full ${obs.horseshoe_sum ?? 10} is one stone; laid: ${obs.table.join(" ") || "none"}), then done`;
          if (me.progress < 29) return "moving round: play a card to run to the next coloured space of its colour, or pass";
          return "moving round: play a card to run exactly its number of spaces, or pass";
        case "pay":
          return `a block is in the way: pay ${obs.paying.need - obs.paying.paid} more ${obs.paying.colour} card(s) to pass it, or done`;
        case "enter":
          return "choose the end of the horseshoe to enter (click bluestone 1 or 19)";
        default:
          return "";
      }
    },

    seatNote(obs, seat) {
      const parts = [plural(obs.hand_sizes[seat], "card")];
      const runner = obs.runners[seat];
      if (runner) {
        parts.unshift(runner.colour);
        if (runner.lost_turns) parts.push(`owes ${plural(runner.lost_turns, "turn")}`);
        if (runner.skipping) parts.push("loses this turn");
      }
      return parts.join(", ");
    },

    info(obs, ctx) {
      const { el, cards, chip } = Henge;
      const rows = [];
      const row = (name, ...v) => rows.push(el("tr", {}, el("th", {}, name), el("td", {}, ...v)));
      const first = obs.first_player >= 0 ? Henge.seatName(obs.first_player, ctx.seat) : "not drawn yet";
      row("turn", `${obs.turn} of at most ${obs.round_cap} (phase: ${obs.phase}); first player: ${first}`);
      const runners = obs.runners.map((r) => {
        const extra = [];
        if (r.bar) extra.push(`bar on ${r.bar}`);
        if (r.disk) extra.push(`disk on ${r.disk}`);
        if (r.lost_turns) extra.push(`owes ${plural(r.lost_turns, "turn")}`);
        if (r.skipping) extra.push("loses this turn");
        if (r.drained) extra.push("drained");
        return el("div", {}, chip(r.colour), `${Henge.seatName(r.seat, ctx.seat)}: ${r.at} (${r.progress}/130)${extra.length ? "; " + extra.join(", ") : ""}`);
      });
      row("runners", ...runners);
      const placed = Object.entries(obs.trilithons).map(([c, place]) => el("div", {}, chip(c), `${c}: ${place || "in the centre"}`));
      row("trilithons", ...placed);
      if (obs.table.length) row("on the table", cards(obs.table));
      if (obs.target) row("paying for", obs.target);
      row("draw pile", plural(obs.draw_pile, "card"));
      const top = obs.discard_pile.slice(-6);
      row("discard pile", el("div", {}, plural(obs.discard_pile.length, "card"), top.length ? ", the last:" : ""), top.length ? cards(top) : "");
      row("last events", ...(obs.log.length ? obs.log.slice(-5).map((e) => el("div", {}, e)) : ["none yet"]));
      return el("table", {}, rows);
    },

    result(obs, ctx) {
      const { el } = Henge;
      const winners = (obs.winners || []).map((s) => Henge.seatName(s, ctx.seat)).join(" and ");
      return el("div", {}, el("p", {}, obs.result || ""), el("p", {}, winners ? `Grand champion: ${winners}.` : ""));
    },
  });
})();
