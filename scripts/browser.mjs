// Finds an installed Chrome/Chromium and launches it headless with puppeteer-core.
// Software mode (default): SwiftShader through ANGLE. GPU mode (--gpu or BROOKGL_GPU=1): the
// hardware flags, and a refusal when the page still reports a software renderer.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer from 'puppeteer-core';

const CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/opt/google/chrome/chrome',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
  'C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe',
];

export function findBrowser() {
  for (const name of ['CHROME_PATH', 'PUPPETEER_EXECUTABLE_PATH']) {
    const p = process.env[name];
    if (p) {
      if (!fs.existsSync(p)) throw new Error(`(brookgl) ${name} is set to ${p}, but no file is there`);
      return p;
    }
  }
  const found = CANDIDATES.find((p) => fs.existsSync(p));
  if (found) return found;
  throw new Error(
    '(brookgl) no Chrome or Chromium found. Install one (Debian/Ubuntu: `sudo apt-get install -y chromium`; ' +
      'macOS: install Google Chrome) or set CHROME_PATH to its executable.',
  );
}

export const gpuMode = () => process.argv.includes('--gpu') || process.env.BROOKGL_GPU === '1';

const SOFTWARE_FLAGS = ['--use-angle=swiftshader', '--enable-unsafe-swiftshader'];
// GPU_CHROME_FLAGS overrides (the GPU machine's pack sets it); these worked on an NVIDIA H100.
const GPU_FLAGS = process.env.GPU_CHROME_FLAGS
  ? process.env.GPU_CHROME_FLAGS.split(/\s+/).filter(Boolean)
  : ['--use-angle=vulkan', '--enable-features=Vulkan', '--disable-vulkan-surface', '--ignore-gpu-blocklist', '--enable-gpu'];

/**
 * Launches the browser and opens the one page a driver works in (tests, then each demo; or a
 * benchmark). `origin` is the local server's URL: in GPU mode the page first settles there.
 */
export async function launch({ gpu = gpuMode(), origin } = {}) {
  const executablePath = findBrowser();
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'brookgl-chrome-'));
  const browser = await puppeteer.launch({
    executablePath,
    headless: true,
    userDataDir,
    protocolTimeout: 600_000,
    dumpio: process.env.BROOKGL_DUMPIO === '1', // the browser's own stderr, for diagnosing GPU runs
    args: [
      '--no-sandbox',
      '--disable-dev-shm-usage',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--disable-background-timer-throttling',
      '--disable-renderer-backgrounding',
      '--disable-backgrounding-occluded-windows',
      ...(gpu ? GPU_FLAGS : SOFTWARE_FLAGS),
      ...(process.env.BROOKGL_EXTRA_FLAGS ?? '').split(/\s+/).filter(Boolean),
    ],
  });
  const page = gpu ? await settleGpu(browser, origin) : await browser.newPage();
  const close = async () => {
    await browser.close().catch(() => {});
    fs.rmSync(userDataDir, { recursive: true, force: true });
  };
  return { browser, page, close, gpu, executablePath };
}

/**
 * Seen on an NVIDIA H100 (ANGLE/Vulkan, Chromium 156): the GPU process fails its first command
 * buffer ("Failed to send GpuControl.CreateCommandBuffer") and restarts, losing the first WebGL
 * context of the first page or detaching the page being loaded; opening further pages later
 * crashed the browser. So a GPU run opens pages on the local server until one keeps a WebGL2
 * context for a moment, and then does all its work in that page (same-site navigations keep its
 * renderer process).
 */
async function settleGpu(browser, origin) {
  for (let attempt = 1; attempt <= 5; attempt++) {
    const page = await browser.newPage();
    try {
      if (origin) await page.goto(`${origin}/package.json`);
      const ok = await page.evaluate(async () => {
        const gl = new OffscreenCanvas(1, 1).getContext('webgl2');
        if (!gl) return false;
        gl.clear(gl.COLOR_BUFFER_BIT);
        gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
        await new Promise((r) => setTimeout(r, 1500));
        return !gl.isContextLost();
      });
      if (ok) return page;
      console.error(`(brookgl) GPU warm-up ${attempt}: the WebGL2 context was lost; trying again`);
    } catch (e) {
      console.error(`(brookgl) GPU warm-up ${attempt}: ${e.message}; trying again`);
    }
    await page.close().catch(() => {});
  }
  throw new Error('(brookgl) the GPU process kept losing WebGL2 contexts during warm-up');
}

/** Refuses to go on in GPU mode when the page's WebGL2 renderer is a software one. */
export function checkRenderer(renderer, gpu) {
  if (gpu && /swiftshader|llvmpipe|software|softpipe/i.test(renderer)) {
    throw new Error(`(brookgl) a GPU run was asked for, but WebGL2 reports a software renderer: ${renderer}. Check the GPU drivers and the browser flags.`);
  }
}
