import { PAGE_CONTENT_PATH } from './page-shell';

/** How long a `prerender-ready` page waits after its data before it builds: longer than the renderer's quiet period, so only `prerenderReady` makes the snapshot wait for it. */
export const PRERENDER_READY_PAUSE_MS = 1500;

/**
 * The browser script of every page: it fetches the page's content and builds
 * the head (title, description, robots, canonical, JSON-LD) and the body
 * with DOM calls, as a single-page app does. Plain ES2017, served as is.
 */
export const PAGE_SCRIPT = `(async function () {
  var response = await fetch('${PAGE_CONTENT_PATH}?path=' + encodeURIComponent(location.pathname));
  var page = await response.json();
  if (page.behaviour === 'prerender-ready') await new Promise(function (resolve) { setTimeout(resolve, ${PRERENDER_READY_PAUSE_MS}); });
  buildHead(page);
  buildBody(page);
  if (page.behaviour === 'prerender-ready') window.prerenderReady = true;

  function element(tag, attributes, text) {
    var node = document.createElement(tag);
    Object.keys(attributes).forEach(function (name) { node.setAttribute(name, attributes[name]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function buildHead(page) {
    if (page.title !== undefined) document.title = page.title;
    if (page.description !== undefined) document.head.appendChild(element('meta', { name: 'description', content: page.description }));
    if (page.noindex) document.head.appendChild(element('meta', { name: 'robots', content: 'noindex' }));
    document.head.appendChild(element('link', { rel: 'canonical', href: page.canonical }));
    if (page.jsonLd !== undefined) document.head.appendChild(element('script', { type: 'application/ld+json' }, page.jsonLd));
  }
  function buildBody(page) {
    var app = document.getElementById('app');
    app.textContent = '';
    var nav = element('nav', {});
    page.links.forEach(function (link) { nav.appendChild(element('a', { href: link.path }, link.text)); });
    var main = element('main', {});
    page.headings.forEach(function (text) { main.appendChild(element('h1', {}, text)); });
    page.paragraphs.forEach(function (text) { main.appendChild(element('p', {}, text)); });
    page.images.forEach(function (image) {
      main.appendChild(element('img', image.alt === undefined ? { src: image.src } : { src: image.src, alt: image.alt }));
    });
    app.appendChild(nav);
    app.appendChild(main);
  }
})();
`;
