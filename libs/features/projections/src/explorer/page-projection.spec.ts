import { newRenderRecorded } from '@bpc/events';
import { factsWith } from '../../../../core/domain/src/pages/page-facts.fixtures';
import { PAGES_TABLE } from '@bpc/explorer-store';
import { explorerRows } from './explorer-projection';
import { criticalDayRowOf, issueThresholdsByHost, pageRowOf } from './page-projection';
import type { TableRows } from './table-rows';

const facts = factsWith({ title: 'A title of exactly forty characters ....', titleLength: 40, wordCount: 150, imagesWithoutAlt: 1 });
const event = newRenderRecorded({ hostId: 1, url: 'https://www.example.com/widgets/blue', dimensionId: 1, mode: 'render', trigger: 'edge_miss', outcome: 'stored', reason: '', statusCode: 200, renderMs: 10, bytes: 100, attempt: 1, facts }, Date.UTC(2026, 11, 7));

describe('the pages row of a render', () => {
  it('holds the page-level issue codes at the default thresholds', () => {
    expect(pageRowOf(event, facts)).toMatchObject({ issues: ['thin_content', 'images_without_alt'], critical_issues: 0, title: facts.title, canonical: facts.canonical });
  });

  it("applies its website's thresholds (a website is one host), the defaults elsewhere", () => {
    const byHost = issueThresholdsByHost({ websites: [{ id: 'demo', host_id: 1, account_id: 'a', platform_module: true, seo: { title_max_length: 30, thin_content_words: 100, images_without_alt: 2 } }] } as never);
    expect(pageRowOf(event, facts, byHost.get(1)).issues).toEqual(['title_too_long']);
    expect(byHost.get(2)).toBeUndefined();
    expect(issueThresholdsByHost(undefined).size).toBe(0);
  });

  it('gets the same thresholds on the parsed path (explorerRows) as on the stored one', () => {
    const byHost = issueThresholdsByHost({ websites: [{ id: 'demo', host_id: 1, account_id: 'a', platform_module: true, seo: { title_max_length: 30, thin_content_words: 100, images_without_alt: 2 } }] } as never);
    const tables: TableRows = new Map();
    explorerRows(event, tables, byHost);
    expect(tables.get(PAGES_TABLE)).toEqual([pageRowOf(event, facts, byHost.get(1))]);
  });
});

describe("the day's critical state of a render", () => {
  it('is the pages row on its UTC day: host, URL, dimension, when, its critical issue count and its issue codes', () => {
    const noindex = factsWith({ noindexBy: ['robots'] });
    const late = newRenderRecorded({ hostId: 1, url: 'https://www.example.com/a', dimensionId: 2, mode: 'render', trigger: 'sitemap', outcome: 'stored', reason: '', statusCode: 200, renderMs: 10, bytes: 100, attempt: 1, facts: noindex }, Date.UTC(2026, 11, 7, 23, 59, 59, 999));
    expect(criticalDayRowOf(pageRowOf(late, noindex))).toEqual({ host_id: 1, day: '2026-12-07', url: 'https://www.example.com/a', dimension_id: 2, rendered_at: '2026-12-07T23:59:59.999Z', critical_issues: 1, issues: ['noindex', 'canonical_elsewhere'] });
  });
});
