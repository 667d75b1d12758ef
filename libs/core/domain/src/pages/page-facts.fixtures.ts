import type { PageFacts } from './page-facts';
import type { PageContext } from './page-issues';

/** A healthy page: no issue at the default thresholds. */
export const healthyFacts: PageFacts = {
  statusCode: 200,
  bytes: 24_000,
  soft404: false,
  title: 'Blue widgets – Example',
  titleLength: 22,
  description: 'Every blue widget we make, with prices.',
  lang: 'en',
  h1Count: 1,
  firstH1: 'Blue widgets',
  canonical: 'https://www.example.com/widgets/blue',
  canonicals: ['https://www.example.com/widgets/blue'],
  noindexBy: [],
  nofollowBy: [],
  hreflangCount: 0,
  hreflangOffSite: 0,
  ogTitle: true,
  ogImage: true,
  jsonLdTypes: ['BreadcrumbList', 'Product'],
  jsonLdBlocks: 2,
  jsonLdInvalid: 0,
  microdataTypes: [],
  wordCount: 640,
  internalLinks: 40,
  externalLinks: 2,
  imagesWithoutAlt: 0,
};

export const pageContext: PageContext = { url: 'https://www.example.com/widgets/blue', sameTitleUrls: 0, botRequests: 0, inSitemap: false };

export const factsWith = (over: Partial<PageFacts>): PageFacts => ({ ...healthyFacts, ...over });
