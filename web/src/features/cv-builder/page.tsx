// /career-hub/cv-builder (spec §2): noindex, login required. The five-step wizard with its progress bar, Back /
// Save Draft / Next / Complete, autosave with a visible status, the live preview in the chosen template beside
// the form (below it on narrow screens), and the exports. `?id=` opens a CV; `?template=` starts a new one.
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useToast } from '@/components/ui/toast';
import { CvPreview } from '@/components/cv/cv-preview';
import { isTemplateId } from '@/lib/cv/model';
import { CandidatePage } from '@/lib/candidate-page';
import { useCandidateAuth } from '@/lib/candidate-auth';
import { Seo } from '@/lib/seo';
import { ExportTools } from './components/export-tools';
import { SaveStatusLine } from './components/save-status';
import { TemplatePicker } from './components/template-picker';
import { Wizard } from './components/wizard';
import { useCvDocument } from './use-cv-document';
import { injectStyle } from '@/lib/inject-style';
import builderCss from './cv-builder.css?inline';

injectStyle('cv-builder', builderCss);

function Builder({ userId }: { userId: string }) {
  const [params] = useSearchParams();
  const template = params.get('template');
  const { doc, status, refusal, lastRefusal, loadError, update, flush } = useCvDocument(userId, isTemplateId(template) ? template : null);
  const { toast } = useToast();
  const navigate = useNavigate();
  const [finishing, setFinishing] = useState(false);

  if (loadError) {
    return (
      <div className="container section builder-top">
        <p role="alert">{loadError}</p>
      </div>
    );
  }
  if (!doc) {
    return (
      <div className="container section builder-top" aria-busy="true">
        <p className="muted">Loading...</p>
      </div>
    );
  }

  const finish = async () => {
    if (!doc.id) update((d) => ({ ...d })); // Save Draft before any edit: create the CV now
    setFinishing(true);
    const saved = await flush();
    setFinishing(false);
    if (!saved) {
      const reason = lastRefusal();
      const description = reason ?? 'Your changes are kept on this device and will be saved when the connection returns.';
      toast({ title: reason ? 'Not saved' : 'Not saved yet', description, variant: 'destructive' });
      return;
    }
    toast({ title: 'CV Saved', description: 'Your CV has been saved successfully.' });
    navigate('/career-hub/dashboard');
  };

  return (
    <div className="container builder builder-top">
      <div className="builder__form">
        <div className="builder__head">
          <h1>CV Builder</h1>
          <SaveStatusLine status={status} reason={refusal} />
        </div>
        <div className="field builder__title">
          <label htmlFor="cv-title">CV name</label>
          <input id="cv-title" maxLength={200} value={doc.title} onChange={(e) => update((d) => ({ ...d, title: e.target.value }))} />
        </div>
        <Wizard draft={doc.draft} change={(fn) => update((d) => ({ ...d, draft: fn(d.draft) }))} onFinish={finish} finishing={finishing} />
      </div>
      <aside className="builder__preview" aria-label="Preview and export">
        <TemplatePicker value={doc.draft.template} onChange={(t) => update((d) => ({ ...d, draft: { ...d.draft, template: t } }))} />
        <ExportTools draft={doc.draft} title={doc.title.trim() || 'My CV'} beforeExport={flush} />
        <div className="cv-print-target">
          <CvPreview draft={doc.draft} />
        </div>
      </aside>
    </div>
  );
}

function BuilderForUser() {
  const { user } = useCandidateAuth();
  return user ? <Builder userId={user.id} /> : null;
}

export default function CvBuilderPage() {
  return (
    <>
      <Seo title="CV Builder" description="Build your CV in five steps with live preview, autosave and PDF export." path="/career-hub/cv-builder" noindex />
      <CandidatePage requireLogin>
        <BuilderForUser />
      </CandidatePage>
    </>
  );
}
