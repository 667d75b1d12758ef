import type { WebsiteView } from '../api/types';

/** What to do when no bot request was ever recorded: point the middleware at the edge (README, "Point your site at the edge"). */
export function EmptyWebsite({ website }: { website: WebsiteView }) {
  const edge = website.edgeUrl.endsWith('/') ? website.edgeUrl : `${website.edgeUrl}/`;
  const express = `const prerender = require('prerender-node')
  .set('prerenderServiceUrl', '${edge}')
  .set('prerenderToken', process.env.PRERENDER_TOKEN); // your website's edge token
prerender.addUserAgents(['ClaudeBot', 'OAI-SearchBot', 'DuckDuckBot']);
app.use(prerender); // before your routes and static files`;
  const nginx = `location / {
    proxy_set_header X-Prerender-Token "bpc_pre_…";   # your edge token
    set $prerender 0;
    if ($http_user_agent ~* "googlebot|bingbot|yandex|baiduspider|duckduckbot|applebot|gptbot|oai-searchbot|claudebot|perplexitybot") {
        set $prerender 1;
    }
    if ($uri ~* "\\.(js|css|xml|txt|json|ico|png|jpe?g|gif|svg|webp|woff2?|pdf)$") {
        set $prerender 0;
    }
    if ($prerender = 1) {
        proxy_pass ${edge}$scheme://$host$request_uri;
    }
    try_files $uri /index.html;   # your site, as before
}`;
  return (
    <section className="card" aria-labelledby="empty-title">
      <h2 id="empty-title" className="flush">
        No bot requests recorded yet
      </h2>
      <p>
        Bots reach this service through your web server: point its pre-rendering middleware at the edge, <code>{website.edgeUrl}</code>
        {website.hostnames.length ? `, for ${website.hostnames.join(', ')}` : null}. The first bot request appears here within seconds.
      </p>
      <h3>Express with prerender-node</h3>
      <pre>
        <code>{express}</code>
      </pre>
      <h3>nginx</h3>
      <pre>
        <code>{nginx}</code>
      </pre>
    </section>
  );
}
