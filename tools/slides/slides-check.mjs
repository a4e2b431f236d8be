// slides-check.mjs HTML...: what a machine can check on rendered decks, in the
// browser Marp CLI drives (puppeteer-core from build/slides-tool, Chromium
// from CHROME_PATH). One line per problem on stdout, exit 1 if any:
//   overflow  a page whose content runs past the slide's edge, or an element
//             squeezed so that its own content is cut off (a table whose last
//             rows a flex layout hides behind the text below it)
//   image     an image that did not load
//   cjk       Chinese text drawn without a CJK font (it would be boxes)
//   title     a page title not at the top (titles would jump from page to page)
import { createRequire } from 'node:module';
import path from 'node:path';

const tool = process.env.SLIDES_TOOL || 'build/slides-tool';
const require = createRequire(path.resolve(tool, 'package.json'));
const puppeteer = require('puppeteer-core');
const files = process.argv.slice(2);
if (!files.length || !process.env.CHROME_PATH) {
    console.error('usage: CHROME_PATH=chromium node slides-check.mjs DECK.html...');
    process.exit(2);
}
const CJK = /[\u4e00-\u9fff]/;
let problems = 0;
const say = (line) => { problems++; console.log(line); };

const browser = await puppeteer.launch({
    executablePath: process.env.CHROME_PATH, headless: true,
    args: ['--no-sandbox', '--allow-file-access-from-files'],
});
try {
    for (const file of files) {
        const name = path.basename(file);
        const page = await browser.newPage();
        await page.setViewport({ width: 1280, height: 720 });
        await page.goto('file://' + path.resolve(file), { waitUntil: 'load' });
        await page.evaluate(() => document.fonts.ready);
        // every page at once, as a print would lay them out (the bespoke
        // viewer shows one at a time)
        await page.emulateMediaType('print');
        const pages = await page.evaluate(() => [...document.querySelectorAll('section[id]')].map((s) => {
            const box = s.getBoundingClientRect();
            const over = [];
            for (const e of s.querySelectorAll('*')) {
                const r = e.getBoundingClientRect();
                if (r.width === 0 || r.height === 0) continue;
                const what = `${e.tagName.toLowerCase()} "${(e.textContent || e.getAttribute('src') || '').replace(/\s+/g, ' ').trim().slice(0, 40)}"`;
                if (r.bottom > box.bottom + 1 || r.right > box.right + 1)
                    over.push(what);
                else if (getComputedStyle(e).overflowY !== 'visible' && e.scrollHeight > e.clientHeight + 1)
                    over.push(`${what} cut off (${e.scrollHeight - e.clientHeight}px hidden)`);
            }
            const broken = [...s.querySelectorAll('img')].filter((i) => !i.complete || i.naturalWidth === 0)
                .map((i) => i.getAttribute('src'));
            const over_scroll = s.scrollHeight > s.clientHeight + 1 || s.scrollWidth > s.clientWidth + 1;
            const h = s.querySelector('h1, h2');
            const title_top = h && !s.classList.contains('title') ? h.getBoundingClientRect().top - box.top : 0;
            return { id: s.id, over: over.slice(0, 3), over_scroll, broken, title_top };
        }));
        for (const p of pages) {
            if (p.over.length || p.over_scroll)
                say(`overflow ${name} page ${p.id}: ${p.over.join('; ') || 'content taller or wider than the slide'}`);
            for (const b of p.broken) say(`image ${name} page ${p.id}: ${b} did not load`);
            if (p.title_top > 60) say(`title ${name} page ${p.id}: ${Math.round(p.title_top)}px below the top`);
        }
        // the fonts Chromium really used for each element holding Chinese text
        const cdp = await page.createCDPSession();
        await cdp.send('DOM.enable');
        await cdp.send('CSS.enable');
        const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
        const { nodeIds } = await cdp.send('DOM.querySelectorAll', { nodeId: root.nodeId, selector: 'section[id] blockquote, section[id] p, section[id] td, section[id] li' });
        for (const nodeId of nodeIds) {
            const { outerHTML } = await cdp.send('DOM.getOuterHTML', { nodeId });
            const text = outerHTML.replace(/<[^>]*>/g, '');
            if (!CJK.test(text)) continue;
            const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
            if (!fonts.some((f) => /CJK|SC|Han/.test(f.familyName)))
                say(`cjk ${name}: "${text.trim().slice(0, 30)}" drawn with ${fonts.map((f) => f.familyName).join(', ') || 'no font'}`);
        }
        await page.close();
    }
} finally {
    await browser.close();
}
process.exit(problems ? 1 : 0);
