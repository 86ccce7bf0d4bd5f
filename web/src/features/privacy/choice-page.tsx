// /privacy/choice: where the retention e-mail's link leads (privacy notice, "How long we keep your data"). The token
// travels in the fragment (#token=…), so it never reaches a server log or a Referer header. Opening the link
// changes nothing (mail scanners open links too): the person chooses with a button, and deleting asks once more.
import { useEffect, useRef, useState, type RefObject } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { site } from '@/content/site';
import { Seo } from '@/lib/seo';
import { answerNotice, fetchNotice, tokenFromHash, type Notice } from './api/privacy-choice';
import './choice.css';

type View = Notice['status'] | 'loading' | 'confirm-delete' | 'error';

function longDate(iso?: string | null): string {
  if (!iso) return '';
  return new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/London' });
}

function useNotice() {
  const [token, setToken] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [view, setView] = useState<View>('loading');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const t = tokenFromHash(window.location.hash);
    setToken(t);
    if (!t) return setView('unknown');
    fetchNotice(t)
      .then((n) => (setNotice(n), setView(n.status)))
      .catch(() => setView('error'));
  }, []);
  const answer = (choice: 'keep' | 'delete') => {
    if (!token) return;
    setBusy(true);
    answerNotice(token, choice)
      .then((n) => (setNotice((old) => ({ ...old, ...n })), setView(n.status)))
      .catch(() => setView('error'))
      .finally(() => setBusy(false));
  };
  return { notice, view, setView, busy, answer };
}

export default function PrivacyChoicePage() {
  const { notice, view, setView, busy, answer } = useNotice();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (view !== 'loading') heading.current?.focus();
  }, [view]);
  return (
    <>
      <Seo title="Your details: keep or delete" description={`Tell ${site.name} whether to keep your details on our database.`} path="/privacy/choice" noindex nofollow />
      <section className="page-hero on-dark">
        <div className="container">
          <p className="eyebrow">Privacy Notice</p>
          <h1>Keep or Delete Your Details</h1>
          <p>We keep personal details for one year from our last contact, then ask whether you would like to stay on our database.</p>
        </div>
      </section>
      <div className="section">
        <div className="container privacy-choice">
          <div className="card privacy-choice__card" aria-busy={view === 'loading'}>
            <ChoiceBody view={view} notice={notice} busy={busy} heading={heading} answer={answer} setView={setView} />
          </div>
          <p className="muted privacy-choice__note">
            Read how we use your data in our <Link to="/privacy#retention">privacy notice</Link>, or e-mail{' '}
            <a href={`mailto:${site.email}?subject=Data%20protection%20request`}>{site.email}</a>.
          </p>
        </div>
      </div>
    </>
  );
}

type BodyProps = {
  view: View;
  notice: Notice | null;
  busy: boolean;
  heading: RefObject<HTMLHeadingElement | null>;
  answer: (choice: 'keep' | 'delete') => void;
  setView: (v: View) => void;
};

function ChoiceBody({ view, notice, busy, heading, answer, setView }: BodyProps) {
  const title = (text: string) => (
    <h2 ref={heading} tabIndex={-1}>
      {text}
    </h2>
  );
  switch (view) {
    case 'loading':
      return <p role="status">Loading...</p>;
    case 'awaiting':
      return (
        <>
          {title('Would you like us to keep your details?')}
          <p>We hold {notice?.holds || 'personal details you gave us'}.</p>
          <p>
            If you do not answer, we will keep them until <strong>{longDate(notice?.delete_after)}</strong> and then delete them.
          </p>
          <div className="privacy-choice__actions">
            <Button variant="primary" disabled={busy} onClick={() => answer('keep')}>
              Keep my details
            </Button>
            <Button variant="outline" disabled={busy} onClick={() => setView('confirm-delete')}>
              Delete my details
            </Button>
          </div>
        </>
      );
    case 'confirm-delete':
      return (
        <>
          {title('Delete your details?')}
          <p>We will delete {notice?.holds || 'everything we hold about you'} straight away. This cannot be undone.</p>
          <div className="privacy-choice__actions">
            <Button variant="primary" disabled={busy} onClick={() => answer('delete')}>
              {busy ? 'Deleting...' : 'Yes, delete my details'}
            </Button>
            <Button variant="outline" disabled={busy} onClick={() => setView(notice?.status === 'kept' ? 'kept' : 'awaiting')}>
              Cancel
            </Button>
          </div>
        </>
      );
    case 'kept':
      return (
        <>
          {title('Thank you: we will keep your details')}
          <p>
            We will tell you about suitable roles and ask you again by <strong>{longDate(notice?.next_review_at)}</strong>. You can change your mind with this link at any time.
          </p>
          <div className="privacy-choice__actions">
            <Button variant="outline" disabled={busy} onClick={() => setView('confirm-delete')}>
              Delete my details instead
            </Button>
          </div>
        </>
      );
    case 'deleted':
      return (
        <>
          {title('Your details have been deleted')}
          <p>We have deleted the personal details we held about you. We will not contact you again unless you get in touch.</p>
        </>
      );
    case 'error':
      return (
        <>
          {title('We could not reach our database')}
          <p>Nothing has changed. Please try again in a few minutes, or e-mail us and we will do it for you.</p>
        </>
      );
    default:
      return (
        <>
          {title('This link is not valid')}
          <p>It may be incomplete, or the details it refers to have already been deleted. Check that you opened the whole link from our e-mail.</p>
        </>
      );
  }
}
