// Drives code-server in headless Chromium to check the safereq extension as a user sees it: the status bar,
// diagnostics in the Problems panel, a hover with a clause citation, a quick fix that changes the text, and
// the trace preview. Takes screenshots for the extension's README. Prints one line per check and a closing
// "N passed, N failed"; exits non-zero when any check fails. Started by run.sh, which owns code-server.
//
//   node driver.mjs --url http://127.0.0.1:PORT --workspace DIR --screenshots DIR [--logs DIR]
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

// playwright-core comes from the extension's devDependencies (one lock file for the client and its tests).
const clientDir = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..', 'client-vscode');
const { chromium } = createRequire(join(clientDir, 'package.json'))('playwright-core');

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const URL_BASE = arg('url', 'http://127.0.0.1:8080');
const WORKSPACE = arg('workspace');
const SHOTS = arg('screenshots');
const LOGS = arg('logs');
const CHROMIUM = process.env.SAFEREQ_E2E_CHROMIUM || '/usr/bin/chromium';
/** Long enough for a cold server start on a busy 2-core machine; every wait is on a condition, not a sleep. */
const T = Number(process.env.SAFEREQ_E2E_TIMEOUT_MS || 60000);

const t0 = Date.now();
const log = (...a) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...a);
const flat = (s) => s.replace(/\u00a0/g, ' ').replace(/\s+/g, ' ').trim();
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Finds, in the workspace's Markdown files, a requirement statement using "must" and a cited clause. */
function findTargets(root) {
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      if (name.startsWith('.') || name === 'node_modules') continue;
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.md')) files.push(p);
    }
  };
  walk(root);
  const CLAUSE = /ISO(?:\/PAS)? \d{4,5}(?:-\d{1,2})?:\d{4} §\d+(?:\.\d+)*/;
  for (const file of files) {
    const lines = readFileSync(file, 'utf8').split(/\r?\n/);
    let must;
    let clause;
    let item;
    lines.forEach((text, i) => {
      const heading = /^#{1,6}\s+([A-Z][A-Z0-9]*(?:[-_.][A-Z0-9]+)*):/.exec(text);
      if (heading) item = heading[1];
      const m = /\bmust\b/.exec(text);
      if (!must && m && !/^\s*(#|[-*>]|\|)/.test(text) && item) must = { line: i + 1, col: m.index + 1, text, item };
      const c = CLAUSE.exec(text);
      if (!clause && c && /^\s*[-*]?\s*Cites:/i.test(text)) clause = { line: i + 1, col: c.index + 5, ref: c[0] };
    });
    if (must && clause) return { file, rel: relative(root, file), must, clause };
  }
  throw new Error(`no Markdown file in ${root} has both a "must" requirement and a "Cites:" clause reference`);
}

/** The workspace's Markdown files by path, hidden folders left out. */
function markdownFiles(root) {
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      if (name.startsWith('.') || name === 'node_modules') continue;
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.md')) files.push(p);
    }
  };
  walk(root);
  return files;
}

/**
 * Finds an item to derive from whose derived kind lives in another document: a document with FSR items and
 * another holding most TSR items (the usual functional → technical safety concept step).
 */
function findDeriveTarget(root) {
  const files = markdownFiles(root);
  const headings = (file, kind) => readFileSync(file, 'utf8').split(/\r?\n/)
    .map((text, i) => ({ m: new RegExp(`^#{1,6}\\s+(${kind}-\\d+):`).exec(text), line: i + 1 }))
    .filter((h) => h.m).map((h) => ({ id: h.m[1], line: h.line }));
  const tsr = files.map((f) => ({ file: f, n: headings(f, 'TSR').length })).sort((a, b) => b.n - a.n);
  if (!tsr.length || !tsr[0].n || (tsr[1] && tsr[1].n === tsr[0].n)) return undefined;
  for (const file of files) {
    if (file === tsr[0].file) continue;
    const [fsr] = headings(file, 'FSR');
    if (fsr) return { rel: relative(root, file), item: fsr.id, line: fsr.line, into: relative(root, tsr[0].file) };
  }
  return undefined;
}

