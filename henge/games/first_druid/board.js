// First Druid: the neutral figure walks the inner stones, each druid its numbered ring,
// clans (disks) fill the bluestones, spirits (bars) the outer ring, trilithons are built
// section by section and claimed with a disk, and bars dress the altar.
"use strict";

(() => {
  const s = (n) => (n === 1 ? "" : "s");

  function colourOf(obs, seat) {
    return obs.colours[seat];
  }

  function who(seat, ctx) {
    return Henge.seatName(seat, ctx.seat);
  }

  // The space a turn action happens on, if it has one.
  function actionSpace(text, obs) {
    const seat = obs.current_player;
    if (text === "advance" && seat >= 0) return `sarsen:${Math.min(30, obs.druids[seat] + 1)}`;
    if (text === "clan") return `bluestone:${obs.bluestones.length + 1}`;
    if (text === "convert clan" && obs.bluestones.length) return `bluestone:${obs.bluestones.length}`;
    if (text === "convert spirit") {
      for (let i = obs.spirits.length - 1; i >= 0; i--) if (obs.spirits[i] !== null) return `outer:${i + 1}`;
      return null;
    }
    if (text === "dress altar") return "altar";
    if (text === "build") {
      const next = obs.trilithons.findIndex((t) => t.sections < 3);
      return next >= 0 ? `trilithon:${next + 1}` : null;
    }
    const take = /^take over (\d)$/.exec(text);
    if (take) return `trilithon:${take[1]}`;
    return null;
  }

  Henge.register("first_druid", {
    draw(board, obs, ctx) {
      // Time: the neutral (gray) figure on its inner stone; the day's colour on the coloured ring.
      const stone = obs.round - 1;
      const at = board.anchor(`inner:${stone}`);
      if (at) {
        board.figure("gray", at.x, at.y, {
          name: "neutral",
          title: `the neutral figure: ${obs.time.number} ${obs.time.phase} (the day's colour: ${obs.day_colour})`,
        });
      }
      board.ring(`colour:${obs.time.number}`, { r: 24, class: "finish-mark day-colour" });

      // Druids on the numbered ring (sarsens).
      const bySpace = {};
      obs.druids.forEach((n, seat) => (bySpace[n] = bySpace[n] || []).push(seat));
      for (const [n, seats] of Object.entries(bySpace)) {
        const where = board.anchor(`sarsen:${n}`);
        if (!where) continue;
        seats.forEach((seat, k) => {
          const p = board.spread(where, k, seats.length, 24);
          const colour = colourOf(obs, seat);
          board.figure(colour, p.x, p.y, {
            name: `druid-${seat}`,
            mine: seat === ctx.seat,
            title: `${who(seat, ctx)}: the ${colour} druid on ${n}${obs.in_contact[seat] ? "" : " (passed by the neutral: draws no cards)"}`,
          });
        });
      }

      // Clans: disks on the bluestones, in the order they were won.
      obs.bluestones.forEach((seat, k) => {
        const where = board.anchor(`bluestone:${k + 1}`);
        if (where)
          board.disk(colourOf(obs, seat), where.x, where.y, {
            name: `clan-${k + 1}`,
            mine: seat === ctx.seat,
            title: `bluestone ${k + 1}: a clan of ${who(seat, ctx)}`,
          });
      });

      // Spirits: bars on the outer ring.
      obs.spirits.forEach((seat, i) => {
        if (seat === null) return;
        const where = board.anchor(`outer:${i + 1}`);
        if (where)
          board.bar(colourOf(obs, seat), where.x, where.y, {
            name: `spirit-${i + 1}`,
            mine: seat === ctx.seat,
            title: `space ${i + 1}: a spirit of ${who(seat, ctx)}`,
          });
      });

      // Trilithons: sections built (n/3) and the owner's disk on the capstone.
      obs.trilithons.forEach((t, k) => {
        const where = board.anchor(`trilithon:${k + 1}`);
        if (!where || t.sections === 0) return;
        board.label(`${t.sections}/3`, where.x, where.y + 28, { fill: "#222" });
        for (let u = 0; u < Math.min(2, t.sections); u++) {
          board.bar("gray", where.x + (u ? 17 : -17), where.y - 2, { name: `upright-${k + 1}-${u + 1}`, title: `trilithon ${k + 1}: upright ${u + 1} built` });
        }
        if (t.sections === 3) {
          if (t.owner !== null)
            board.disk(colourOf(obs, t.owner), where.x, where.y - 16, {
              name: `capstone-${k + 1}`,
              mine: t.owner === ctx.seat,
              title: `trilithon ${k + 1}: owned by ${who(t.owner, ctx)}`,
            });
          else board.bar("gray", where.x, where.y - 16, { name: `capstone-${k + 1}`, title: `trilithon ${k + 1}: complete, unclaimed` });
        }
      });

      // The altar's bars.
      const altar = board.anchor("altar");
      if (altar) {
        obs.altar.forEach((seat, k) => {
          board.bar(colourOf(obs, seat), altar.x - 36 + 18 * k, altar.y + 22, {
            name: `altar-${k + 1}`,
            mine: seat === ctx.seat,
            title: `a bar of ${who(seat, ctx)} on the altar`,
          });
        });
      }
    },

    place(text, obs) {
      const words = text.split(" ");
      if (["pick", "discard", "give", "bid"].includes(words[0]) && words.length === 2 && Henge.isCard(words[1])) return { card: words[1] };
      const space = actionSpace(text, obs);
      return space ? { space } : null;
    },

    describe(obs, ctx) {
      if (!ctx.mine) return "";
      switch (obs.phase) {
        case "discard":
          return `discard ${obs.discard_owed} card${s(obs.discard_owed)} down to ten`;
        case "bid":
          return `spirit of space ${obs.contest.number} (${obs.contest.colour}): lay cards face down, then seal, or pass`;
        case "answer":
          return `seat ${obs.offer.from} offers ${obs.offer.give.join(" ")} for your ${obs.offer.ask.join(" ")}`;
        default:
          if (obs.offer) return "add cards to give and to ask for, then send the offer";
          if (obs.table.length) return "add cards to the combination or choose what it does";
          return `${obs.time.number} ${obs.time.phase}: play a combination, trade, or pass to draw`;
      }
    },

    seatNote(obs, seat) {
      const parts = [`${obs.colours[seat]}`, `${obs.hand_sizes[seat]} card${s(obs.hand_sizes[seat])}`, `score ${obs.scores[seat]}`];
      if (!obs.in_contact[seat]) parts.push("out of contact");
      return parts.join(", ");
    },

    info(obs, ctx) {
      const { el, cards, chip } = Henge;
      const rows = [];
      const row = (name, ...v) => rows.push(el("tr", {}, el("th", {}, name), el("td", {}, ...v)));
      row("time", `${obs.time.number} ${obs.time.phase} (round ${obs.round} of ${obs.round_cap})`, " — day colour ", chip(obs.day_colour), obs.day_colour);
      if (obs.element_card) row("element card", cards([obs.element_card]));
      row("first player", who(obs.first_player, ctx));
      row(
        "druids",
        ...obs.druids.map((n, seat) => el("div", {}, chip(obs.colours[seat]), `${who(seat, ctx)}: ${n}, score ${obs.scores[seat]}`)),
      );
      if (obs.table.length) row("on the table", cards(obs.table), obs.wild_number ? ` (wild as ${obs.wild_number})` : "");
      if (obs.offer) {
        row("offer", `${who(obs.offer.from, ctx)} → ${who(obs.offer.to, ctx)}: gives `, cards(obs.offer.give), " asks ", cards(obs.offer.ask));
      }
      if (obs.contest) {
        const sizes = obs.contest.bid_sizes.map((k, seat) => `${who(seat, ctx)} ${k}`).join(", ");
        row("spirit contest", chip(obs.contest.colour), `space ${obs.contest.number}: face-down cards ${sizes}`);
        if (obs.contest.bid && obs.contest.bid.length) row("your bid", cards(obs.contest.bid));
      }
      if (obs.last_contest) {
        const c = obs.last_contest;
        const bids = c.bids.map((b, seat) => el("div", {}, `${who(seat, ctx)}: `, cards(b), ` = ${c.values[seat]}`));
        row(`last contest (space ${c.number})`, ...bids, c.placed ? `won by ${who(c.winner, ctx)}` : "no spirit placed");
      }
      const known = obs.known_cards.map((k, seat) => (k.length ? el("div", {}, `${who(seat, ctx)}: `, cards(k)) : null)).filter(Boolean);
      if (known.length) row("cards you know in hands", ...known);
      const either = (obs.either_or || []).map((e) => el("div", {}, cards([e.card]), ` with ${e.seats.map((seat) => who(seat, ctx)).join(" or ")}`));
      if (either.length) row("cards in one of several hands", ...either);
      row("altar", obs.altar.length ? obs.altar.map((seat) => who(seat, ctx)).join(", ") : "bare", ` (complete at ${obs.players})`);
      row("stock", ...obs.colours.map((c, seat) => el("div", {}, chip(c), `${obs.disks_left[seat]} disks, ${obs.bars_left[seat]} bars`)));
      row("draw pile", `${obs.draw_pile} card${s(obs.draw_pile)}`);
      const top = obs.discard_pile.slice(-6);
      row("discard pile", `${obs.discard_pile.length} card${s(obs.discard_pile.length)}`, top.length ? cards(top) : "");
      row("events", ...obs.log.slice(-5).map((line) => el("div", {}, line)));
      return el("table", {}, rows);
    },

    result(obs, ctx) {
      const { el } = Henge;
      const lines = obs.scores.map((score, seat) =>
        el("li", {}, `${who(seat, ctx)} (${obs.colours[seat]}): ${score}`, (obs.winners || []).includes(seat) ? " — winner" : ""),
      );
      return el("div", {}, el("p", {}, obs.result || ""), el("ul", {}, lines));
    },

    secrets(obs, _spectator) {
      const { el, cards } = Henge;
      const parts = [el("div", {}, "hand: ", cards(obs.hand || []))];
      if (obs.contest && obs.contest.bid && obs.contest.bid.length) parts.push(el("div", {}, "bid: ", cards(obs.contest.bid)));
      return el("div", {}, parts);
    },
  });
})();
