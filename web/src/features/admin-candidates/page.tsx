// /admin/candidates: 'Candidate Profiles' with the count, server-side search, the table and its actions, the Create
// and Edit dialogs, and Delete with a confirmation (spec §2; the original deleted without asking). Toasts as §8.
import { useState } from 'react';
import { ButtonLink, Button } from '@/components/ui/button';
import { useToast } from '@/components/ui/toast';
import { AdminPage } from '@/components/admin/admin-page';
import { ConfirmDialog } from '@/components/admin/confirm-dialog';
import { LiveBadge } from '@/components/admin/live-badge';
import { useLiveProfileViews } from '@/lib/admin/use-live-profile-views';
import { createProfile, deleteProfile, PAGE_SIZE, setProfileStatus, shareLink, updateProfile, type CandidateProfile, type ProfileInput } from './api/candidate-profiles';
import { CandidatesTable } from './components/candidates-table';
import { ProfileDialog } from './components/profile-dialog';
import { SharingDialog } from './components/sharing-dialog';
import { useProfileClients } from './use-profile-clients';
import { copyText } from './copy-text';
import { useCandidateProfiles } from './use-candidate-profiles';

function Candidates() {
  const { toast } = useToast();
  const list = useCandidateProfiles();
  const live = useLiveProfileViews(list.refetch);
  const [dialog, setDialog] = useState<{ open: boolean; editing: CandidateProfile | null }>({ open: false, editing: null });
  const [deleting, setDeleting] = useState<CandidateProfile | null>(null);
  const [sharing, setSharing] = useState<CandidateProfile | null>(null);
  const [busy, setBusy] = useState(false);
  const page = list.data;
  const clients = useProfileClients(page?.profiles);

  async function write(action: () => Promise<void>, success: string): Promise<boolean> {
    setBusy(true);
    try {
      await action();
      toast({ title: 'Success', description: success });
      return true;
    } catch (e) {
      toast({ title: 'Error', description: (e as Error).message, variant: 'destructive' });
      return false;
    } finally {
      setBusy(false);
      await list.refetch();
    }
  }

  async function save(input: ProfileInput): Promise<boolean> {
    const editing = dialog.editing;
    const ok = editing
      ? await write(() => updateProfile(editing.id, { ...input, candidate_id: undefined } as Omit<ProfileInput, 'candidate_id'>), 'Candidate profile updated successfully')
      : await write(() => createProfile(input), 'Candidate profile created successfully');
    if (ok) setDialog({ open: false, editing: null });
    return ok;
  }

  async function copy(p: CandidateProfile) {
    if (await copyText(shareLink(p.slug))) toast({ title: 'Link Copied', description: 'Share link copied to clipboard' });
    else toast({ title: 'Error', description: `Copy this link: ${shareLink(p.slug)}`, variant: 'destructive' });
  }

  // The range of the rows on screen (the server's offset: the text changes when the rows do).
  const shown = page?.page_offset ?? 0;
  const from = page && page.matching > 0 ? shown + 1 : 0;
  const to = page ? Math.min(shown + PAGE_SIZE, page.matching) : 0;
  return (
    <>
      <div className="toolbar">
        <div className="admin-panel__title">
          <p className="muted" data-testid="profile-count" aria-live="polite">
            {page ? `${page.total_profiles} ${page.total_profiles === 1 ? 'profile' : 'profiles'}` : 'Loading...'}
            {page && list.term.trim() ? ` · ${page.matching} matching “${list.term.trim()}”` : ''}
          </p>
          <LiveBadge live={live} />
        </div>
        <div className="admin-hero__actions">
          <ButtonLink to="/admin/candidates/analytics" variant="outline">
            View Analytics
          </ButtonLink>
          <Button onClick={() => setDialog({ open: true, editing: null })}>Add New Profile</Button>
        </div>
      </div>
      <div className="search-box">
        <label htmlFor="candidate-search" className="visually-hidden">
          Search candidates by name, e-mail or location
        </label>
        <input id="candidate-search" type="search" placeholder="Search candidates..." value={list.search} onChange={(e) => list.setSearch(e.target.value)} />
      </div>
      {list.error && <p role="alert" className="field__error">{list.error}</p>}
      {!page ? (
        <p className="muted">Loading...</p>
      ) : (
        <CandidatesTable
          profiles={page.profiles}
          busy={busy}
          onEdit={(p) => setDialog({ open: true, editing: p })}
          onCopy={(p) => void copy(p)}
          onToggle={(p) => void write(() => setProfileStatus(p.id, p.status === 'active' ? 'inactive' : 'active'), 'Candidate profile updated successfully')}
          onDelete={setDeleting}
          onShare={setSharing}
          clients={clients.byProfile}
        />
      )}
      {page && page.matching > PAGE_SIZE && (
        <nav className="pagination" aria-label="Candidate pages">
          <span>
            Showing {from}–{to} of {page.matching}
          </span>
          <span className="btn-row">
            <Button variant="outline" size="sm" disabled={shown === 0} onClick={() => list.setOffset(Math.max(0, shown - PAGE_SIZE))}>
              Previous
            </Button>
            <Button variant="outline" size="sm" disabled={to >= page.matching} onClick={() => list.setOffset(shown + PAGE_SIZE)}>
              Next
            </Button>
          </span>
        </nav>
      )}
      <ProfileDialog open={dialog.open} editing={dialog.editing} onClose={() => setDialog({ open: false, editing: null })} onSave={save} />
      <SharingDialog
        profile={sharing}
        onClose={() => {
          setSharing(null);
          void clients.refetch();
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete candidate profile?"
        description={deleting ? `This permanently deletes ${deleting.candidate_id} and its view history. Its share link will stop working. This action cannot be undone.` : ''}
        confirmLabel="Delete"
        onCancel={() => setDeleting(null)}
        onConfirm={async () => {
          const p = deleting;
          setDeleting(null);
          if (p) await write(() => deleteProfile(p.id), 'Candidate deleted successfully');
        }}
        testId="delete-profile-dialog"
      />
    </>
  );
}

export default function AdminCandidatesPage() {
  return (
    <AdminPage title="Candidate Profiles" subtitle="Manage and share candidate profiles with clients." path="/admin/candidates" back={{ to: '/admin', label: 'Admin Dashboard' }}>
      <Candidates />
    </AdminPage>
  );
}