/** The first Markdown file (by path) with two item headings: renaming the first ID to the second must be refused. */
function findRenameTarget(root) {
  const files = markdownFiles(root);
  for (const file of files) {
    const headings = [];
    readFileSync(file, 'utf8').split(/\r?\n/).forEach((text, i) => {
      const h = /^(#{1,6}\s+)([A-Z][A-Z0-9]*(?:[-_.][A-Z0-9]+)*):\s*\S/.exec(text);
      if (h) headings.push({ line: i + 1, col: h[1].length + 1, id: h[2], text });
    });
    const [first, second] = headings.filter((h, i, all) => all.findIndex((o) => o.id === h.id) === i);
    if (first && second) return { file, rel: relative(root, file), first, second };
  }
  throw new Error(`no Markdown file in ${root} has two item headings`);
}

const results = [];
let page;

/** Runs one check; a check whose prerequisite failed is reported as not run (and counts as failed). */
async function check(name, needs, fn) {
  const missing = needs.filter((n) => !results.find((r) => r.name === n && r.ok));
  if (missing.length) {
    results.push({ name, ok: false });
    log(`SKIP  ${name} (needs: ${missing.join(', ')})`);
    return;
  }
  try {
    const detail = await fn();
    results.push({ name, ok: true });
    log(`PASS  ${name}${detail ? ` — ${detail}` : ''}`);
  } catch (err) {
    results.push({ name, ok: false });
    log(`FAIL  ${name}: ${String(err?.message ?? err).split('\n')[0]}`);
    if (page && process.env.SAFEREQ_E2E_RUN) {
      const safe = name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
      await page.screenshot({ path: join(process.env.SAFEREQ_E2E_RUN, `fail-${safe}.png`) }).catch(() => {});
    }
  }
}

/** Screenshot for the README, once fade-in animations (hovers, notifications) have finished. */
async function shot(name) {
  if (!SHOTS) return;
  await page
    .waitForFunction(
      () => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
      undefined,
      { timeout: 3000 },
    )
    .catch(() => {});
  await page.screenshot({ path: join(SHOTS, name) });
}

async function dismissNotifications() {
  await page.keyboard.press('Escape');
  const clear = page.locator('.notifications-toasts .codicon-notifications-clear, .notification-toast .codicon-close');
  for (const b of await clear.all()) await b.click({ timeout: 1000 }).catch(() => {});
}

/** Opens a workspace file by clicking through the Explorer (Quick Open is unreliable headless). */
async function openInExplorer(relPath) {
  const parts = relPath.split(sep);
  for (const [i, part] of parts.entries()) {
    const row = page
      .locator('.explorer-folders-view .monaco-list-row')
      .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${escapeRe(part)}$`) }) })
      .first();
    await row.waitFor({ timeout: T });
    const isFolder = i < parts.length - 1;
    if (!isFolder || (await row.getAttribute('aria-expanded')) !== 'true') await row.click();
  }
  const tab = page.locator('.tabs-container .tab', { hasText: parts[parts.length - 1] });
  await tab.first().waitFor({ timeout: T });
  await page.waitForSelector('.editor-instance .monaco-editor .view-lines', { timeout: T });
}

/** Moves the cursor with Go to Line/Column (Ctrl+G), 1-based like the editor. */
async function goTo(line, col) {
  await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+G');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: T });
  await input.fill(`:${line}:${col}`);
  await input.press('Enter');
  await input.waitFor({ state: 'hidden', timeout: T });
}

/** Runs a command by its palette title (F1; the ">" prefix selects commands). */
async function runCommand(title) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: T });
  await input.fill(`>${title}`);
  const entry = page.locator('.quick-input-widget .monaco-list-row', { hasText: title.replace(/^[^:]*:\s*/, '') }).first();
  await entry.waitFor({ state: 'visible', timeout: T });
  await input.press('Enter');
  await input.waitFor({ state: 'hidden', timeout: T });
}

/** runCommand for a command run right after another window took the focus: Enter is pressed again until the
 *  palette closes, since an Enter that comes while the list is still filtering picks nothing. */
async function runCommandUntilClosed(title) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: T });
  await input.fill(`>${title}`);
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: title.replace(/^[^:]*:\s*/, '') }).first()
    .waitFor({ state: 'visible', timeout: T });
  for (let attempt = 0; attempt < 4 && (await input.isVisible()); attempt++) {
    await input.press('Enter').catch(() => {});
    await input.waitFor({ state: 'hidden', timeout: T / 4 }).catch(() => {});
  }
  await input.waitFor({ state: 'hidden', timeout: 1000 });
}

async function viewLines() {
  return (await page.locator('.editor-instance .monaco-editor .view-line').allInnerTexts()).map(flat);
}

async function printLogs() {
  if (!LOGS) return;
  const found = [];
  const walk = (d) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (/safereq|exthost\.log/i.test(p)) found.push(p);
    }
  };
  try {
    walk(LOGS);
  } catch {
    return;
  }
  for (const f of found) {
    const lines = readFileSync(f, 'utf8').trim().split('\n').slice(-25);
    console.log(`--- ${relative(LOGS, f)} (last ${lines.length} lines)\n${lines.join('\n')}`);
  }
}

async function main() {
  if (!WORKSPACE) throw new Error('--workspace is required');
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  const target = findTargets(WORKSPACE);
  log(`target ${target.rel}: "must" at ${target.must.line}:${target.must.col} in ${target.must.item}, ${target.clause.ref} at line ${target.clause.line}`);

  const profile = mkdtempSync(join(tmpdir(), 'safereq-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 800 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    page = browser.pages()[0] ?? (await browser.newPage());
    page.on('console', (m) => {
      if (m.type() === 'error' && /safereq/i.test(m.text())) log('console:', m.text().slice(0, 300));
    });

    await check('workbench opens the workspace', [], async () => {
      await page.goto(`${URL_BASE}/?folder=${encodeURIComponent(WORKSPACE)}`, { waitUntil: 'domcontentloaded' });
      await page.waitForSelector('.monaco-workbench', { timeout: T });
      await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: T });
    });

    await check('extension activates (status bar item)', ['workbench opens the workspace'], async () => {
      await openInExplorer(target.rel);
      const item = page.locator('.statusbar-item', { hasText: 'safereq' }).first();
      await item.waitFor({ timeout: T });
      return flat(await item.innerText());
    });

    await check('server reports ready in the status bar', ['extension activates (status bar item)'], async () => {
      const ready = page.locator('.statusbar-item', { has: page.locator('.codicon-shield') }).filter({ hasText: 'safereq' });
      await ready.first().waitFor({ timeout: T });
      return flat(await ready.first().innerText());
    });

    await check('Problems panel lists safereq diagnostics', ['extension activates (status bar item)'], async () => {
      await page.waitForSelector('.editor-instance .monaco-editor .squiggly-warning, .editor-instance .monaco-editor .squiggly-error, .editor-instance .monaco-editor .squiggly-info', { timeout: T });
      await page.keyboard.press('Control+Shift+M');
      const rows = page.locator('.markers-panel .monaco-list-row', { hasText: 'safereq' });
      await rows.first().waitFor({ timeout: T });
      const mustRow = page.locator('.markers-panel .monaco-list-row', { hasText: /must/ }).filter({ hasText: 'safereq' });
      await mustRow.first().waitFor({ timeout: T });
      await goTo(target.must.line, target.must.col);
      await dismissNotifications();
      await shot('e2e-problems.png');
      return `${await rows.count()} rows; ${flat(await mustRow.first().innerText()).slice(0, 120)}`;
    });

    await check('hover on a clause reference cites the clause', ['extension activates (status bar item)'], async () => {
      await goTo(target.clause.line, target.clause.col);
      const [, part, clause] = /(\d{4,5}-\d{1,2}):\d{4} §([\d.]+)/.exec(target.clause.ref) ?? [];
      const hover = page.locator('.monaco-hover', { hasText: clause ?? target.clause.ref }).filter({ hasText: part ?? '' });
      // editor.action.showHover; the request goes to the server, which may still be loading the workspace.
      for (let attempt = 0; attempt < 5 && !(await hover.first().isVisible()); attempt++) {
        await page.keyboard.press('Control+K');
        await page.keyboard.press('Control+I');
        await hover.first().waitFor({ state: 'visible', timeout: T / 5 }).catch(() => {});
      }
      await hover.first().waitFor({ state: 'visible', timeout: 1000 });
      await shot('e2e-hover.png');
      return flat(await hover.first().innerText()).slice(0, 160);
    });

    await check('renaming an ID onto an existing one is refused and leaves the text alone', ['server reports ready in the status bar'], async () => {
      const r = findRenameTarget(WORKSPACE);
      await dismissNotifications();
      await openInExplorer(r.rel);
      await goTo(r.first.line, r.first.col + 1);
      await page.keyboard.press('F2');
      const input = page.locator('.rename-box input, .rename-box .rename-input').first();
      await input.waitFor({ state: 'visible', timeout: T });
      await input.fill(r.second.id);
      await input.press('Enter');
      const refusal = page.locator('.notification-toast', { hasText: 'already defined' }).first();
      await refusal.waitFor({ state: 'visible', timeout: T });
      // The Markdown extension's heading rename must not have run either: the heading and the file are untouched.
      const tab = page.locator('.tabs-container .tab', { hasText: basename(r.rel) }).first();
      const heading = flat(r.first.text);
      const lines = await viewLines();
      if (!lines.includes(heading)) throw new Error(`heading changed: ${lines.find((l) => l.includes(r.second.id)) ?? '(not found)'}`);
      if (/\bdirty\b/.test((await tab.getAttribute('class')) ?? '')) throw new Error('the document was edited');
      const onDisk = readFileSync(r.file, 'utf8').split(/\r?\n/)[r.first.line - 1];
      if (onDisk !== r.first.text) throw new Error(`file changed: ${onDisk}`);
      const text = flat(await refusal.innerText()).slice(0, 140);
      await dismissNotifications();
      return `${r.first.id} → ${r.second.id}: "${text}"; "${heading}" unchanged`;
    });

    await check('Find All References lists the declaration once', ['server reports ready in the status bar'], async () => {
      const r = findRenameTarget(WORKSPACE);
      await openInExplorer(r.rel);
      await goTo(r.first.line, r.first.col + 1);
      await page.keyboard.press('Shift+F12'); // Peek References: the same providers as Find All References
      const rows = page.locator('.peekview-widget .ref-tree .monaco-list-row');
      await rows.first().waitFor({ state: 'visible', timeout: T });
      // VS Code shows the peek once every provider has answered; count the rows that show the heading line.
      const title = flat(r.first.text).replace(/^#+\s*/, '');
      const texts = (await rows.allInnerTexts()).map(flat);
      const declarations = texts.filter((t) => t.includes(title));
      await page.keyboard.press('Escape');
      if (declarations.length !== 1) throw new Error(`declaration listed ${declarations.length} times: ${texts.join(' | ').slice(0, 300)}`);
      return `${texts.length} rows, the declaration once`;
    });

    await check('rule severity setting applies live', ['Problems panel lists safereq diagnostics'], async () => {
      const mustRow = page.locator('.markers-panel .monaco-list-row', { hasText: /must/ }).filter({ hasText: 'safereq' });
      const rule = /safereq\W+([a-z0-9-]+\/[a-z0-9-]+)/.exec(flat(await mustRow.first().innerText()))?.[1];
      if (!rule) throw new Error('no rule id in the Problems row');
      // Workspace settings, as a team would commit them; the copy of the workspace is the test's own.
      const dir = join(WORKSPACE, '.vscode');
      mkdirSync(dir, { recursive: true });
      const file = join(dir, 'settings.json');
      writeFileSync(file, JSON.stringify({ 'safereq.rules': { [rule]: 'off' } }, null, 2));
      try {
        await mustRow.first().waitFor({ state: 'detached', timeout: T });
      } finally {
        writeFileSync(file, '{}\n');
      }
      await mustRow.first().waitFor({ timeout: T });
      return `${rule}: off hides it, removing the setting brings it back`;
    });

    await check('quick fix replaces "must" with "shall"', ['Problems panel lists safereq diagnostics'], async () => {
      await page.keyboard.press('Escape');
      await goTo(target.must.line, target.must.col);
      await page.keyboard.press('Control+.');
      const action = page.locator('.action-widget .monaco-list-row', { hasText: /shall/i }).first();
      await action.waitFor({ state: 'visible', timeout: T });
      await shot('e2e-quick-fix.png');
      const title = flat(await action.innerText());
      // The action list re-renders while it opens, which defeats Playwright's stability check: click by position.
      const box = await action.boundingBox();
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      const before = target.must.text.slice(Math.max(0, target.must.col - 1 - 30), target.must.col - 1);
      const expected = flat(`${before}shall`);
      await page.waitForFunction(
        (exp) => [...document.querySelectorAll('.editor-instance .monaco-editor .view-line')]
          .some((el) => el.textContent.replace(/\u00a0/g, ' ').replace(/\s+/g, ' ').includes(exp)),
        expected,
        { timeout: T },
      );
      const changed = (await viewLines()).find((l) => l.includes(expected));
      // The server re-checks the edited buffer: the finding goes away.
      const stale = page.locator('.markers-panel .monaco-list-row', { hasText: `[Ln ${target.must.line}, Col ${target.must.col}]` })
        .filter({ hasText: /must/ });
      await stale.first().waitFor({ state: 'detached', timeout: T });
      await shot('e2e-after-fix.png');
      return `applied "${title}": ${changed.slice(0, 100)}; the finding is gone`;
    });

    const SAMPLE = 'safereq-sample.md';
    await check('the walkthrough lists its steps and its first button creates a sample document with findings', ['server reports ready in the status bar'], async () => {
      await dismissNotifications();
      await page.keyboard.press('Escape');
      await runCommandUntilClosed('safereq: Get Started (Walkthrough)');
      const steps = ['Open or create a requirements folder', 'See the first findings and a quick fix', 'Index a standard you own',
        'Set a model endpoint and key', 'Run a suggestion and accept it', 'Open the traceability report'];
      for (const title of steps) {
        await page.locator('.getting-started-step', { hasText: title }).first().waitFor({ state: 'attached', timeout: T })
          .catch(() => { throw new Error(`no walkthrough step "${title}"`); });
      }
      // The step itself is a button too: the one named exactly so is the step's own button.
      const button = page.getByRole('button', { name: 'Create a Sample Document', exact: true }).first();
      await button.waitFor({ state: 'visible', timeout: T }).catch(() => { throw new Error('no "Create a Sample Document" button'); });
      await shot('e2e-walkthrough.png');
      await button.click();
      const tab = page.locator('.tabs-container .tab.active', { hasText: SAMPLE }).first();
      await tab.waitFor({ timeout: T / 4 }).catch(() => {});
      // In code-server headless the click on a walkthrough button does not always reach its command link;
      // the same command from the palette then (the detail says which way it ran).
      let how = 'its button';
      if (!(await tab.isVisible())) {
        how = 'the palette (the button click did nothing)';
        await runCommandUntilClosed('safereq: Create a Sample Requirements Document');
      }
      await tab.waitFor({ timeout: T });
      await page.waitForSelector('.editor-instance .monaco-editor .squiggly-warning, .editor-instance .monaco-editor .squiggly-error', { timeout: T });
      if (!statSync(join(WORKSPACE, SAMPLE), { throwIfNoEntry: false })) throw new Error(`${SAMPLE} was not written`);
      return `${steps.length} steps; ${SAMPLE} created by ${how} and checked`;
    });

    await check('Accept this finding asks for the reason and writes the deviation', ['the walkthrough lists its steps and its first button creates a sample document with findings'], async () => {
      const lines = readFileSync(join(WORKSPACE, SAMPLE), 'utf8').split('\n');
      const line = lines.findIndex((l) => l.includes('react quickly'));
      await goTo(line + 1, lines[line].indexOf('quickly') + 2);
      await page.keyboard.press('Control+.');
      const action = page.locator('.action-widget .monaco-list-row', { hasText: 'Accept this finding' }).filter({ hasText: 'vague-term' }).first();
      await action.waitFor({ state: 'visible', timeout: T });
      const box = await action.boundingBox();
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible', timeout: T });
      await page.locator('.quick-input-widget', { hasText: 'accept wording/vague-term' }).first().waitFor({ timeout: T });
      await input.fill('agreed with the customer in review R-7');
      await input.press('Enter');
      const written = '- Deviation: wording/vague-term "quickly": agreed with the customer in review R-7';
      await page.waitForFunction((w) => [...document.querySelectorAll('.editor-instance .monaco-editor .view-line')]
        .some((el) => el.textContent.replace(/\u00a0/g, ' ').includes(w)), written, { timeout: T });
      return written;
    });

    await check('fix all on save applies the safe fixes (editor.codeActionsOnSave)', ['the walkthrough lists its steps and its first button creates a sample document with findings'], async () => {
      await dismissNotifications();
      const dir = join(WORKSPACE, '.vscode');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'settings.json'), JSON.stringify({ '[markdown]': { 'editor.codeActionsOnSave': { 'source.fixAll.safereq': 'explicit' } } }, null, 2));
      const file = join(WORKSPACE, SAMPLE);
      const fixed = () => readFileSync(file, 'utf8').includes('The steering arbiter shall limit the requested steering torque');
      // The settings file is read asynchronously: save again until the save participant has seen it.
      for (let attempt = 0; attempt < 5 && !fixed(); attempt++) {
        await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
        await page.keyboard.press('Control+End');
        await page.keyboard.press('Enter');
        await page.keyboard.press('Control+S');
        const deadline = Date.now() + T / 5;
        while (!fixed() && Date.now() < deadline) await page.waitForTimeout(200);
      }
      const text = readFileSync(file, 'utf8');
      writeFileSync(join(dir, 'settings.json'), '{}\n');
      if (!fixed()) throw new Error('"must" is still in the saved file');
      if (!text.includes('react quickly')) throw new Error('a fix that is not safe was applied');
      if (!text.includes('- Deviation: wording/vague-term')) throw new Error('the deviation line was lost');
      return 'must → shall on save; the unsafe "quickly" and the deviation stay';
    });

    await check('Show Trace opens the trace of the item', ['server reports ready in the status bar'], async () => {
      await openInExplorer(target.rel); // the walkthrough checks left the sample document in front
      await goTo(target.must.line, 1);
      await runCommand('safereq: Show Trace of Item at Cursor');
      const tab = page.locator('.tabs-container .tab', { hasText: target.must.item });
      await tab.first().waitFor({ timeout: T });
      const frame = page.frameLocator('iframe.webview.ready').frameLocator('iframe');
      await frame.locator('body', { hasText: target.must.item }).first().waitFor({ timeout: T });
      await dismissNotifications();
      // Cosmetic: more room for the trace in the README's screenshot.
      await runCommand('View: Hide Panel').catch(() => page.keyboard.press('Escape'));
      await shot('e2e-trace.png');
      return flat(await tab.first().innerText());
    });

    await check('derived requirements are proposed where their kind lives, and Accept writes one', ['server reports ready in the status bar'], async () => {
      const derive = findDeriveTarget(WORKSPACE);
      if (!derive) throw new Error('no workspace document with an FSR item while another holds most TSR items');
      await dismissNotifications();
      await openInExplorer(derive.rel);
      await goTo(derive.line + 1, 1);
      await runCommand('safereq: Derive Requirements for Item at Cursor');
      const into = derive.into.split(sep).pop();
      const proposed = page.locator('.notification-toast', { hasText: `proposed for review in ${into}` }).first();
      await proposed.waitFor({ timeout: T });
      // The server shows the other document at the block (window/showDocument).
      await page.locator('.tabs-container .tab.active', { hasText: into }).first().waitFor({ timeout: T });
      // Word wrap splits long lines into several view lines: read the editors' text joined, spaces folded.
      const editorText = () => page.evaluate(() => [...document.querySelectorAll('.editor-instance .monaco-editor .view-line')]
        .map((el) => el.textContent).join(' ').replace(/\u00a0/g, ' ').replace(/\s+/g, ' '));
      const header = `safereq review: derived requirements from ${derive.item}`;
      await page.waitForFunction((h) => [...document.querySelectorAll('.editor-instance .monaco-editor .view-line')]
        .map((el) => el.textContent).join(' ').replace(/\u00a0/g, ' ').replace(/\s+/g, ' ').includes(h), header, { timeout: T });
      const accept = page.locator('.editor-instance .codelens-decoration a', { hasText: /^Accept$/ }).first();
      await accept.waitFor({ state: 'visible', timeout: T });
      const [, hashes, id] = /> (#{1,6}) (TSR-\d+): /.exec(await editorText()) ?? [];
      if (!id) throw new Error('no proposed TSR heading in view');
      await dismissNotifications();
      await shot('e2e-review.png');
      await accept.click();
      const done = page.locator('.notification-toast', { hasText: '1 suggestion accepted (1 derived requirement written into the document)' }).first();
      await done.waitFor({ timeout: T }).catch(async (err) => {
        const toasts = await page.locator('.notification-toast').allInnerTexts();
        throw new Error(`${err.message.split('\n')[0]}; notifications: ${toasts.map(flat).join(' | ') || 'none'}`);
      });
      // The item is now written as an item (no quote marker before its heading).
      const written = new RegExp(`(?:^|[^>] )${hashes} ${id}: `);
      if (!written.test(await editorText())) throw new Error(`${id} is not written as an item`);
      const message = flat(await done.innerText()).slice(0, 140);
      // Reject the next one: it disappears, the others stay for review.
      await dismissNotifications();
      // The block moved down below the written item: find its header (Ctrl+F) to bring it into view.
      await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
      await page.keyboard.press('Control+F');
      const find = page.locator('.find-widget textarea, .find-widget input').first();
      await find.waitFor({ state: 'visible', timeout: T });
      await find.fill('safereq review: derived');
      await find.press('Enter');
      await page.keyboard.press('Escape');
      const reject = page.locator('.editor-instance .codelens-decoration a', { hasText: /^Reject$/ }).filter({ visible: true }).first();
      const rejected = page.locator('.notification-toast', { hasText: /1 suggestion rejected; (\d+ left for review|the review block is closed)/ }).first();
      // The lenses are re-rendered when the server's new ones arrive after the edit: a click that lands on
      // a lens being replaced does nothing, so try again (each try waits on the notification).
      for (let attempt = 0; attempt < 3 && !(await rejected.isVisible()); attempt++) {
        await reject.click({ timeout: T / 3 }).catch(() => {});
        await rejected.waitFor({ timeout: T / 3 }).catch(() => {});
      }
      await rejected.waitFor({ timeout: 1000 }).catch(async (err) => {
        const toasts = await page.locator('.notification-toast').allInnerTexts();
        throw new Error(`${err.message.split('\n')[0]}; notifications: ${toasts.map(flat).join(' | ') || 'none'}`);
      });
      const after = flat(await rejected.innerText()).slice(0, 140);
      return `${derive.item} → ${into}: ${id} accepted; ${message} | ${after}`;
    });

    await check('Index Knowledge Base shows cancellable progress', ['server reports ready in the status bar'], async () => {
      await dismissNotifications();
      await runCommand('safereq: Index Knowledge Base');
      const toast = page.locator('.notification-toast', { hasText: 'safereq:' });
      const cancel = toast.locator('.monaco-button', { hasText: 'Cancel' }).first();
      const finished = page.locator('.notification-toast', { hasText: /knowledge base indexed|indexing cancelled/ }).first();
      // A small knowledge base may be indexed before the notification can be cancelled; both endings count.
      const failed = page.locator('.notification-toast', { has: page.locator('.codicon-error') }).filter({ hasText: 'safereq' }).first();
      await cancel.or(finished).or(failed).waitFor({ state: 'visible', timeout: T });
      if (await failed.isVisible()) throw new Error(flat(await failed.innerText()).slice(0, 200));
      let how = 'finished before it could be cancelled';
      if (await cancel.isVisible()) {
        await page.locator('.notification-toast.notification-fade-in-done', { hasText: 'safereq:' }).first()
          .waitFor({ timeout: 5000 }).catch(() => {});
        // For the README: wait until the server names a file ("x.pdf: page 3/106", "x.md (2/30)"), if it does.
        await toast.filter({ hasText: /page \d+\/\d+|\(\d+\/\d+\)/ }).first().waitFor({ timeout: 10000 }).catch(() => {});
        await shot('e2e-index.png');
        // One of each: one notification with a Cancel button, one status bar item saying "indexing".
        const cancels = await page.locator('.notification-toast .monaco-button', { hasText: 'Cancel' }).count();
        const spinners = await page.locator('.statusbar-item', { hasText: /indexing/i }).count();
        if (await cancel.isVisible() && (cancels !== 1 || spinners !== 1)) {
          throw new Error(`${cancels} Cancel buttons and ${spinners} status bar items while indexing`);
        }
        if (await cancel.isVisible()) {
          await cancel.click();
          how = 'cancelled';
        }
      }
      await finished.waitFor({ state: 'visible', timeout: T });
      return `${how}: ${flat(await finished.innerText()).slice(0, 120)}`;
    });

    await check('the status bar tooltip shows coverage; Open Traceability Report writes the report', ['server reports ready in the status bar'], async () => {
      await dismissNotifications();
      const item = page.locator('.statusbar-item', { has: page.locator('.codicon-shield') }).filter({ hasText: 'safereq' }).first();
      const tooltip = page.locator('.monaco-hover, .workbench-hover', { hasText: 'Coverage:' }).first();
      for (let attempt = 0; attempt < 5 && !(await tooltip.isVisible()); attempt++) {
        await page.mouse.move(0, 0);
        await item.hover();
        await tooltip.waitFor({ state: 'visible', timeout: T / 5 }).catch(() => {});
      }
      const line = flat(await tooltip.innerText()).match(/Coverage:[^\n]*/)?.[0] ?? '';
      await page.mouse.move(0, 0);
      const report = join(WORKSPACE, '.safereq', 'report', 'index.html');
      rmSync(report, { force: true });
      await runCommand('safereq: Open Traceability Report');
      const deadline = Date.now() + T;
      while (!statSync(report, { throwIfNoEntry: false }) && Date.now() < deadline) await page.waitForTimeout(200);
      const html = readFileSync(report, 'utf8');
      if (!html.includes('id="hole-count"')) throw new Error('the report page has no hole count');
      return `${line.slice(0, 120)}; wrote ${relative(WORKSPACE, report)} (${html.length} bytes)`;
    });

    await check('a server that exits at once is restarted with back-off, then stopped with one message', ['server reports ready in the status bar'], async () => {
      await dismissNotifications();
      const dir = join(WORKSPACE, '.vscode');
      mkdirSync(dir, { recursive: true });
      const script = join(dir, 'exits-at-once.sh');
      writeFileSync(script, '#!/bin/sh\nexit 3\n', { mode: 0o755 });
      const started = Date.now();
      writeFileSync(join(dir, 'settings.json'), JSON.stringify({ 'safereq.server.path': script }));
      const gaveUp = page.locator('.notification-toast', { hasText: 'not restarted again' });
      await gaveUp.first().waitFor({ state: 'visible', timeout: T });
      const seconds = (Date.now() - started) / 1000;
      // The delays add up to 15.5 s; without back-off the client gave up within a fraction of a second.
      if (seconds < 15) throw new Error(`gave up after ${seconds.toFixed(1)} s: no back-off`);
      const count = await gaveUp.count();
      if (count !== 1) throw new Error(`${count} notifications`);
      const text = flat(await gaveUp.first().innerText()).slice(0, 160);
      await dismissNotifications();
      return `gave up after ${seconds.toFixed(1)} s: ${text}`;
    });

    await check('a missing server is reported with the install command', ['extension activates (status bar item)'], async () => {
      await dismissNotifications();
      // run.sh starts code-server with no safereq on PATH, so nothing else can stand in for the bad path.
      mkdirSync(join(WORKSPACE, '.vscode'), { recursive: true });
      writeFileSync(join(WORKSPACE, '.vscode', 'settings.json'), JSON.stringify({ 'safereq.server.path': '/nonexistent/safereq' }));
      // The notification closes itself later, so it is a progress notification; VS Code keeps one in the
      // notification center rather than as a toast after toasts were hidden (Escape): look in both.
      const shown = page.locator('.notification-toast, .notifications-center .notification-list-item', { hasText: 'language server was not found' }).first();
      await shown.waitFor({ state: 'visible', timeout: T / 4 }).catch(() => {});
      if (!(await shown.isVisible())) await runCommand('Notifications: Show Notifications');
      await shown.waitFor({ state: 'visible', timeout: T });
      const text = flat(await shown.innerText());
      if (!/Install it with: pipx install safereq/.test(text)) throw new Error(`no install command in: ${text}`);
      const status = page.locator('.statusbar-item', { hasText: 'safereq: no server' }).first();
      await status.waitFor({ timeout: T });
      return text.slice(0, 160);
    });

    await check('the missing-server notification closes once the server is back', ['a missing server is reported with the install command'], async () => {
      writeFileSync(join(WORKSPACE, '.vscode', 'settings.json'), '{}\n'); // back to the user setting: a working server
      const ready = page.locator('.statusbar-item', { has: page.locator('.codicon-shield') }).filter({ hasText: 'safereq' });
      await ready.first().waitFor({ timeout: T });
      const shown = page.locator('.notification-toast, .notifications-center .notification-list-item', { hasText: 'language server was not found' });
      await shown.first().waitFor({ state: 'detached', timeout: T });
      return `status bar: ${flat(await ready.first().innerText())}; the notification is gone`;
    });

    await check('the output channel has one time stamp a line and no noise', ['server reports ready in the status bar'], async () => {
      const files = [];
      const walk = (d) => {
        for (const n of readdirSync(d)) {
          const p = join(d, n);
          if (statSync(p).isDirectory()) walk(p);
          else if (/safereq\.log$/.test(p)) files.push(p);
        }
      };
      if (LOGS) walk(LOGS);
      if (!files.length) throw new Error('no safereq output channel log');
      const lines = files.flatMap((f) => readFileSync(f, 'utf8').split('\n'));
      const bad = [
        ['two time stamps', /^\S+ \S+ \[\w+\] \[(Trace|Debug|Info|Warn|Error)\s*-/],
        ['server time stamp', /^\S+ \S+ \[\w+\] \d{4}-\d\d-\d\d /],
        ['stray boolean', /^\S+ \S+ \[\w+\] (true|false)$/],
        ['empty entry', /^\S+ \S+ \[\w+\]\s*$/],
        ['stream error', /Cannot call write after a stream was destroyed/],
        ['traceback', /Traceback \(most recent call last\)|^\s+at \S+ \(/],
      ];
      for (const [what, re] of bad) {
        const hit = lines.find((l) => re.test(l));
        if (hit) throw new Error(`${what}: ${hit.slice(0, 200)}`);
      }
      return `${lines.length} lines checked`;
    });
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

let crashed = false;
try {
  await main();
} catch (err) {
  crashed = true;
  log(`ERROR ${err?.message ?? err}`);
}
const passed = results.filter((r) => r.ok).length;
const failed = results.length - passed + (crashed ? 1 : 0);
if (failed) await printLogs();
log(`done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
