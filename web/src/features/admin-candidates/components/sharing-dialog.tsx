// "Share with a client": consent first, then a link per named client. Every action reloads the panel and says how it
// went inside the dialog (a toast would sit under the modal): errors from the database (no consent, a past expiry,
// …) as its own clear message.
import { useEffect, useState } from 'react';
import { Dialog } from '@/components/ui/dialog';
import { copyText } from '../copy-text';
import { useQuery } from '@/lib/use-query';
import type { CandidateProfile } from '../api/candidate-profiles';
import { createLink, endOfDay, extendLink, getSharing, recordConsent, revokeLink, withdrawConsent, type NewLink } from '../api/sharing';
import { ConsentSection } from './consent-section';
import { LinksSection } from './links-section';
import { injectStyle } from '@/lib/inject-style';
import deskCss from '@/components/admin/desk.css?inline';

injectStyle('desk', deskCss);

type Props = { profile: CandidateProfile | null; onClose: () => void };
type Message = { ok: boolean; text: string } | null;

export function SharingDialog({ profile, onClose }: Props) {
  const [message, setMessage] = useState<Message>(null);
  const profileId = profile?.id ?? null;
  const sharing = useQuery(() => getSharing(profileId as string), [profileId], profileId !== null);
  const [fresh, setFresh] = useState<NewLink | null>(null);
  useEffect(() => {
    setFresh(null);
    setMessage(null);
  }, [profileId]);

  async function act(action: () => Promise<unknown>, success: string): Promise<boolean> {
    setMessage(null);
    let result: Message;
    try {
      await action();
      result = { ok: true, text: success };
    } catch (e) {
      result = { ok: false, text: (e as Error).message };
    }
    await sharing.refetch();
    setMessage(result);
    return result.ok;
  }
  async function copy(url: string) {
    setMessage((await copyText(url)) ? { ok: true, text: 'Client link copied to clipboard' } : { ok: false, text: `Copy this link: ${url}` });
  }
  const data = sharing.data && sharing.data.profile_id === profileId ? sharing.data : null;
  return (
    <Dialog
      open={profile !== null}
      onClose={onClose}
      title={profile ? `Share ${profile.candidate_id} with a client` : 'Share with a client'}
      description="Each client gets their own link, with an expiry, that can be revoked; views are counted per client."
      testId="sharing-dialog"
    >
      {sharing.error && <p role="alert" className="field__error">{sharing.error}</p>}
      {!data ? (
        <p className="muted">Loading...</p>
      ) : (
        <div className="share-panel">
          <p className={`share-message${message && !message.ok ? ' field__error' : ''}`} role="status" data-testid="share-message">
            {message?.text}
          </p>
          <ConsentSection
            sharing={data}
            onRecord={(givenOn, method, scope) => act(() => recordConsent(data.profile_id, givenOn, method, scope), 'Consent recorded')}
            onWithdraw={(id) => act(() => withdrawConsent(id), 'Consent withdrawn: the client links are revoked')}
          />
          <LinksSection
            sharing={data}
            fresh={fresh}
            onCreate={(name, company, until) => act(async () => setFresh(await createLink(data.profile_id, name, company, endOfDay(until))), `Link made for ${company.trim()}`)}
            onCopy={(url) => void copy(url)}
            onRevoke={(link) => act(() => revokeLink(link.id), `The link for ${link.client_company} is revoked`)}
            onExtend={(link, until) => act(() => extendLink(link.id, endOfDay(until)), `The link for ${link.client_company} is extended`)}
          />
        </div>
      )}
    </Dialog>
  );
}
