// The JobPosting's text: the employment type mapped from the advert, and the description as HTML (stored or escaped).
import { describe, expect, it } from 'vitest';
import { employmentType, jobDescriptionHtml } from './job-posting';

describe('JobPosting text', () => {
  it('maps the employment type, else guesses from the badge', () => {
    expect(employmentType('Permanent', 'interim')).toBe('CONTRACTOR');
    expect(employmentType('Contract role')).toBe('CONTRACTOR');
    expect(employmentType('Temp to perm')).toBe('TEMPORARY');
    expect(employmentType('Part-time')).toBe('PART_TIME');
    expect(employmentType(null)).toBe('FULL_TIME');
  });

  it('uses the stored rendering when the row has one', () => {
    expect(jobDescriptionHtml({ title: 'T', description: 'ignored', requirements: null, description_html: '<p>D</p>', requirements_html: '<ul><li>R</li></ul>' })).toBe(
      '<div class="job-text"><p>D</p></div><p>Requirements:</p><div class="job-text job-reqs"><ul><li>R</li></ul></div>',
    );
    expect(jobDescriptionHtml({ title: 'A & B', description: null, requirements: null, description_html: null })).toBe('<p>A &amp; B</p>');
  });

  it('escapes the plain text of a sample job', () => {
    expect(jobDescriptionHtml({ title: 'T', description: 'Pay <b>£1</b> & "more"', requirements: ['x<y'] })).toBe(
      '<p>Pay &lt;b&gt;£1&lt;/b&gt; &amp; &quot;more&quot;</p><p>Requirements:</p><ul><li>x&lt;y</li></ul>',
    );
  });
});
