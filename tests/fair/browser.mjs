// SPDX-License-Identifier: MIT
// Drives web/verify.html in headless Chromium (playwright-core) for the
// vectors in a JSON file written by tests/fair/test_browser.sh from the C
// output. Prints one "ok NAME" or "not ok NAME: why" line per check.
// Usage: node browser.mjs PLAYWRIGHT_CORE_DIR HTML VECTORS.json SCREENSHOT.png
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [pwDir, html, vectorsFile, shot] = process.argv.slice(2);
const require = createRequire(pwDir + "/");
const { chromium } = require("playwright-core");
const vectors = JSON.parse(readFileSync(vectorsFile, "utf8"));
// FSH_FAST_FILL=1: fill the form in one step instead of field by field.
const fast = process.env.FSH_FAST_FILL === "1";

const results = [];
const ok = (name, cond, why) => results.push(cond ? "ok " + name : "not ok " + name + ": " + why);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu"],
});
try {
  const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
  const page = await context.newPage();
  // Any request other than the file itself breaks the "no network" promise.
  const requests = [];
  page.on("request", (r) => { if (!r.url().startsWith("file:")) requests.push(r.url()); });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(pathToFileURL(html).href);

  for (const v of vectors) {
    // Empty fields are what the player left empty: nonce, decks and jokers
    // then mean 0, 1 and 0 (with a JSON: not given).
    const field = (x) => (x === undefined || x === null ? "" : String(x));
    // A field the page lacks (an older page) fails the vector if it is used.
    let missing = [];
    if (fast) {
      // All fields at once (as .value, which strips an <input>'s line
      // breaks as typing does), then the button: a page.fill is a round
      // trip each, and tests/fair/test_fair_diff.sh has many vectors.
      missing = await page.evaluate(async (f) => {
        const missing = [];
        for (const [id, x] of Object.entries(f)) {
          const el = document.getElementById(id);
          if (!el) { if (x !== "") missing.push(id); }
          else if (el.type === "checkbox") el.checked = x === "1";
          else el.value = x;
        }
        document.getElementById("verify").click();
        while (document.getElementById("status").dataset.done !== "1")
          await new Promise((r) => setTimeout(r, 2));
        return missing;
      }, { json: (v.json || "") + " ".repeat(v.pad || 0), seed: v.seed, commitment: field(v.commitment),
           client: field(v.client), nonce: field(v.nonce), decks: field(v.decks), jokers: field(v.jokers),
           dealt: field(v.dealt), burn: field(v.burn), players: field(v.players), "per-hand": field(v.per_hand),
           layout: field(v.layout), "client-escapes": v.client_escapes ? "1" : "", hand: field(v.hand),
           rest: v.rest ? "1" : "" });
    } else {
      await page.fill("#json", "");
      // A long JSON as a paste puts it (page.fill takes seconds for 300 KB).
      if (v.pad || (v.json || "").length > 65536)
        await page.evaluate(([j, pad]) => { document.getElementById("json").value = j + " ".repeat(pad); },
                            [v.json, v.pad || 0]);
      else
        await page.fill("#json", v.json || "");
      await page.fill("#seed", v.seed);
      await page.fill("#commitment", field(v.commitment));
      await page.fill("#client", field(v.client));
      await page.fill("#nonce", field(v.nonce));
      await page.fill("#decks", field(v.decks));
      await page.fill("#jokers", field(v.jokers));
      await page.fill("#dealt", field(v.dealt));
      const set = async (sel, x, how) => {
        if (await page.$(sel)) await how(sel, x);
        else if (x !== "" && x !== false) missing.push(sel);
      };
      await set("#burn", field(v.burn), page.fill.bind(page));
      await set("#players", field(v.players), page.fill.bind(page));
      await set("#per-hand", field(v.per_hand), page.fill.bind(page));
      await set("#layout", field(v.layout), page.selectOption.bind(page));
      await set("#client-escapes", !!v.client_escapes, page.setChecked.bind(page));
      await set("#hand", field(v.hand), page.fill.bind(page));
      await set("#rest", !!v.rest, page.setChecked.bind(page));
      await page.click("#verify");
      await page.waitForSelector('#status[data-done="1"]', { timeout: 60000 });
    }
    if (missing.length) {
      ok(v.name + ": the page has the fields it needs", false, "no " + missing.join(", "));
      continue;
    }
    const status = (await page.textContent("#status")).trim();
    const problems = (await page.textContent("#problems")).trim();
    const facts = await page.textContent("#facts");
    const order = await page.getAttribute("#cards", "data-order");
    const what = v.bad ? "bad input" : v.status;
    ok(v.name + ": " + what, status === v.status && problems.startsWith("bad input:") === v.bad,
       "got " + status + " (" + problems.slice(0, 300) + ")");
    if (v.order)
      ok(v.name + ": deal order equals the C output", order === v.order,
         "got " + (order || "").slice(0, 80) + "...");
    // The command's lines, word for word (tests/fair/test_fair_diff.sh and
    // test_browser.sh take them from `fairshuf verify` in a UTF-8 locale):
    // NOT VALID, each of its lines; bad input, its message.
    if (v.lines) {
      const lines = await page.$$eval("#problems li", (els) => els.map((e) => e.textContent));
      ok(v.name + ": says what fairshuf verify says", JSON.stringify(lines) === JSON.stringify(v.lines),
         "page " + JSON.stringify(lines).slice(0, 400) + ", fairshuf verify " + JSON.stringify(v.lines).slice(0, 400));
    }
    for (const p of v.problems)
      ok(v.name + ": says " + JSON.stringify(p.slice(0, 70)), problems.includes(p), "problems: " + problems.slice(0, 400));
    for (const f of v.facts)
      ok(v.name + ": says " + JSON.stringify(f.slice(0, 70)), facts.includes(f), "facts: " + facts.slice(0, 400));
    if (v.order) {
      // Faces: red for hearts, diamonds and the red joker, black otherwise.
      // The computed colour of the first 416 faces; past them (a large
      // shoe's faces off screen are not styled until shown) the class
      // that gives it.
      const colours = await page.$$eval("#cards .card", (els) =>
        els.map((e, k) => [e.dataset.name, k < 416 ? getComputedStyle(e).color :
          e.classList.contains("red") ? "rgb(200, 16, 46)" : e.classList.contains("black") ? "rgb(17, 17, 17)" : "?"]));
      const bad = colours.filter(([name, c]) => {
        const red = name === "RJ" || /[hd]$/.test(name);
        return red ? c !== "rgb(200, 16, 46)" : c !== "rgb(17, 17, 17)";
      });
      ok(v.name + ": " + colours.length + " faces in red and black", bad.length === 0 &&
         colours.length === v.order.split(" ").length, JSON.stringify(bad.slice(0, 3)));
    }
    if (v.screenshot) await page.screenshot({ path: shot, fullPage: true });
  }
  // A client seed with a line break in the page's address (#client_seed=):
  // put in the field escaped, the escapes box ticked (the field drops it).
  await page.goto(pathToFileURL(html).href + "?prefill#client_seed=" + encodeURIComponent("a\\b\r\nc") + "&nonce=3");
  const pre = await page.evaluate(() => [document.getElementById("client").value,
    (document.getElementById("client-escapes") || {}).checked, document.getElementById("nonce").value]);
  ok("an address's client seed with a line break is put in escaped", pre[0] === "a\\\\b\\r\\nc" &&
     pre[1] === true && pre[2] === "3", JSON.stringify(pre));
  // The exact rejection, word by word, against the C library's answers.
  if (process.env.REDUCE_CASES) {
    const cases = readFileSync(process.env.REDUCE_CASES, "utf8").trim().split("\n")
      .filter((l) => l).map((l) => l.split(" "));
    const wrong = await page.evaluate((cs) => cs.filter(([x, r, want]) => {
      const j = window.fairshuf.reduceWord(BigInt(x), BigInt(r));
      return (j === null ? "reject" : j.toString()) !== want;
    }), cases);
    ok("reduction = C on " + cases.length + " words (" +
       cases.filter((c) => c[2] === "reject").length + " rejected)",
       cases.length > 0 && wrong.length === 0, JSON.stringify(wrong.slice(0, 3)));
  }
  // Group numbers are 32 bits: from group 2^32 - 2, 58 cards (two groups)
  // are dealt and 104 (three) refused, never a wrapped group 0.
  const wrap = await page.evaluate(async () => {
    const seed = new Uint8Array(32).map((_, k) => k), out = [];
    for (const n of [58, 104]) {
      try {
        const d = await window.fairshuf.dealOrder(seed, new Uint8Array(0), 0, n, 1, 2 ** 32 - 2);
        out.push("dealt " + d.length);
      } catch (e) {
        out.push((e.constructor.name === "BadInput" ? "bad input: " : "") + e.message);
      }
    }
    return out;
  });
  ok("group numbers stop at 2^32 - 1", wrap[0] === "dealt 58" &&
     wrap[1].startsWith("bad input: the deal needs more than 2^32 groups"), JSON.stringify(wrap));
  ok("no network requests", requests.length === 0, requests.join(" "));
  ok("no page errors", errors.length === 0, errors.join(" | "));
} finally {
  await browser.close();
}
console.log(results.join("\n"));
