// Where sign-in continues: only a path on this site from `?next=`; every way out to another origin gives the dashboard.
import { describe, expect, it } from 'vitest';
import { DASHBOARD_PATH, safeNextPath } from './next-path';

const origin = 'https://www.example.co.uk';

describe('safeNextPath', () => {
  it('keeps a path on this site with its query', () => {
    expect(safeNextPath('/career-hub/cv-builder', origin)).toBe('/career-hub/cv-builder');
    expect(safeNextPath('/jobs?region=London&page=2', origin)).toBe('/jobs?region=London&page=2');
    expect(safeNextPath('/', origin)).toBe('/');
  });

  it('resolves dot segments to the path they name', () => {
    expect(safeNextPath('/career-hub/../jobs', origin)).toBe('/jobs');
  });

  it.each([
    null,
    '',
    'career-hub',
    'https://evil.example/',
    '//evil.example/x',
    '/\\evil.example',
    'javascript:alert(1)',
    '/jobs#section',
    '/jobs\nhttps://evil.example',
    ' /jobs',
    '/@evil.example',
  ])('gives the dashboard for %j', (next) => {
    expect(safeNextPath(next, origin)).toBe(DASHBOARD_PATH);
  });

  it('never leaves the site, even for odd but allowed characters', () => {
    for (const next of ['/%5Cevil.example', '/%2F%2Fevil.example', '/~user', '/.evil.example']) {
      const out = safeNextPath(next, origin);
      expect(out, next).toBe(next);
      expect(new URL(out, origin).origin).toBe(origin);
    }
  });

  it('is the Career Hub dashboard by default', () => {
    expect(DASHBOARD_PATH).toBe('/career-hub/dashboard');
  });
});
