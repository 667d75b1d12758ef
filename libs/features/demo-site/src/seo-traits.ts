import { assertNever } from '@bpc/domain';
import type { DemoPage } from './demo-page';

/** The SEO defects the demo site carries on purpose, a few pages each, one defect a page. */
export const SEO_TRAITS = [
  'noindex',
  'canonical-elsewhere',
  'missing-title',
  'duplicate-title',
  'missing-description',
  'multiple-h1',
  'invalid-json-ld',
  'thin-content',
  'images-without-alt',
] as const;
export type SeoTrait = (typeof SEO_TRAITS)[number];

/** The title every `duplicate-title` page shares. */
export const DUPLICATE_TITLE = 'Our stores | Example Outdoor';

/** `page` with the one defect `trait`; `elsewhere` is the absolute URL a `canonical-elsewhere` page points to. */
export function withTrait(page: DemoPage, trait: SeoTrait, elsewhere: string): DemoPage {
  switch (trait) {
    case 'noindex':
      return { ...page, noindex: true };
    case 'canonical-elsewhere':
      return { ...page, canonical: elsewhere };
    case 'missing-title':
      return { ...page, title: undefined };
    case 'duplicate-title':
      return { ...page, title: DUPLICATE_TITLE };
    case 'missing-description':
      return { ...page, description: undefined };
    case 'multiple-h1':
      return { ...page, headings: [...page.headings, `More about ${page.headings[0]}`, 'Why people choose us'] };
    case 'invalid-json-ld':
      // A trailing comma: the most common way hand-edited structured data breaks.
      return { ...page, jsonLd: page.jsonLd?.replace(/}\s*$/, ',}') ?? '{"@context":"https://schema.org",}' };
    case 'thin-content':
      return { ...page, paragraphs: [`${page.headings[0]}: coming soon.`], images: [] };
    case 'images-without-alt':
      return { ...page, images: page.images.map(({ src }) => ({ src })) };
    default:
      return assertNever(trait);
  }
}
