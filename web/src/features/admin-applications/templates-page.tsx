// /admin/applications/templates: the e-mail an applicant may be sent when their application moves to a status, one
// per status, edited here. Placeholders {greeting} {job_title} {status} {firm_name} are filled when it is sent; an
// unknown one is refused by the database. A note is never part of it.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { AdminPage } from '@/components/admin/admin-page';
import { formatDateTime } from '@/lib/admin/format';
import { useAction } from '@/lib/admin/use-action';
import { useQuery } from '@/lib/use-query';
import { getTemplates, saveTemplate, type MailTemplate } from './api/applications';
import { PLAIN_STATUS, STATUS_LABELS, STATUSES } from './status';
import { injectStyle } from '@/lib/inject-style';
import deskCss from '@/components/admin/desk.css?inline';

injectStyle('desk', deskCss);

const PLACEHOLDERS = [
  ['{greeting}', '“Hello” and the applicant’s first name (“Hello” alone when the form’s name is not a plain name)'],
  ['{job_title}', 'the job applied for'],
  ['{status}', 'what the candidate sees, e.g. “In review”'],
  ['{firm_name}', 'the firm’s name'],
] as const;

function TemplateForm({ template, onSaved }: { template: MailTemplate; onSaved: () => Promise<void> }) {
  const id = useId();
  const { busy: saving, run } = useAction();
  const [subject, setSubject] = useState(template.subject);
  const [body, setBody] = useState(template.body);
  useEffect(() => {
    setSubject(template.subject);
    setBody(template.body);
  }, [template]);
  const changed = subject !== template.subject || body !== template.body;
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (await run(() => saveTemplate({ status: template.status, subject, body }), () => ({ title: 'Success', description: `The ${STATUS_LABELS[template.status]} e-mail was saved` })))
      await onSaved();
  }
  return (
    <form className="admin-panel admin-form" onSubmit={(e) => void submit(e)} aria-labelledby={`${id}-title`} data-testid={`template-${template.status}`}>
      <div>
        <h2 id={`${id}-title`}>{STATUS_LABELS[template.status]}</h2>
        <p className="muted-small">
          The candidate sees “{PLAIN_STATUS[template.status]}” · last saved {formatDateTime(template.updated_at)}
        </p>
      </div>
      <div className="field">
        <label htmlFor={`${id}-subject`}>Subject</label>
        <input id={`${id}-subject`} value={subject} maxLength={200} required onChange={(e) => setSubject(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-body`}>Message</label>
        <textarea id={`${id}-body`} rows={8} maxLength={5000} required value={body} onChange={(e) => setBody(e.target.value)} />
      </div>
      <div className="admin-form__actions">
        <Button type="submit" size="sm" disabled={saving || !changed || !subject.trim() || !body.trim()} aria-busy={saving}>
          {saving && <span className="spinner" aria-hidden="true" />}
          Save
        </Button>
        {changed && (
          <Button variant="ghost" size="sm" onClick={() => { setSubject(template.subject); setBody(template.body); }}>
            Undo changes
          </Button>
        )}
      </div>
    </form>
  );
}

function Templates() {
  const query = useQuery(getTemplates, []);
  if (query.error) return <p role="alert" className="field__error">{query.error}</p>;
  if (!query.data) return <p className="muted">Loading...</p>;
  const byStatus = new Map(query.data.map((t) => [t.status, t]));
  return (
    <>
      <section className="admin-panel" aria-labelledby="placeholders-title">
        <h2 id="placeholders-title">Placeholders</h2>
        <dl className="desk-facts">
          {PLACEHOLDERS.map(([name, meaning]) => (
            <div key={name} className="desk-facts__pair">
              <dt>
                <code>{name}</code>
              </dt>
              <dd>{meaning}</dd>
            </div>
          ))}
        </dl>
        <p className="muted-small">An e-mail is sent only when an admin ticks “E-mail the applicant” while changing a status. New applications get the acknowledgement sent on arrival.</p>
      </section>
      <div className="desk-templates">
        {STATUSES.map((s) => byStatus.get(s as MailTemplate['status'])).filter((t): t is MailTemplate => Boolean(t)).map((t) => (
          <TemplateForm key={t.status} template={t} onSaved={query.refetch} />
        ))}
      </div>
    </>
  );
}

export default function AdminApplicationTemplatesPage() {
  return (
    <AdminPage title="Status e-mails" subtitle="What an applicant is sent, when you choose, as their application moves on." path="/admin/applications/templates" back={{ to: '/admin/applications', label: 'Applications' }}>
      <Templates />
    </AdminPage>
  );
}
