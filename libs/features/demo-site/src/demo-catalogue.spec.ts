import { demoCatalogue } from './demo-catalogue';
import type { DemoPage } from './demo-page';
import { SEO_TRAITS, type SeoTrait } from './seo-traits';

const BASE = 'https://www.example.com';
const pages = demoCatalogue(BASE);

/** The SEO defects of one page among the site's pages, judged as a crawler would from what the page's script builds. */
function defectsOf(page: DemoPage): SeoTrait[] {
  const words = page.paragraphs.join(' ').split(/\s+/).length;
  const sameTitle = pages.filter((p) => p.title !== undefined && p.title === page.title).length;
  const found: [SeoTrait, boolean][] = [
    ['noindex', page.noindex],
    ['canonical-elsewhere', page.canonical !== `${BASE}${page.path}`],
    ['missing-title', page.title === undefined],
    ['duplicate-title', sameTitle > 1],
    ['missing-description', page.description === undefined],
    ['multiple-h1', page.headings.length > 1],
    ['invalid-json-ld', page.jsonLd !== undefined && !parses(page.jsonLd)],
    ['thin-content', words < 100],
    ['images-without-alt', page.images.some((image) => image.alt === undefined)],
  ];
  return found.filter(([, has]) => has).map(([trait]) => trait);
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe('the demo site catalogue', () => {
  it('gives every SEO defect to two pages or more, one defect a page', () => {
    const defective = pages.filter((p) => p.behaviour !== 'soft-404').map((p) => defectsOf(p)).filter((defects) => defects.length > 0);
    expect(defective.every((defects) => defects.length === 1)).toBe(true);
    for (const trait of SEO_TRAITS) expect(defective.filter(([defect]) => defect === trait).length).toBeGreaterThanOrEqual(2);
  });

  it('has sound pages besides: products, guides, the home page, and the pages that show a behaviour', () => {
    const sound = pages.filter((p) => defectsOf(p).length === 0).map((p) => p.path);
    expect(sound).toEqual(expect.arrayContaining(['/', '/products', '/products/ridge-tent', '/guides/pitching-a-tent-in-wind', '/ready/stock-levels', '/slow/delivery-times']));
    expect(sound.length).toBeGreaterThanOrEqual(15);
  });

  it('has one page of each behaviour but the scripted one, and unique paths', () => {
    for (const behaviour of ['slow', 'prerender-ready', 'soft-404'] as const) expect(pages.filter((p) => p.behaviour === behaviour)).toHaveLength(1);
    expect(new Set(pages.map((p) => p.path)).size).toBe(pages.length);
  });

  it('is the same on every start, and names the public host in its absolute URLs', () => {
    expect(demoCatalogue(BASE)).toEqual(pages);
    expect(pages.every((p) => p.canonical.startsWith(`${BASE}/`))).toBe(true);
  });
});
