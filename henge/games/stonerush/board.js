// Stonerush: the five druids race on the sarsen stones (1 to obs.track_end: 30, or 10-29 with the
// designer option track) or on the bluestones (1-19); the finish is ringed wherever it is.
"use strict";

(() => {
  function cardCount(n) {
    return `${n} card${n === 1 ? "" : "s"}`;
  }

  Henge.register("stonerush", {
    trackSpace(obs, n) {
      return obs.variant === "bluestones" ? `bluestone:${n}` : `sarsen:${n}`;
    },

    draw(board, obs, _ctx) {
      board.ring(this.trackSpace(obs, obs.track_end));
      const bySpace = {};
      for (const [colour, where] of Object.entries(obs.druids)) (bySpace[where] = bySpace[where] || []).push(colour);
      for (const [where, colours] of Object.entries(bySpace)) {
        const at = board.anchor(this.trackSpace(obs, where));
        if (!at) continue;
        colours.forEach((colour, k) => {
          const p = board.spread(at, k, colours.length, 26);
          const mine = obs.trilithon === colour;
          board.figure(colour, p.x, p.y, {
            name: `druid-${colour}`,
            mine,
            title: `the ${colour} druid on ${where}${mine ? " (your secret colour)" : ""}`,
          });
        });
      }
    },

    place(text, _obs) {
      const [verb, card] = text.split(" ");
      if ((verb === "play" || verb === "discard") && card) return { card };
      return null;
    },

    describe(obs, ctx) {
      if (!ctx.mine) return "";
      if (obs.phase === "discard") return "discard cards until you keep at most two, then done";
      if (obs.in_play.length) return "add a card of the same colour (or black), or done to move the druid";
      return "play a card: its colour's druid moves (day ahead, night back)";
    },

    seatNote(obs, seat) {
      const parts = [cardCount(obs.hand_sizes[seat])];
      if (obs.trilithons) parts.push(obs.trilithons[seat]);
      return parts.join(", ");
    },

    info(obs, ctx) {
      const { el, cards, chip } = Henge;
      const rows = [];
      const row = (name, ...v) => rows.push(el("tr", {}, el("th", {}, name), el("td", {}, ...v)));
      row("round", `${obs.round} (turn ${obs.turn + 1}, phase: ${obs.phase})`);
      if (obs.seat !== null) row("your colour", obs.trilithon ? [chip(obs.trilithon), obs.trilithon] : "not dealt yet");
      const druids = Object.entries(obs.druids).map(([c, n]) => el("div", {}, chip(c), `${c}: ${n}`));
      row(obs.variant === "bluestones" ? "druids (bluestones)" : "druids (track)", ...druids);
      row("finish", `space ${obs.track_end}`);
      row("on the table", cards(obs.in_play));
      row("draw pile", cardCount(obs.draw_pile));
      const top = obs.discard_pile.slice(-6);
      row("discard pile", el("div", {}, cardCount(obs.discard_pile.length), top.length ? ", the last:" : ""), top.length ? cards(top) : "");
      const plays = obs.last_plays.slice(-4).map((p) =>
        el(
          "div",
          { class: "play" },
          `${Henge.seatName(p.seat, ctx.seat)}:`,
          cards(p.cards),
          p.druid ? el("span", {}, chip(p.druid), `${p.from} → ${p.to}`) : "no druid moves",
        ),
      );
      row("last plays", ...(plays.length ? plays : ["none yet"]));
      return el("table", {}, rows);
    },

    result(obs, ctx) {
      const { el, chip } = Henge;
      const reveal = (obs.trilithons || []).map((colour, seat) =>
        el("li", {}, `${Henge.seatName(seat, ctx.seat)}: `, chip(colour), colour, (obs.winners || []).includes(seat) ? " — winner" : ""),
      );
      return el("div", {}, el("p", {}, obs.result), el("p", {}, "The trilithon cards:"), el("ul", { class: "reveal" }, reveal));
    },

    secrets(obs, _spectator) {
      const { el, chip } = Henge;
      return el("div", {}, "secret colour: ", obs.trilithon ? [chip(obs.trilithon), obs.trilithon] : "–");
    },
  });
})();
