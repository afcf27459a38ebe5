// The web app manifest's PNG icons (static/icon-192.png, static/icon-512.png),
// drawn from static/favicon.svg by headless Chromium. Run once after changing
// the SVG, and commit the PNGs: the build only copies them.
//
// Usage: node scripts/icons.mjs
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'static');
const svg = readFileSync(join(dir, 'favicon.svg'), 'utf8');
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  for (const size of [192, 512]) {
    const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
    const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
    await page.setContent(`<body style="margin:0"><img src="${src}" width="${size}" height="${size}" style="display:block">`);
    await page.waitForFunction(() => document.images[0].complete);
    const out = join(dir, `icon-${size}.png`);
    // Transparent outside the SVG's rounded square, as the favicon is.
    await page.screenshot({ path: out, omitBackground: true });
    console.log(`${out}: ${size}×${size}`);
    await page.close();
  }
} finally {
  await browser.close();
}
