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
    await page.fill("#json", v.json || "");
    await page.fill("#seed", v.seed);
    await page.fill("#commitment", v.commitment || "");
    await page.fill("#client", v.client || "");
    await page.fill("#nonce", String(v.nonce ?? 0));
    await page.fill("#decks", String(v.decks ?? 1));
    await page.fill("#jokers", String(v.jokers ?? 0));
    await page.fill("#dealt", v.dealt || "");
    await page.click("#verify");
    await page.waitForSelector('#status[data-done="1"]', { timeout: 60000 });
    const status = (await page.textContent("#status")).trim();
    const problems = (await page.textContent("#problems")).trim();
    const order = await page.getAttribute("#cards", "data-order");
    ok(v.name + ": status " + v.status, status === v.status, "got " + status + " (" + problems + ")");
    if (v.order)
      ok(v.name + ": deal order equals the C output", order === v.order,
         "got " + (order || "").slice(0, 80) + "...");
    if (v.problem)
      ok(v.name + ": says what differs", problems.includes(v.problem), "problems: " + problems);
    if (v.order) {
      // Faces: red for hearts, diamonds and the red joker, black otherwise.
      const colours = await page.$$eval("#cards .card", (els) =>
        els.map((e) => [e.dataset.name, getComputedStyle(e).color]));
      const bad = colours.filter(([name, c]) => {
        const red = name === "RJ" || /[hd]$/.test(name);
        return red ? c !== "rgb(200, 16, 46)" : c !== "rgb(17, 17, 17)";
      });
      ok(v.name + ": " + colours.length + " faces in red and black", bad.length === 0 &&
         colours.length === v.order.split(" ").length, JSON.stringify(bad.slice(0, 3)));
    }
    if (v.screenshot) await page.screenshot({ path: shot, fullPage: true });
  }
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
  ok("no network requests", requests.length === 0, requests.join(" "));
  ok("no page errors", errors.length === 0, errors.join(" | "));
} finally {
  await browser.close();
}
console.log(results.join("\n"));
