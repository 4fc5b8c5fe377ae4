// SPDX-License-Identifier: MIT
// Opens hipgrain HTML reports in headless Chromium (Debian's) and prints,
// per page, one JSON line of what a reader would see: the findings, each
// placement SVG's series, the tables, whether any injected markup ran, and
// whether sorting works.  Optionally takes a screenshot.
//
// usage: node browser_check.js PAGE.html[=SHOT.png] ...
'use strict';
const path = require('path');
const fs = require('fs');
const os = require('os');
const { chromium } = require('playwright-core');

const CHROMIUM = process.env.HIPGRAIN_CHROMIUM || '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
  '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];

function facts() {
  const q = (s) => Array.from(document.querySelectorAll(s));
  const num = (tr, i) => +(tr.cells[i].dataset.v || 0);
  const out = {
    title: document.title,
    pwned: window.__pwned || null,
    scripts: q('script').length,
    foreign: q('img,iframe,object,embed,link,a[href]').length,
    findings: q('#findings .finding').map((d) => ({
      rule: d.dataset.rule, text: d.textContent })),
    svgs: q('svg.placement').map((s) => ({
      pid: s.dataset.pid,
      series: Array.from(s.querySelectorAll('path.series')).map((p) => ({
        name: p.dataset.series, points: (p.getAttribute('d') || '').split(' ').length })),
    })),
    allocRows: q('#alloc-table tbody tr').length,
    kernels: q('#kernel-table tbody tr td.kernel').map((td) => td.textContent),
    sites: q('#alloc-table td.site').map((td) => td.textContent),
    sources: q('pre.src').length,
  };
  // Sorting: the bytes column, twice (descending, then ascending).
  const th = q('#alloc-table th')[4];
  if (th) {
    th.click();
    const a = q('#alloc-table tbody tr').map((r) => num(r, 4));
    th.click();
    const b = q('#alloc-table tbody tr').map((r) => num(r, 4));
    out.sortDesc = a.every((v, i) => !i || a[i - 1] >= v);
    out.sortAsc = b.every((v, i) => !i || b[i - 1] <= v);
  }
  return out;
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hgchrome-'));
  // A persistent context on a fresh directory: Chromium's own profile,
  // new for every run and removed after it.
  const ctx = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM, args: ARGS, viewport: { width: 1200, height: 1600 } });
  try {
    for (const arg of process.argv.slice(2)) {
      const [page_path, shot] = arg.split('=');
      const page = await ctx.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      page.on('dialog', (d) => { errors.push('dialog: ' + d.message()); d.dismiss(); });
      const t0 = Date.now();
      await page.goto('file://' + path.resolve(page_path), { waitUntil: 'load' });
      const loadMs = Date.now() - t0;
      if (shot)
        await page.screenshot({ path: shot, fullPage: false });
      const f = await page.evaluate(facts);
      f.page = page_path;
      f.loadMs = loadMs;
      f.errors = errors;
      console.log(JSON.stringify(f));
      await page.close();
    }
  } finally {
    await ctx.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => { console.error(String(e)); process.exit(1); });
