import { changesBetween, MAX_CHANGE_TEXT } from './page-changes';
import { factsWith, healthyFacts } from './page-facts.fixtures';

describe('page changes between two renders of a URL and dimension', () => {
  it('none when the facts that matter are the same (counts such as links and bytes aside)', () => {
    expect(changesBetween(healthyFacts, factsWith({ bytes: 25_100, internalLinks: 41, wordCount: 600 }))).toEqual([]);
  });

  it('noindex appearing is critical; disappearing is a notice', () => {
    const noindex = factsWith({ noindexBy: ['googlebot'] });
    expect(changesBetween(healthyFacts, noindex)).toEqual([{ field: 'noindex', before: 'false', after: 'true', severity: 'critical' }]);
    expect(changesBetween(noindex, healthyFacts)).toEqual([{ field: 'noindex', before: 'true', after: 'false', severity: 'notice' }]);
  });

  it('the status turning to an error is critical; one error to another, or back to 200, a notice', () => {
    expect(changesBetween(healthyFacts, factsWith({ statusCode: 404 }))).toEqual([{ field: 'status_code', before: '200', after: '404', severity: 'critical' }]);
    expect(changesBetween(factsWith({ statusCode: 404 }), factsWith({ statusCode: 410 }))[0]).toMatchObject({ severity: 'notice' });
    expect(changesBetween(factsWith({ statusCode: 500 }), healthyFacts)[0]).toMatchObject({ severity: 'notice' });
  });

  it('the canonical changing, a structured data type removed and the word count halved are warnings', () => {
    const after = factsWith({ canonical: 'https://www.example.com/widgets', jsonLdTypes: ['BreadcrumbList'], wordCount: 300 });
    expect(changesBetween(healthyFacts, after)).toEqual([
      { field: 'canonical', before: 'https://www.example.com/widgets/blue', after: 'https://www.example.com/widgets', severity: 'warning' },
      { field: 'structured_data', before: 'BreadcrumbList, Product', after: 'BreadcrumbList', severity: 'warning' },
      { field: 'word_count', before: '640', after: '300', severity: 'warning' },
    ]);
  });

  it('a structured data type added is a notice', () => {
    expect(changesBetween(healthyFacts, factsWith({ jsonLdTypes: ['BreadcrumbList', 'Product'], microdataTypes: ['https://schema.org/Offer'] }))).toEqual([
      { field: 'structured_data', before: 'BreadcrumbList, Product', after: 'BreadcrumbList, Product, https://schema.org/Offer', severity: 'notice' },
    ]);
  });

  it('title and description changes are notices, listed after the more severe', () => {
    const after = factsWith({ title: 'Widgets', description: null, noindexBy: ['robots'] });
    expect(changesBetween(healthyFacts, after)).toEqual([
      { field: 'noindex', before: 'false', after: 'true', severity: 'critical' },
      { field: 'title', before: 'Blue widgets – Example', after: 'Widgets', severity: 'notice' },
      { field: 'description', before: 'Every blue widget we make, with prices.', after: '', severity: 'notice' },
    ]);
  });
});

describe('a change of a hostile size', () => {
  it('keeps at most MAX_CHANGE_TEXT characters of before and after', () => {
    const long = `https://www.example.com/${'a'.repeat(5_000)}`;
    const [change] = changesBetween(healthyFacts, factsWith({ canonical: long }));
    expect(change).toMatchObject({ field: 'canonical', after: long.slice(0, MAX_CHANGE_TEXT) });
  });
});
