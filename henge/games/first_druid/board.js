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

  // --- the trade composer -------------------------------------------------------------
  // An offer is built one action at a time (FD2, FD15): "offer seat k" starts it, "give 7d" puts a
  // card of the hand in, "ask 13n" asks for a card, "send offer" makes it, "withdraw offer" drops
  // it. The composer shows them as the offer so far, a row of the hand's cards to give and the
  // cards that may be asked for, by colour, with Send and Withdraw; each click is one action.
  const CARD_GROUPS = ["white", "blue", "green", "yellow", "red", "black", "trilithon"];
  const OFFER_TEXTS = new Set(["send offer", "withdraw offer"]);

  function tradeAction(text) {
    return /^offer seat \d$/.test(text) || /^(give|ask) \S+$/.test(text) || OFFER_TEXTS.has(text);
  }

  function cardOrder(a, b) {
    const x = Henge.cardInfo(a);
    const y = Henge.cardInfo(b);
    if (x.trilithon || y.trilithon) return x.trilithon === y.trilithon ? a.localeCompare(b) : x.trilithon ? 1 : -1;
    return x.number - y.number || (x.day === y.day ? 0 : x.day ? 1 : -1);
  }

  // A card that plays one action when clicked (or on Enter or Space).
  function choiceCard(card, text, ctx, extra = {}) {
    const preview = (ctx.previews || {})[text];
    const label = preview ? `${text} — ${preview}` : text;
    const node = Henge.card(card, { small: true });
    node.classList.add("pick", "legal");
    if (extra.known) node.classList.add("known");
    node.dataset.action = text;
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
    node.setAttribute("aria-label", extra.known ? `${label} (${extra.known})` : label);
    node.title = extra.known ? `${label} (${extra.known})` : label;
    node.addEventListener("click", () => ctx.send(text));
    node.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        ctx.send(text);
      }
    });
    return node;
  }

  function actionButton(text, label, ctx, opts = {}) {
    const preview = (ctx.previews || {})[text];
    return Henge.el(
      "button",
      { type: "button", class: opts.class || null, dataset: { action: text }, title: preview || null, onclick: () => ctx.send(text) },
      label,
    );
  }

  function compose(obs, ctx) {
    const { el } = Henge;
    const legal = (ctx.legal || []).filter(tradeAction);
    if (!legal.length) return null;
    const handles = new Set(legal);
    const left = Math.max(0, 3 - (obs.offers_made || 0));
    if (!obs.offer) {
      // Not composing: whom an offer may go to.
      const starts = legal.filter((t) => t.startsWith("offer seat "));
      const buttons = starts.map((text) => {
        const k = +text.split(" ")[2];
        const n = obs.hand_sizes[k];
        return actionButton(text, `offer to ${who(k, ctx)} (${obs.colours[k]}, ${n} card${s(n)})`, ctx);
      });
      return {
        node: el(
          "div",
          { class: "composer", id: "composer" },
          el("span", { class: "composer-title" }, `Trade (${left} offer${s(left)} left this turn):`),
          ...buttons,
        ),
        handles,
      };
    }
    const offer = obs.offer;
    const to = offer.to;
    const gives = legal.filter((t) => t.startsWith("give ")).map((t) => t.slice(5));
    const asks = legal.filter((t) => t.startsWith("ask ")).map((t) => t.slice(4));
    const known = new Set((obs.known_cards || [])[to] || []);
    const line = el(
      "div",
      { class: "offer-line", id: "offer-text" },
      el("strong", {}, `Your offer to ${who(to, ctx)}: `),
      "you give ",
      offer.give.length ? Henge.cards(offer.give) : el("em", {}, "nothing yet"),
      " for ",
      offer.ask.length ? Henge.cards(offer.ask) : el("em", {}, "nothing yet"),
    );
    const giveRow = el(
      "div",
      { class: "composer-row give-row" },
      el("span", { class: "row-label" }, "give:"),
      gives.length ? el("div", { class: "pick-cards" }, gives.sort(cardOrder).map((c) => choiceCard(c, `give ${c}`, ctx))) : el("em", {}, "every card of your hand is in the offer"),
    );
    const groups = {};
    for (const card of asks) {
      const info = Henge.cardInfo(card);
      (groups[info.trilithon ? "trilithon" : info.colour] = groups[info.trilithon ? "trilithon" : info.colour] || []).push(card);
    }
    const full = offer.ask.length >= (obs.hand_sizes[to] || 0);
    const askRows = CARD_GROUPS.filter((g) => groups[g]).map((g) =>
      el(
        "div",
        { class: "pick-cards", dataset: { group: g } },
        groups[g].sort(cardOrder).map((c) => choiceCard(c, `ask ${c}`, ctx, { known: known.has(c) ? `${who(to, ctx)} holds it` : "" })),
      ),
    );
    const askRow = el(
      "div",
      { class: "composer-row ask-row" },
      el("span", { class: "row-label" }, "ask for:"),
      askRows.length ? el("div", { class: "ask-groups" }, askRows) : el("em", {}, full ? `you ask for every card ${who(to, ctx)} holds` : "nothing left to ask for"),
    );
    const send = legal.includes("send offer")
      ? actionButton("send offer", "Send the offer", ctx, { class: "primary" })
      : el("button", { type: "button", disabled: true, title: "put in a card to give and one to ask for first" }, "Send the offer");
    const withdraw = legal.includes("withdraw offer") ? actionButton("withdraw offer", "Withdraw it", ctx) : null;
    const note = el("p", { class: "note" }, `${who(to, ctx)} holds ${obs.hand_sizes[to]} card${s(obs.hand_sizes[to])}; a ★ marks a card you know is there. Nobody sees the offer until you send it.`);
    return {
      node: el("div", { class: "composer composing", id: "composer" }, line, giveRow, askRow, el("div", { class: "composer-buttons" }, send, withdraw), note),
      handles,
    };
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

      // The altar's bars, side by side under the stone.
      const altar = board.anchor("altar");
      if (altar) {
        obs.altar.forEach((seat, k) => {
          board.bar(colourOf(obs, seat), altar.x + (k - (obs.altar.length - 1) / 2) * 32, altar.y + 24, {
            name: `altar-${k + 1}`,
            mine: seat === ctx.seat,
            title: `a bar of ${who(seat, ctx)} on the altar`,
          });
        });
      }
    },

    // Where an action happens; the cards of an offer ("give 7d", "ask 13n") are the composer's.
    place(text, obs) {
      const words = text.split(" ");
      if (["pick", "discard", "bid"].includes(words[0]) && words.length === 2 && Henge.isCard(words[1])) return { card: words[1] };
      const space = actionSpace(text, obs);
      return space ? { space } : null;
    },

    compose,

    describe(obs, ctx) {
      if (!ctx.mine) return "";
      switch (obs.phase) {
        case "discard":
          // obs.hand_limit is there only where a designer set a limit other than ten.
          return `discard ${obs.discard_owed} card${s(obs.discard_owed)} down to ${obs.hand_limit ?? "ten"}`;
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
