// The link crawl's URL rules (lib/crawl-urls.mjs), without a browser or a server.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classifyHref, fragmentOf, isApiPath, sitemapLocations } from './lib/crawl-urls.mjs';

const site = { origin: 'http://127.0.0.1:4000', publicOrigin: 'https://www.firm.example' };

test('pages of the site are keyed by path and query, on the served or the public origin', () => {
  assert.deepEqual(classifyHref('http://127.0.0.1:4000/contact?kind=client#enquiry', site), { kind: 'site', key: '/contact?kind=client', fragment: 'enquiry' });
  assert.deepEqual(classifyHref('https://www.firm.example/terms', site), { kind: 'site', key: '/terms', fragment: null });
  assert.deepEqual(classifyHref('http://127.0.0.1:4000/#', site), { kind: 'site', key: '/', fragment: null });
});

test('other origins are external; mailto and tel are contact links; anything else leads nowhere', () => {
  assert.deepEqual(classifyHref('https://www.linkedin.com/company/x', site), { kind: 'external', href: 'https://www.linkedin.com/company/x' });
  assert.deepEqual(classifyHref('http://127.0.0.1:4001/', site), { kind: 'external', href: 'http://127.0.0.1:4001/' });
  assert.equal(classifyHref('mailto:talent@firm.example?subject=CV', site).kind, 'contact');
  assert.equal(classifyHref('tel:+442079460321', site).kind, 'contact');
  assert.equal(classifyHref('javascript:void(0)', site).kind, 'invalid');
  assert.equal(classifyHref('data:text/html,hi', site).kind, 'invalid');
  assert.equal(classifyHref('http://[broken', site).kind, 'invalid');
});

test('fragments name element ids, percent-decoded', () => {
  assert.equal(fragmentOf('#early-career'), 'early-career');
  assert.equal(fragmentOf('#caf%C3%A9'), 'café');
  assert.equal(fragmentOf('#100%'), '100%');
  assert.equal(fragmentOf('#'), null);
  assert.equal(fragmentOf(''), null);
});

test('sitemap locations and API paths', () => {
  const xml = '<urlset><url><loc>https://www.firm.example/</loc></url>\n<url><loc> https://www.firm.example/a?b=1&amp;c=2 </loc></url></urlset>';
  assert.deepEqual(sitemapLocations(xml), ['https://www.firm.example/', 'https://www.firm.example/a?b=1&c=2']);
  assert.equal(isApiPath('/rest/v1/jobs'), true);
  assert.equal(isApiPath('/auth/v1/token'), true);
  assert.equal(isApiPath('/restaurants'), false);
});
