import { chromium } from 'playwright-core';
import { startLocalApp } from '../helpers/local-app';
const app = await startLocalApp({ webDir: process.env.CAIRN_WEB_DIR, env: { STATUS_URL: 'https://status.example.com', BLOG_URL: 'https://blog.example.com', DOCS_URL: 'https://docs.example.com', SOCIAL_LINKS: 'GitHub=https://github.com/example,X=https://x.com/example', COMPANY_ADDRESS: 'Cairn Labs s.r.o.\nExample Street 1\n110 00 Prague' } });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
const width = Number(process.env.W ?? 375);
const ctx = await browser.newContext({ viewport: { width, height: 800 } });
const page = await ctx.newPage();
await page.goto(app.url + (process.env.P ?? '/'));
await page.getByRole('heading', { name: 'Plans that grow with your project' }).waitFor();
if (process.env.CLICK) await page.getByText(process.env.CLICK, { exact: true }).first().click();
const h = await page.evaluate(() => document.documentElement.scrollHeight);
const seg = Number(process.env.SEG ?? 1400);
for (let y = 0, i = 0; y < h; y += seg, i++) {
  await page.screenshot({ path: `/tmp/review-${width}-${i}.png`, fullPage: true, clip: { x: 0, y, width, height: Math.min(seg, h - y) }, animations: 'disabled' });
  console.log(`/tmp/review-${width}-${i}.png`);
}
console.log('scrollWidth', await page.evaluate(() => document.documentElement.scrollWidth));
await browser.close(); await app.stop();
