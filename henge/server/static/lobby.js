// The lobby: play against bots in one click, create a table with chosen seats, join open seats.
"use strict";

(() => {
  const { games, bots } = Henge.data;
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
    updateSeats();
  }

  function updateSeats() {
    const n = Number($("create-players").value);
    const area = $("create-seats");
    const old = [...area.querySelectorAll("select")].map((s) => s.value);
    const choices = ["person", ...bots.map((b) => `bot:${b}`)];
    const labels = ["open for a person", ...bots.map((b) => `bot: ${b}`)];
    area.replaceChildren();
    for (let k = 0; k < n; k++) {
      const select = el("select", { name: `seat-${k}`, id: `seat-${k}` });
      fillSelect(select, choices, labels);
      select.value = old[k] || (k === 0 ? "person" : `bot:${bots[0]}`);
      select.addEventListener("change", updateSit);
      area.append(el("label", {}, `seat ${k} `, select));
    }
    updateSit();
  }

  function updateSit() {
    const people = [...$("create-seats").querySelectorAll("select")]
      .map((s, k) => (s.value === "person" ? k : null))
      .filter((k) => k !== null);
    fillSelect($("create-sit"), ["", ...people.map(String)], ["nowhere (invite only)", ...people.map((k) => `seat ${k}`)]);
    if (people.length && $("create-sit").value === "") $("create-sit").value = String(people[0]);
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

  // The creator's browser keeps the join links of the seats it did not take.
  function remember(created) {
    const others = created.links.filter((l) => l.seat !== created.sit);
    localStorage.setItem(`henge.links.${created.id}`, JSON.stringify(others));
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
      const created = await post("/api/tables", { game: $("quick-game").value, bot: $("quick-bot").value, sit: 0 });
      const mine = remember(created);
      location.href = mine.url;
    } catch (error) {
      showError(error);
    }
  });

  $("create-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const seats = [...$("create-seats").querySelectorAll("select")].map((s) =>
      s.value === "person" ? { kind: "person" } : { kind: "bot", bot: s.value.slice(4) },
    );
    const g = game($("create-game").value);
    const sit = $("create-sit").value === "" ? null : Number($("create-sit").value);
    try {
      const created = await post("/api/tables", {
        game: g.id,
        players: seats.length,
        variant: g.has_variant ? $("create-variant").value : null,
        seats,
        sit,
      });
      const mine = remember(created);
      const others = created.links.filter((l) => l.seat !== created.sit);
      const area = $("created");
      area.replaceChildren(
        el("p", {}, `Table ${created.id} is ready. `, mine ? el("a", { href: mine.url, id: "go-to-table" }, "Go to your seat") : el("a", { href: created.url }, "Watch it")),
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
      location.href = taken.url;
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
      if (!links.length || row.dataset.status !== "waiting") continue;
      const open = links.filter((l) => row.querySelector(`button.take[data-seat="${l.seat}"]`));
      // Seats this browser invited somebody to are not offered to itself.
      for (const l of open) row.querySelector(`button.take[data-seat="${l.seat}"]`).remove();
      if (open.length) span.replaceChildren(el("span", {}, "your invitations:"), ...linkRows(open));
    }
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

  $("create-game").addEventListener("change", updateForm);
  $("create-players").addEventListener("change", updateSeats);
  updateForm();
  showYourLinks();
  setInterval(refresh, 4000);
})();
