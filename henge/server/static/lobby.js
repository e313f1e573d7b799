// The lobby: play against bots in one click, create a table with chosen seats, join seats open to the lobby.
"use strict";

(() => {
  const { games, bots, levels } = Henge.data;
  const $ = (id) => document.getElementById(id);
  const el = Henge.el;

  function game(id) {
    return games.find((g) => g.id === id);
  }

  function fillSelect(select, values, labels) {
    const previous = select.value;
    select.replaceChildren(...values.map((v, i) => el("option", { value: v }, labels ? labels[i] : v)));
    if (values.map(String).includes(previous)) select.value = previous;
  }

  // The create form follows the chosen game: player counts, variants, one choice per seat.
  function updateForm() {
    const g = game($("create-game").value);
    const counts = [];
    for (let n = g.min_players; n <= g.max_players; n++) counts.push(n);
    fillSelect($("create-players"), counts);
    fillSelect($("create-variant"), g.variants);
    $("variant-label").hidden = !g.has_variant;
    updateKnobs(g);
    updateSeats();
  }

  // A designer's options (e.g. Stonerush's track length): one choice each, at its standard value.
  function updateKnobs(g) {
    const area = $("create-knobs");
    area.replaceChildren(
      ...g.knobs.map((k) => {
        const select = el("select", { name: `knob-${k.name}`, id: `knob-${k.name}` });
        fillSelect(select, k.values.map(String), k.values.map((v) => (v === k.default ? `${v} (standard)` : String(v))));
        select.value = String(k.default);
        return el("label", { title: k.doc }, `${k.name} `, select);
      }),
    );
    area.hidden = g.knobs.length === 0;
  }

  function knobValues(g) {
    const chosen = {};
    for (const k of g.knobs) {
      const text = $(`knob-${k.name}`).value;
      const value = k.values.find((v) => String(v) === text);
      if (value !== undefined && value !== k.default) chosen[k.name] = value;
    }
    return chosen;
  }

  // Play now: the game's usual player count (four where it allows, else the nearest) and its first
  // variant, unless chosen otherwise.
  function defaultPlayers(g) {
    return Math.max(g.min_players, Math.min(4, g.max_players));
  }

  function updateQuick() {
    const g = game($("quick-game").value);
    const counts = [];
    for (let n = g.min_players; n <= g.max_players; n++) counts.push(n);
    const players = $("quick-players");
    fillSelect(players, counts, counts.map((n) => `${n} (you and ${n - 1} bot${n === 2 ? "" : "s"})`));
    if (!players.dataset.chosen || !counts.includes(Number(players.value))) players.value = String(defaultPlayers(g));
    fillSelect($("quick-variant"), g.variants);
    $("quick-variant-label").hidden = !g.has_variant;
    updateLevels(g);
  }

  // The levels, weakest first, each with its line on how it plays; the lowest is chosen at first.
  function updateLevels(g) {
    const area = $("quick-levels");
    const offered = g.levels.length ? g.levels : [g.first_opponent];
    const chosen = area.querySelector("input:checked");
    const keep = chosen && offered.includes(chosen.value) ? chosen.value : offered[0];
    area.replaceChildren(
      area.querySelector("legend"),
      ...offered.map((name) => {
        const level = levels.find((l) => l.name === name);
        const input = el("input", { type: "radio", name: "bot", value: name, id: `level-${name}`, checked: name === keep });
        return el("label", { class: "level" }, input, " ", el("b", {}, name), " ", el("span", { class: "plays" }, level ? level.plays : ""));
      }),
    );
  }

  // A seat's bot: the game's levels, weakest first, then the bots by name.
  function seatBots(g) {
    return [...g.levels, ...bots.filter((b) => !g.levels.includes(b))];
  }

  function updateSeats() {
    const n = Number($("create-players").value);
    const area = $("create-seats");
    const old = [...area.querySelectorAll("select")].map((s) => s.value);
    const wasOpen = [...area.querySelectorAll("input.lobby")].map((c) => c.checked);
    const offered = seatBots(game($("create-game").value));
    const choices = ["person", ...offered.map((b) => `bot:${b}`)];
    const labels = ["a person", ...offered.map((b) => `bot: ${b}`)];
    area.replaceChildren();
    for (let k = 0; k < n; k++) {
      const select = el("select", { name: `seat-${k}`, id: `seat-${k}` });
      fillSelect(select, choices, labels);
      select.value = (choices.includes(old[k]) && old[k]) || (k === 0 ? "person" : `bot:${offered[0]}`);
      select.addEventListener("change", updateSit);
      // A person's seat is kept for whoever gets its link, unless it is open to the lobby.
      const open = el("input", { type: "checkbox", class: "lobby", id: `lobby-${k}`, checked: Boolean(wasOpen[k]) });
      const openLabel = el("label", { class: "lobby-choice", title: "anybody in the lobby may take this seat" }, open, " open to the lobby");
      area.append(el("span", { class: "seat-choice" }, el("label", {}, `seat ${k} `, select), openLabel));
    }
    $("create-sit").onchange = updateLobbyChoices;
    updateSit();
  }

  function updateSit() {
    const people = [...$("create-seats").querySelectorAll("select")]
      .map((s, k) => (s.value === "person" ? k : null))
      .filter((k) => k !== null);
    fillSelect($("create-sit"), ["", ...people.map(String)], ["nowhere (invite only)", ...people.map((k) => `seat ${k}`)]);
    if (people.length && $("create-sit").value === "") $("create-sit").value = String(people[0]);
    updateLobbyChoices();
  }

  // "Open to the lobby" is offered for the seats of other people (not bots, not your own).
  function updateLobbyChoices() {
    const sit = $("create-sit").value;
    [...$("create-seats").querySelectorAll("select")].forEach((select, k) => {
      const box = $(`lobby-${k}`);
      const offered = select.value === "person" && String(k) !== sit;
      box.closest("label").hidden = !offered;
      if (!offered) box.checked = false;
    });
  }

  async function post(url, body) {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body || {}),
    });
    const data = await response.json();
    if (!response.ok) throw new Error(data.error || (data.detail && JSON.stringify(data.detail)) || response.statusText);
    return data;
  }

  function showError(error) {
    $("lobby-error").textContent = String(error.message || error);
    $("lobby-error").hidden = false;
  }

  // The creator's browser keeps the creator's token, its own seat's key and the join links of the
  // seats it did not take. Its own table opens without a token in the address.
  function remember(created) {
    const others = created.links.filter((l) => l.seat !== created.sit);
    localStorage.setItem(`henge.links.${created.id}`, JSON.stringify(others));
    localStorage.setItem(`henge.creator.${created.id}`, created.creator_token);
    const mine = created.links.find((l) => l.seat === created.sit);
    if (mine) localStorage.setItem(`henge.seat.${created.id}`, JSON.stringify(credsOf(mine.url)));
    return mine;
  }

  function credsOf(url) {
    const params = new URLSearchParams(url.split("#")[1] || "");
    return { seat: Number(params.get("seat")), token: params.get("token") };
  }

  function linkRows(links) {
    return links.map((l) => {
      const input = el("input", { class: "link", value: new URL(l.url, location.origin).href, readonly: true });
      return el(
        "div",
        { class: "link-row" },
        `seat ${l.seat}: `,
        input,
        el("button", { type: "button", onclick: () => copy(input) }, "copy"),
      );
    });
  }

  function copy(input) {
    input.select();
    if (navigator.clipboard) navigator.clipboard.writeText(input.value).catch(() => document.execCommand("copy"));
    else document.execCommand("copy");
  }

  $("quick-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const g = game($("quick-game").value);
      const created = await post("/api/tables", {
        game: g.id,
        players: Number($("quick-players").value),
        variant: g.has_variant ? $("quick-variant").value : null,
        bot: $("quick-levels").querySelector("input:checked").value,
        sit: 0,
      });
      remember(created);
      location.href = created.url;
    } catch (error) {
      showError(error);
    }
  });

  $("create-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const sit = $("create-sit").value === "" ? null : Number($("create-sit").value);
    const seats = [...$("create-seats").querySelectorAll("select")].map((s, k) =>
      s.value === "person" ? { kind: "person", lobby: $(`lobby-${k}`).checked && k !== sit } : { kind: "bot", bot: s.value.slice(4) },
    );
    const g = game($("create-game").value);
    try {
      const created = await post("/api/tables", {
        game: g.id,
        players: seats.length,
        variant: g.has_variant ? $("create-variant").value : null,
        options: knobValues(g),
        seats,
        sit,
        on_leave: $("create-leave").value,
      });
      const mine = remember(created);
      const others = created.links.filter((l) => l.seat !== created.sit);
      const area = $("created");
      area.replaceChildren(
        el("p", {}, `Table ${created.id} is ready. `, el("a", { href: created.url, id: "go-to-table" }, mine ? "Go to your seat" : "Watch it")),
        others.length ? el("p", {}, "Send each person their own link (it is the key to that seat; keep it secret):") : "",
        ...linkRows(others),
      );
      area.hidden = false;
      refresh();
    } catch (error) {
      showError(error);
    }
  });

  // Taking an open seat from the list gets a new key for it.
  document.addEventListener("click", async (event) => {
    const button = event.target.closest("button.take");
    if (!button) return;
    try {
      const taken = await post(`/api/tables/${button.dataset.table}/seats/${button.dataset.seat}/take`);
      localStorage.setItem(`henge.seat.${button.dataset.table}`, JSON.stringify(credsOf(taken.url)));
      location.href = `/tables/${button.dataset.table}`;
    } catch (error) {
      showError(error);
    }
  });

  function showYourLinks() {
    for (const span of document.querySelectorAll(".your-links")) {
      let links = [];
      try {
        links = JSON.parse(localStorage.getItem(`henge.links.${span.dataset.table}`)) || [];
      } catch (_e) {
        links = [];
      }
      const row = span.closest(".table-row");
      const free = (row.dataset.free || "").split(" ").filter(Boolean).map(Number);
      const open = links.filter((l) => free.includes(l.seat));
      // Seats this browser invited somebody to are not offered to itself.
      for (const l of open) row.querySelector(`button.take[data-seat="${l.seat}"]`)?.remove();
      if (open.length) span.replaceChildren(el("span", {}, "your invitations:"), ...linkRows(open));
    }
  }

  // Tables this browser created that left the lobby: the abandoned ones are listed here, and only
  // here (the server lists them nowhere); deleted ones are forgotten.
  async function showYourTables() {
    const listed = new Set([...document.querySelectorAll(".table-row")].map((r) => r.dataset.table));
    const mine = Object.keys(localStorage)
      .filter((k) => k.startsWith("henge.creator."))
      .map((k) => k.slice("henge.creator.".length))
      .filter((id) => /^[0-9a-f]{1,32}$/.test(id) && !listed.has(id))
      .slice(0, 20);
    const items = [];
    for (const id of mine) {
      try {
        const response = await fetch(`/api/tables/${id}`);
        if (response.status === 404) {
          for (const key of ["creator", "seat", "links"]) localStorage.removeItem(`henge.${key}.${id}`);
          continue;
        }
        const info = await response.json();
        if (info.status === "abandoned") {
          items.push(el("li", { class: "table-row", dataset: { table: id, status: "abandoned" } }, `${info.name}, ${info.players} players: abandoned `, el("a", { href: `/tables/${id}` }, "open it")));
        }
      } catch (_e) {
        // the server is restarting: the next visit shows them
      }
    }
    $("your-tables-list").replaceChildren(...items);
    $("your-tables").hidden = items.length === 0;
  }

  // The lists refresh themselves while the lobby is open.
  async function refresh() {
    try {
      const response = await fetch("/", { headers: { Accept: "text/html" } });
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      const lists = page.getElementById("table-lists");
      if (lists) $("table-lists").replaceChildren(...lists.childNodes);
      showYourLinks();
    } catch (_e) {
      // the server is restarting; try again later
    }
  }

  $("quick-game").addEventListener("change", updateQuick);
  $("quick-players").addEventListener("change", () => {
    $("quick-players").dataset.chosen = "1";
  });
  updateQuick();
  $("create-game").addEventListener("change", updateForm);
  $("create-players").addEventListener("change", updateSeats);
  updateForm();
  showYourLinks();
  showYourTables();
  setInterval(refresh, 4000);
})();
