// The drawing every game starts from: the observation's fields as a table, the hand as cards,
// card actions on their cards and every other action as a button. A game's own file
// (each game's board.js, served at /games/<id>/board.js) replaces any of these functions with Henge.register(id, {...}).
"use strict";

Henge.register("generic", {
  // Puts the game's pieces on the board (the generic drawing knows no pieces).
  draw(_board, _obs, _ctx) {},

  // The seat's own cards, or null if the observation has no hand.
  hand(obs) {
    const hand = obs && obs.hand;
    return Array.isArray(hand) && hand.every(Henge.isCard) ? hand : null;
  },

  // Where a legal action happens: {card: "13d"}, {space: "sarsen:4"}, or null for a button.
  place(text, obs) {
    const hand = this.hand(obs) || [];
    const last = text.split(" ").pop();
    if (Henge.isCard(last) && hand.includes(last)) return { card: last };
    return null;
  },

  // What the seat to move is asked.
  describe(_obs, ctx) {
    return ctx.mine ? "your move: choose one of the highlighted actions" : "";
  },

  // A short note next to a seat in the seat list (e.g. its number of cards).
  seatNote(obs, seat) {
    if (obs && Array.isArray(obs.hand_sizes)) return `${obs.hand_sizes[seat]} card${obs.hand_sizes[seat] === 1 ? "" : "s"}`;
    return "";
  },

  // The observation's other fields, as a table.
  info(obs, _ctx) {
    const skip = new Set(["game", "seat", "hand", "players"]);
    const rows = Object.entries(obs || {})
      .filter(([k]) => !skip.has(k))
      .map(([k, v]) => Henge.el("tr", {}, Henge.el("th", {}, k.replaceAll("_", " ")), Henge.el("td", {}, Henge.value(v))));
    return Henge.el("table", {}, rows);
  },

  // The end: what the observation says of the result.
  result(obs, _ctx) {
    const parts = [];
    for (const key of ["result", "reason", "winners"]) {
      if (obs && obs[key] !== undefined && obs[key] !== null) parts.push(Henge.el("p", {}, `${key}: `, Henge.value(obs[key])));
    }
    return Henge.el("div", {}, parts);
  },

  // In a replay: what this seat sees that a spectator does not.
  secrets(obs, spectator) {
    const rows = [];
    for (const [k, v] of Object.entries(obs || {})) {
      if (k === "seat" || JSON.stringify(v) === JSON.stringify((spectator || {})[k])) continue;
      rows.push(Henge.el("div", {}, `${k.replaceAll("_", " ")}: `, Henge.value(v)));
    }
    return Henge.el("div", {}, rows);
  },
});
