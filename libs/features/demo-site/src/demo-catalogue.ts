import type { DemoLink, DemoPage, PageBehaviour } from './demo-page';
import { paragraphsAbout } from './demo-text';
import { type SeoTrait, withTrait } from './seo-traits';

/** Every page of the demo site, generated for the public base URL bots know it by (`https://www.example.com`). */
export function demoCatalogue(baseUrl: string): readonly DemoPage[] {
  const page = pageMaker(baseUrl);
  const products = PRODUCTS.map((name, i) => page(`/products/${slug(name)}`, name, i, { jsonLd: productJsonLd(name, `${baseUrl}/products/${slug(name)}`) }));
  const guides = GUIDES.map((name, i) => page(`/guides/${slug(name)}`, name, i + 20));
  const sections = [
    page('/', 'Outdoor gear that lasts', 40, { links: [...products, ...guides].map(linkTo) }),
    page('/products', 'All products', 41, { links: products.map(linkTo) }),
    page('/about', 'About Example Outdoor', 42),
    page('/ready/stock-levels', 'Stock levels', 43, { behaviour: 'prerender-ready' }),
    page('/slow/delivery-times', 'Delivery times', 44, { behaviour: 'slow' }),
    notFoundPage('/products/retired-lantern', baseUrl),
  ];
  const withDefects = TRAIT_PAGES.map(([path, name, trait], i) => withTrait(page(path, name, 60 + i), trait, `${baseUrl}${products[i % products.length].path}`));
  return [...sections, ...products, ...guides, ...withDefects];
}

/** What the site shows for a path it does not have, with status 200 like most single-page apps: a soft 404. */
export function notFoundPage(path: string, baseUrl: string): DemoPage {
  return {
    path,
    title: 'Page not found | Example Outdoor',
    canonical: `${baseUrl}${path}`,
    noindex: false,
    headings: ['Page not found'],
    paragraphs: ['We could not find this page. It may have moved, or it may never have existed.'],
    images: [],
    links: [HOME_LINK],
    behaviour: 'soft-404',
  };
}

/** A path that answers a redirect, and where to. */
export const DEMO_REDIRECTS: ReadonlyMap<string, string> = new Map([['/old-catalogue', '/products']]);

const PRODUCTS = ['Ridge Tent', 'Harbour Rain Jacket', 'Summit Stove', 'Canyon Backpack', 'Meadow Sleeping Bag', 'Lakeside Chair', 'Trail Lamp', 'Glacier Bottle'];
const GUIDES = ['Pitching a tent in wind', 'Packing for three days', 'Cooking on one burner', 'Staying dry in autumn'];

/** Pages that each carry one SEO defect (seo-traits.ts): three of each kind but the rarer ones. */
const TRAIT_PAGES: readonly (readonly [string, string, SeoTrait])[] = [
  ['/drafts/spring-collection', 'Spring collection preview', 'noindex'],
  ['/drafts/autumn-collection', 'Autumn collection preview', 'noindex'],
  ['/print/ridge-tent', 'Ridge Tent (print)', 'canonical-elsewhere'],
  ['/print/summit-stove', 'Summit Stove (print)', 'canonical-elsewhere'],
  ['/legal/imprint', 'Imprint', 'missing-title'],
  ['/legal/cookies', 'Cookies', 'missing-title'],
  ['/stores/north', 'Store North', 'duplicate-title'],
  ['/stores/south', 'Store South', 'duplicate-title'],
  ['/stores/harbour', 'Store Harbour', 'duplicate-title'],
  ['/help/returns', 'Returns', 'missing-description'],
  ['/help/shipping', 'Shipping', 'missing-description'],
  ['/campaigns/summer', 'Summer campaign', 'multiple-h1'],
  ['/campaigns/winter', 'Winter campaign', 'multiple-h1'],
  ['/events/trail-run', 'Trail run', 'invalid-json-ld'],
  ['/events/river-cleanup', 'River clean-up', 'invalid-json-ld'],
  ['/tags/tents', 'Tents', 'thin-content'],
  ['/tags/stoves', 'Stoves', 'thin-content'],
  ['/tags/lamps', 'Lamps', 'thin-content'],
  ['/gallery/camp', 'Camp gallery', 'images-without-alt'],
  ['/gallery/coast', 'Coast gallery', 'images-without-alt'],
];

interface PageOptions {
  readonly links?: readonly DemoLink[];
  readonly behaviour?: PageBehaviour;
  readonly jsonLd?: string;
}

/** A page without defects: its own title, description and canonical, one h1, four paragraphs, two described images. */
function pageMaker(baseUrl: string) {
  return (path: string, name: string, seed: number, options: PageOptions = {}): DemoPage => ({
    path,
    title: `${name} | Example Outdoor`,
    description: `${name}: what it is, who it is for and how to look after it, from Example Outdoor.`,
    canonical: `${baseUrl}${path}`,
    noindex: false,
    headings: [name],
    paragraphs: paragraphsAbout(name.toLowerCase(), 4, seed),
    images: [1, 2].map((n) => ({ src: `/images/${slug(name)}-${n}.svg`, alt: `${name}, view ${n}` })),
    jsonLd: options.jsonLd ?? JSON.stringify({ '@context': 'https://schema.org', '@type': 'WebPage', name, url: `${baseUrl}${path}` }),
    links: options.links ?? [HOME_LINK, PRODUCTS_LINK],
    behaviour: options.behaviour ?? 'script',
  });
}

const HOME_LINK: DemoLink = { path: '/', text: 'Home' };
const PRODUCTS_LINK: DemoLink = { path: '/products', text: 'All products' };

function linkTo(page: DemoPage): DemoLink {
  return { path: page.path, text: page.headings[0] };
}

function productJsonLd(name: string, url: string): string {
  return JSON.stringify({ '@context': 'https://schema.org', '@type': 'Product', name, url, brand: { '@type': 'Brand', name: 'Example Outdoor' } });
}

function slug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}
