// What every gallery page shares: the frame loop (one frame at a time, restarts applied between
// frames), the busy indication of long runs, error display, and the hooks the demo test run
// (scripts/test.mjs) watches: window.__demoFrames (frames completed), window.__demoBusy (runs
// in progress) and window.__demoReady.

export const $ = (id) => document.getElementById(id);

/** `?test=1`: the demo test run; pages use reduced sizes so the whole run stays short. */
export const testMode = new URLSearchParams(location.search).get('test') === '1';

window.__demoFrames = 0;
window.__demoBusy = 0;

/**
 * "View source" (as three.js's examples have): a corner link to lib/source.html listing this
 * page's index.html and its own module scripts, each with links to what it imports.
 */
function viewSourceLink() {
  const demos = new URL('../', import.meta.url); // this file is demos/lib/demo.js
  const here = new URL('./', location.href);
  if (!here.href.startsWith(demos.href)) return;
  const dir = here.href.slice(demos.href.length); // 'filter/', 'papers/horn-36/'
  const scripts = [...document.querySelectorAll('script[type=module][src]')].map((s) => new URL(s.getAttribute('src'), location.href).href).filter((u) => u.startsWith(demos.href)).map((u) => u.slice(demos.href.length));
  const files = [`${dir}index.html`, ...scripts];
  const a = document.createElement('a');
  a.className = 'view-source';
  a.href = new URL(`lib/source.html?page=${encodeURIComponent(dir)}&files=${files.join(',')}`, demos).href;
  a.textContent = 'View source';
  a.title = files.join(', ');
  // In the flow, beside the page's back link (a fixed corner button covered text and code boxes).
  const back = [...document.querySelectorAll('body > p')].find((p) => /← gallery/.test(p.textContent));
  if (back) back.append(' · ', a);
  else {
    const p = document.createElement('p');
    p.append(a);
    document.body.prepend(p);
  }
}
if (document.readyState === 'loading') addEventListener('DOMContentLoaded', viewSourceLink);
else viewSourceLink();

/** Shows an error in the page's `#error` box (the test run fails on any text there). */
export function showError(e) {
  const box = $('error');
  if (box) box.textContent = e?.message ?? String(e);
  else console.error(e);
}

export function clearError() {
  const box = $('error');
  if (box) box.textContent = '';
}

/**
 * Steps a simulation once per animation frame. `frame` may await the GPU; the next frame starts
 * only when it has finished, and `restart()` (Restart buttons, new counts) only asks for `setup`
 * to run before the next frame, so a simulation is never disposed while a step still uses it.
 * Returns `{ restart, stopped }`; the loop stops at the first error and shows it.
 */
export function animate({ setup, frame }) {
  let wanted = true;
  let stopped = false;
  const loop = async () => {
    try {
      if (wanted) {
        wanted = false;
        clearError();
        await setup();
      }
      await frame();
      window.__demoFrames++;
    } catch (e) {
      stopped = true;
      showError(e);
      return;
    }
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
  return {
    restart() {
      wanted = true;
      if (stopped) {
        stopped = false;
        requestAnimationFrame(loop);
      }
    },
  };
}

/** Resolves after `k` animation frames. */
export const frames = (k) =>
  new Promise((resolve) => {
    const f = () => (k-- <= 0 ? resolve() : requestAnimationFrame(f));
    requestAnimationFrame(f);
  });

/**
 * Runs `fn` with the page marked busy: `#busy` shows `label` (and a Cancel button when
 * `cancellable`), controls named in `disable` are disabled, and a second call while one is
 * running is refused. `fn` receives `{ progress(text), cancelled() }`; `progress` throws a
 * `Cancelled` error once the user has pressed Cancel, so long loops stop at their next report.
 */
export function busyRunner({ disable = [], cancellable = false } = {}) {
  let running = null;
  return async function run(label, fn) {
    if (running) return undefined;
    const state = { cancel: false };
    running = state;
    window.__demoBusy++;
    const box = $('busy');
    const text = document.createElement('span');
    text.textContent = `${label}…`;
    const cancel = document.createElement('button');
    cancel.textContent = 'Cancel';
    cancel.onclick = () => {
      state.cancel = true;
      text.textContent = 'cancelling after the current step…';
    };
    box?.replaceChildren(text, ...(cancellable ? [' ', cancel] : []));
    box?.classList.add('on');
    for (const id of disable) if ($(id)) $(id).disabled = true;
    document.body.style.cursor = 'progress';
    // let the page paint the busy state before the GPU work starts
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    try {
      return await fn({
        progress(m) {
          if (state.cancel) throw new Cancelled();
          text.textContent = m;
        },
        cancelled: () => state.cancel,
      });
    } finally {
      running = null;
      window.__demoBusy--;
      box?.replaceChildren();
      box?.classList.remove('on');
      for (const id of disable) if ($(id)) $(id).disabled = false;
      document.body.style.cursor = '';
    }
  };
}

/**
 * Wraps `fn` for controls that re-run a computation as they move (sliders dragged faster than the
 * GPU answers): a call while a run is in progress asks for one more run when it ends, so the last
 * inputs are always shown and runs never overlap. While it runs, `#busy` shows `label` (the page
 * is given a frame to paint it before the work starts). Counts in window.__demoBusy; errors show
 * in `#error`.
 */
export function latest(fn, label = 'computing') {
  let busy = false;
  let again = false;
  return async function run() {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    window.__demoBusy++;
    const box = $('busy');
    box?.replaceChildren(`${label}…`);
    box?.classList.add('on');
    try {
      do {
        again = false;
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
        await fn();
      } while (again);
      clearError();
    } catch (e) {
      showError(e);
    } finally {
      busy = false;
      window.__demoBusy--;
      box?.replaceChildren();
      box?.classList.remove('on');
    }
  };
}

export class Cancelled extends Error {
  constructor() {
    super('cancelled');
    this.name = 'Cancelled';
  }
}

/** The paper a page comes from: a linked citation and a quoted passage, as a <blockquote>. */
export function paperBox({ cite, href, quote, page }) {
  const box = document.createElement('aside');
  box.className = 'paper';
  const a = document.createElement('a');
  a.href = href;
  a.textContent = cite;
  const p = document.createElement('p');
  p.append('From ', a);
  if (page) {
    const l = document.createElement('a');
    l.href = page;
    l.textContent = 'the paper’s page in this gallery';
    p.append(' · ', l);
  }
  box.append(p);
  if (quote) {
    const q = document.createElement('blockquote');
    q.textContent = quote;
    box.append(q);
  }
  return box;
}
