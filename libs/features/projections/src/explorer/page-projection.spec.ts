import { newRenderRecorded } from '@bpc/events';
import { factsWith } from '../../../../core/domain/src/pages/page-facts.fixtures';
import { issueThresholdsByHost, pageRowOf } from './page-projection';

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
});
