// Fightin' an' Drinkin' an' Stealin'!: the fighters at the trilithons (the monsters on the centre one),
// the drinkers by the altar stone (its blue awards on it), the thieves by the STONEHENGE label with
// their loot, the Big Lawyer on the outer ring, and each seat's awards and Wee Lawyers in its corner.
"use strict";

(() => {
  const COLOURS = ["white", "blue", "green", "yellow", "red"];
  const W = 30;
  const H = 44;
  const GAP = 6; // cards side by side stay 24 CSS pixels apart on a board drawn 700 pixels wide
  const INK = { white: "#333", yellow: "#3a2a00" };
  // Seat 0 sits behind space 23 (the left), seat 1 behind space 8 (the right).
  const SIDE = [-1, 1];

  function fill(colour) {
    return Henge.box.fill[colour] || colour;
  }

  function layer(board) {
    return board.root ? board.root.querySelector("#pieces") : null;
  }

  function add(board, node) {
    const at = layer(board);
    if (at) at.append(node);
    return node;
  }

  // A card on the board that a legal action names: its hit area presses that action's button
  // (made after the drawing).
  function clickable(board, node, text) {
    board.markPiece(node, text, () => {
      for (const button of document.querySelectorAll("#actions button")) {
        if (button.dataset.action === text) return button.click();
      }
      return null;
    });
  }

  // One card at (x, y) (its centre): face up, the viewer's own face-down card (dashed), or a back.
  function card(board, text, x, y, opts = {}) {
    const g = Henge.svg("g", { class: "fd-card", "data-piece": opts.name || `card-${text}` });
    const box = { x: x - W / 2, y: y - H / 2, width: W, height: H, rx: 4 };
    if (text === "hidden") {
      g.append(
        Henge.svg("title", {}, opts.title || "a face-down card"),
        Henge.svg("rect", { ...box, fill: "#5b3a29", stroke: "#111", "stroke-width": 1.5 }),
        Henge.svg("rect", { x: x - W / 2 + 4, y: y - H / 2 + 4, width: W - 8, height: H - 8, rx: 2, fill: "none", stroke: "#c9a66b", "stroke-width": 1.5 }),
        Henge.svg("text", { x, y: y + 5, class: "piece-label", fill: "#c9a66b", "text-anchor": "middle" }, "?"),
      );
      return add(board, g);
    }
    const info = Henge.cardInfo(text);
    const colour = info.trilithon ? "#d8d4c8" : fill(info.colour);
    const ink = info.trilithon ? "#333" : INK[info.colour] || "#fff";
    g.append(
      Henge.svg("title", {}, opts.title || text),
      Henge.svg("rect", {
        ...box,
        fill: colour,
        stroke: opts.legal ? "#ff9f1c" : "#111",
        "stroke-width": opts.legal ? 4 : 1.5,
        "stroke-dasharray": opts.down ? "4 3" : null,
        opacity: opts.down ? 0.8 : 1,
      }),
    );
    if (info.trilithon) {
      g.append(
        Henge.svg("text", { x, y: y - 2, "text-anchor": "middle", "font-size": 16, "font-weight": "bold", fill: ink }, "Π"),
        Henge.svg("circle", { cx: x, cy: y + 11, r: 6, fill: fill(info.colour), stroke: "#333" }),
      );
    } else {
      g.append(
        Henge.svg("text", { x, y: y + 1, "text-anchor": "middle", "font-size": 15, "font-weight": "bold", fill: ink }, info.number),
        Henge.svg("text", { x, y: y + 16, "text-anchor": "middle", "font-size": 11, fill: ink }, info.day ? "☀" : "☾"),
      );
    }
    if (opts.down) g.append(Henge.svg("text", { x, y: y - H / 2 + 9, "text-anchor": "middle", "font-size": 7, fill: ink }, "face down"));
    return add(board, g);
  }

  // An award: a disk of its colour, with the colour's letter.
  function disk(board, colour, x, y, r, title) {
    const g = Henge.svg("g", { class: "piece disk", "data-piece": `award-${colour}`, "data-colour": colour });
    g.append(
      Henge.svg("title", {}, title),
      Henge.svg("circle", { cx: x, cy: y, r, fill: fill(colour), "stroke-width": 1.5, class: "piece-body" }),
      board.colourMark(colour, x, y + 0.5, Math.round(r * 1.2)),
    );
    return add(board, g);
  }

  function text(board, words, x, y, opts = {}) {
    return add(
      board,
      Henge.svg(
        "text",
        {
          x,
          y,
          style: `text-anchor: ${opts.anchor || "middle"}`,
          "font-size": opts.size || 13,
          "font-weight": "bold",
          fill: opts.fill || "#222",
          class: "fd-text",
        },
        words,
      ),
    );
  }

  function legalTexts(ctx) {
    return ctx && ctx.view && Array.isArray(ctx.view.legal) ? ctx.view.legal.map((a) => a.text) : [];
  }

  function who(obs, seat) {
    return obs.seat === seat ? "you" : `seat ${seat}`;
  }

  // A row of cards for one seat: face-up cards, then the newcomer (face down) if any.
  function row(board, obs, ctx, event, seat, x, y, dir) {
    const legal = legalTexts(ctx);
    const ev = obs.events[event];
    const cards = [...ev.cards[seat]];
    const down = ev.face_down[seat];
    const all = down ? [...cards, down] : cards;
    all.forEach((t, k) => {
      const cx = x + dir * k * (W + GAP);
      const isDown = down && k === all.length - 1;
      const action = isDown ? null : legal.find((a) => a === `discard ${t}` || a === `scarper ${t}` || a === `steal from ${t}`);
      const title = isDown
        ? t === "hidden"
          ? `${who(obs, seat)}: a face-down ${event === "fightin" ? "fighter" : event === "drinkin" ? "drinker" : "thief"}`
          : `your face-down card ${t}`
        : `${who(obs, seat)}: ${t}`;
      const node = card(board, t, cx, y, { down: isDown && t !== "hidden", legal: !!action, title, name: `${event}-${seat}-${t}` });
      if (action) clickable(board, node, action);
      if (event === "stealin" && !isDown && obs.loot[t]) loot(board, obs.loot[t], cx, y + H / 2 + 9, t);
    });
  }

  function loot(board, counts, x, y, thief) {
    const disks = [];
    for (const c of COLOURS) for (let i = 0; i < (counts[c] || 0); i++) disks.push(c);
    disks.forEach((c, k) => {
      const col = k % 2;
      const line = Math.floor(k / 2);
      disk(board, c, x - 7.5 + col * 15, y + 2 + line * 15, 7, `${c} award riding on ${thief}`);
    });
  }

  function lawyerFigure(board, colour, x, y, title, name) {
    return board.figure(colour, x, y, { title, name });
  }

  Henge.register("fightin", {
    draw(board, obs, ctx) {
      if (!obs || !obs.events) return;
      const legal = legalTexts(ctx);

      // Fightin': the monsters on the centre trilithon, seat 0's fighters at trilithon 2, seat 1's at 4.
      const centre = board.anchor("trilithon:3");
      if (centre) {
        obs.monsters.forEach((m, k) => {
          const x = centre.x + (k - (obs.monsters.length - 1) / 2) * (W + GAP);
          const action = legal.find((a) => a === `kill ${m}` || a === `discard ${m}`);
          const node = card(board, m, x, centre.y - 4, { legal: !!action, title: `monster ${m}`, name: `monster-${m}` });
          if (action) clickable(board, node, action);
        });
        text(board, `monster deck: ${obs.monster_deck}`, centre.x, centre.y - 36, { size: 11 });
        text(board, "FIGHTIN'", centre.x, centre.y + 40, { size: 12, fill: "#7a1f16" });
      }
      for (const seat of [0, 1]) {
        const at = board.anchor(seat === 0 ? "trilithon:2" : "trilithon:4");
        if (at) row(board, obs, ctx, "fightin", seat, at.x - SIDE[seat] * 10, at.y, SIDE[seat]);
      }

      // Drinkin': the blue awards on the altar, the drinkers below it.
      const altar = board.anchor("altar");
      if (altar) {
        for (let k = 0; k < obs.altar; k++) {
          disk(board, "blue", altar.x + (k - (obs.altar - 1) / 2) * 16, altar.y - 20, 7, `blue award ${k + 1} of ${obs.altar} on the altar`);
        }
        text(board, "DRINKIN'", altar.x, altar.y + 34, { size: 12, fill: "#1d4f99" });
        for (const seat of [0, 1]) row(board, obs, ctx, "drinkin", seat, altar.x + SIDE[seat] * (W / 2 + 6), altar.y + 70, SIDE[seat]);
      }

      // Stealin': the thieves by the STONEHENGE label, loot under each.
      const label = board.anchor("label");
      if (label) {
        text(board, "STEALIN'", label.x, label.y - 86, { size: 12, fill: "#7a5b00" });
        for (const seat of [0, 1]) row(board, obs, ctx, "stealin", seat, label.x + SIDE[seat] * (W / 2 + 8), label.y - 58, SIDE[seat]);
      }

      // The Big Lawyer on its outer-ring space.
      const space = board.anchor(`outer:${obs.big_lawyer.space}`);
      if (space) lawyerFigure(board, "gray", space.x, space.y, `the Big Lawyer on ${obs.big_lawyer.space} (${obs.big_lawyer.colour})`, "big-lawyer");

      // Each seat's awards and Wee Lawyers in its corner; the Wee Lawyers nobody holds at the bottom left.
      for (const seat of [0, 1]) {
        const x0 = seat === 0 ? 16 : 850;
        const y0 = 24;
        text(board, seat === obs.seat ? `seat ${seat} (you)` : `seat ${seat}`, x0, y0, { anchor: "start", size: 15 });
        COLOURS.forEach((c, k) => {
          const n = obs.awards[seat][c];
          const y = y0 + 24 + k * 24;
          disk(board, c, x0 + 9, y, 9, `${who(obs, seat)}: ${n} ${c} award${n === 1 ? "" : "s"}`);
          text(board, `× ${n}`, x0 + 24, y, { anchor: "start", size: 15 });
          if (obs.wee_lawyers[c] === seat) lawyerFigure(board, c, x0 + 76, y + 2, `${who(obs, seat)} holds the ${c} Wee Lawyer`, `wee-${c}`);
        });
        if (obs.scores) text(board, `score ${obs.scores[seat]}`, x0, y0 + 150, { anchor: "start", size: 15 });
      }
      const free = COLOURS.filter((c) => obs.wee_lawyers[c] === null);
      if (free.length) {
        text(board, "Wee Lawyers", 16, 940, { anchor: "start", size: 12 });
        free.forEach((c, k) => lawyerFigure(board, c, 26 + k * 24, 968, `the ${c} Wee Lawyer (nobody holds it)`, `wee-${c}`));
      }
    },

    place(text, obs) {
      const [verb, card] = text.split(" ");
      if (["fighter", "drinker", "thief"].includes(verb) && obs && (obs.hand || []).includes(card)) return { card };
      return null;
    },

    describe(obs, ctx) {
      if (!ctx.mine) return "";
      const asks = {
        place: `place a ${{ fightin: "fighter", drinkin: "drinker", stealin: "thief" }[obs.event]} face down: click a card of your hand`,
        "discard highest": "discard your highest card at this event",
        "discard own": "discard one of your cards at this event (click it)",
        "discard other": "choose which of the opponent's cards is discarded (click it)",
        kill: "choose the monster to kill",
        "discard monster": "choose the monster to discard",
        steal: "steal: a thief's loot, an award from the opponent, or done",
        "take yellow": "take a yellow award from stock onto your second thief, or done",
        scarper: "choose the thief that scarpers off with its loot",
        "name colour": "name the colour of the Wee Lawyer your opponent must take",
        "drop colour": "drop one of your best colours",
      };
      return asks[obs.decision] || "your move";
    },

    seatNote(obs, seat) {
      if (!obs || !obs.hand_sizes) return "";
      return `${obs.hand_sizes[seat]} in hand, ${obs.deck_sizes[seat]} in deck`;
    },

    info(obs, ctx) {
      const { el, cards, chip } = Henge;
      const rows = [];
      const line = (name, ...v) => rows.push(el("tr", {}, el("th", {}, name), el("td", {}, ...v)));
      line("round", `${obs.round} of ${obs.round_cap}${obs.event ? ` — ${obs.event}` : ""}`);
      if (obs.decision) line("decision", `${Henge.seatName(obs.current_player, ctx.seat)}: ${obs.decision}`);
      line("Big Lawyer", chip(obs.big_lawyer.colour), `space ${obs.big_lawyer.space} (${obs.big_lawyer.colour})`);
      line("altar", `${obs.altar} blue`);
      line("monsters", cards(obs.monsters), ` ${obs.monster_deck} left in the deck`);
      if (obs.highest_thief || obs.second_thief) line("thieves", `highest ${obs.highest_thief || "–"}, second ${obs.second_thief || "–"}`);
      for (const seat of [0, 1]) {
        const awards = COLOURS.map((c) => el("span", {}, chip(c), `${obs.awards[seat][c]} `));
        line(`${Henge.seatName(seat, ctx.seat)}: awards`, ...awards);
        line(`${Henge.seatName(seat, ctx.seat)}: discards`, cards(obs.discards[seat]));
      }
      const stock = COLOURS.map((c) => el("span", {}, chip(c), `${obs.stock[c]} `));
      line("stock", ...stock);
      line("last events", el("div", { class: "fd-log" }, obs.log.slice(-6).map((l) => el("div", {}, l))));
      return el("table", {}, rows);
    },

    result(obs, ctx) {
      const { el } = Henge;
      if (!obs.scores) return el("div", {});
      const items = obs.scores.map((s, seat) =>
        el(
          "li",
          {},
          `${Henge.seatName(seat, ctx.seat)}: ${s} (dropped ${obs.dropped[seat] || "–"})`,
          obs.winners.includes(seat) ? " — winner" : "",
        ),
      );
      return el("div", {}, el("p", {}, "Scores, each seat's best colour dropped:"), el("ul", { class: "reveal" }, items));
    },

    secrets(obs, _spectator) {
      const { el } = Henge;
      const down = ["fightin", "drinkin", "stealin"]
        .map((e) => [e, obs.events[e].face_down[obs.seat]])
        .filter(([, c]) => c && c !== "hidden")
        .map(([e, c]) => `${e}: ${c}`);
      return el("div", {}, down.length ? `face down: ${down.join(", ")}` : "nothing face down");
    },
  });
})();
