/** What the demo site's script builds for one path: everything a bot would read once the page has rendered. */
export interface DemoPage {
  readonly path: string;
  /** Absent: the page has no `<title>`. */
  readonly title?: string;
  /** Absent: no `<meta name="description">`. */
  readonly description?: string;
  /** Absolute URL of `<link rel="canonical">`. */
  readonly canonical: string;
  readonly noindex: boolean;
  /** The `<h1>` elements, in order. */
  readonly headings: readonly string[];
  readonly paragraphs: readonly string[];
  readonly images: readonly DemoImage[];
  /** Text of the `application/ld+json` script, as served (valid JSON or not). */
  readonly jsonLd?: string;
  /** The page's navigation. */
  readonly links: readonly DemoLink[];
  readonly behaviour: PageBehaviour;
}

export interface DemoLink {
  readonly path: string;
  readonly text: string;
}

export interface DemoImage {
  readonly src: string;
  /** Absent: the `<img>` has no `alt`. */
  readonly alt?: string;
}

/**
 * How the page gets to its content: `script` builds it as soon as its data
 * arrives; `slow` is answered seconds late; `prerender-ready` builds it after
 * a pause and says when with `window.prerenderReady`; `soft-404` answers 200
 * and shows "not found".
 */
export type PageBehaviour = 'script' | 'slow' | 'prerender-ready' | 'soft-404';
