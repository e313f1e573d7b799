// henge in the browser: helpers shared by the lobby, the table and the replay.
"use strict";

const Henge = (() => {
  const dataTag = document.getElementById("henge-data");
  const data = dataTag ? JSON.parse(dataTag.textContent) : {};
  const box = data.box || { colours: [], player_colours: [], fill: {} };

  // Builds an HTML element: el("div", {class: "x", onclick: f}, child, "text", ...).
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    setAttrs(node, attrs);
    append(node, children);
    return node;
  }

  // Builds an SVG element the same way.
  function svg(tag, attrs, ...children) {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    setAttrs(node, attrs);
    append(node, children);
    return node;
  }

  function setAttrs(node, attrs) {
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
      else if (key === "dataset") Object.assign(node.dataset, value);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
  }

  function append(node, children) {
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
  }

  // Card texts of the box: 13d (13, day), 7n (7, night), T-red (a trilithon card).
  const CARD = /^(\d{1,2})([dn])$/i;
  const TRILITHON = /^T-(white|blue|green|yellow|red)$/i;

  function isCard(text) {
    if (typeof text !== "string") return false;
    const m = CARD.exec(text);
    if (m) return +m[1] >= 1 && +m[1] <= 30;
    return TRILITHON.test(text);
  }

  function colourOf(n) {
    return box.colours[(n - 1) % 6];
  }

  function cardInfo(text) {
    const m = CARD.exec(text);
    if (m) return { number: +m[1], day: m[2].toLowerCase() === "d", colour: colourOf(+m[1]), trilithon: false };
    const t = TRILITHON.exec(text);
    return { number: null, day: null, colour: t[1].toLowerCase(), trilithon: true };
  }

  // A card drawn in its colour with its number and a sun or a moon (a trilithon card: Π and a dot
  // of its colour bearing the colour's letter, as the board's pieces do).
  function card(text, opts = {}) {
    const info = cardInfo(text);
    const classes = ["card", info.trilithon ? "trilithon" : `c-${info.colour}`];
    if (opts.small) classes.push("small");
    const title = info.trilithon
      ? `trilithon card (${info.colour})`
      : `${info.number} ${info.day ? "day" : "night"} (${info.colour})`;
    const node = el("div", { class: classes.join(" "), title, dataset: { card: text } });
    if (info.trilithon) {
      node.append(el("span", { class: "number" }, "Π"), el("span", { class: `dot dot-${info.colour}`, style: `background:${box.fill[info.colour]}` }, info.colour[0].toUpperCase()));
    } else {
      node.append(
        el("span", { class: "number" }, info.number),
        el("span", { class: "phase" }, info.day ? "☀" : "☾"),
        el("span", { class: "tag" }, info.day ? "day" : "night"),
      );
    }
    return node;
  }

  function cards(texts, opts = {}) {
    if (!texts || texts.length === 0) return el("span", { class: "none" }, "none");
    return el("div", { class: "cards" }, texts.map((t) => card(t, { small: true, ...opts })));
  }

  function chip(colour) {
    return el("span", { class: "chip", style: `background:${box.fill[colour] || colour}`, title: colour });
  }

  function seatName(seat, mine) {
    if (seat === null || seat === undefined) return "nobody";
    return seat === mine ? "you" : `seat ${seat}`;
  }

  // Shows any observation value: lists of card texts as cards, others as text.
  function value(v) {
    if (v === null || v === undefined) return "–";
    if (Array.isArray(v)) {
      if (v.length > 0 && v.every(isCard)) return cards(v);
      if (v.every((x) => typeof x !== "object" || x === null)) return v.join(", ") || "none";
      return el("div", {}, v.map((x) => el("div", {}, value(x))));
    }
    if (typeof v === "object") {
      return el("span", {}, Object.entries(v).map(([k, x], i) => [i ? "; " : "", `${k}: `, value(x)]));
    }
    if (isCard(v)) return card(v, { small: true });
    return String(v);
  }

  // The drawings of the games (each game's board.js, served at /games/<id>/board.js); each falls back on the generic one.
  const games = {};
  function register(id, drawing) {
    games[id] = drawing;
  }
  function drawing(id) {
    return Object.assign({}, games.generic || {}, games[id] || {});
  }

  // "seat 1", "seat 1 and seat 2", "seat 1, seat 2 and seat 3".
  function joined(words) {
    if (words.length <= 1) return words.join("");
    return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
  }

  function capital(text) {
    return text ? text[0].toUpperCase() + text.slice(1) : text;
  }

  // The seats with the best return, when it is more than nothing (all-zero returns: nobody won).
  function winnersOf(returns) {
    if (!returns || returns.length === 0) return [];
    const best = Math.max(...returns);
    return best > 0 ? returns.map((r, i) => (r === best ? i : null)).filter((i) => i !== null) : [];
  }

  // The end in words, as the seat `seat` (null: a spectator) reads it: "You won", "Shared win with
  // seat 2", "Seat 1 won", "Seat 1 and seat 3 shared the win", "Nobody won". `label(k)` names a seat.
  function verdict(returns, seat, label = (k) => `seat ${k}`) {
    if (!returns) return "";
    const winners = winnersOf(returns);
    if (winners.length === 0) return "Nobody won";
    const mine = seat !== null && seat !== undefined && winners.includes(seat);
    if (mine && winners.length === 1) return "You won";
    if (mine) return `Shared win with ${joined(winners.filter((w) => w !== seat).map(label))}`;
    if (winners.length === 1) return `${capital(label(winners[0]))} won`;
    return `${capital(joined(winners.map(label)))} shared the win`;
  }

  // Every seat's outcome in words: "you: won", "seat 1: shared the win", "seat 2: did not win".
  function standings(returns, seat, label = (k) => `seat ${k}`) {
    const winners = winnersOf(returns);
    return (returns || []).map((_r, k) => {
      const who = k === seat ? "you" : label(k);
      const what = !winners.includes(k) ? "did not win" : winners.length === 1 ? "won" : "shared the win";
      return `${who}: ${what}`;
    });
  }

  return { data, box, el, svg, isCard, cardInfo, colourOf, card, cards, chip, seatName, value, register, drawing, games, verdict, standings, joined };
})();
