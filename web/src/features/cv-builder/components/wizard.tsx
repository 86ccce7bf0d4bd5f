// The wizard: the current step's form (step 0–4, bounded), Back (disabled on step 1) / Save Draft / Next, and
// Complete on the last step. Complete checks the starred fields; what is missing is listed in an announced error
// summary whose links (and the first problem) take the focus to the field, on its step.
import { useEffect, useRef, useState } from 'react';
import { emptyEducation, emptyExperience, findProblems, move, STEP_COUNT, STEP_TITLES, type CvDraft, type Problem } from '@/lib/cv/model';
import { STEPS, type StepProps } from './steps';
import { WizardProgress } from './wizard-progress';

type Props = { draft: CvDraft; change: (fn: (d: CvDraft) => CvDraft) => void; onFinish: () => Promise<void>; finishing: boolean };

export function Wizard({ draft, change, onFinish, finishing }: Props) {
  const step = draft.step;
  const [problems, setProblems] = useState<Problem[]>([]);
  const [focusTarget, setFocusTarget] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const headingRef = useRef<HTMLHeadingElement>(null);
  const summaryRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!focusTarget) return;
    const el = focusTarget === 'heading' ? headingRef.current : focusTarget === 'summary' ? summaryRef.current : document.getElementById(focusTarget);
    el?.focus();
    setFocusTarget(null);
  }, [focusTarget, step]);

  const goTo = (next: number, focus = 'heading') => {
    change((d) => ({ ...d, step: Math.min(STEP_COUNT - 1, Math.max(0, next)) }));
    setFocusTarget(focus);
  };
  const recheck = (d: CvDraft) => problems.length && setProblems(findProblems(d));
  const stepProps: StepProps = {
    draft,
    change: (fn) => change((d) => {
      const next = fn(d);
      recheck(next);
      return next;
    }),
    problems: new Map(problems.map((p) => [p.fieldId, p.message])),
    onAdd: (list) => {
      const entry = list === 'experience' ? emptyExperience() : emptyEducation();
      change((d) => ({ ...d, [list]: [...d[list], entry] }));
      setFocusTarget(list === 'experience' ? `cv-exp-${entry.id}-title` : `cv-edu-${entry.id}-degree`);
    },
    onRemove: (list, index) => {
      change((d) => ({ ...d, [list]: d[list].filter((_, i) => i !== index) }));
      setAnnouncement(`${list === 'experience' ? 'Position' : 'Qualification'} ${index + 1} removed`);
      setFocusTarget('heading');
    },
    onMove: (list, index, delta) => {
      const entries = draft[list];
      const id = entries[index].id;
      change((d) => ({ ...d, [list]: move(d[list] as { id: string }[], index, delta) }));
      const kind = list === 'experience' ? 'Position' : 'Qualification';
      setAnnouncement(`${kind} ${index + 1} moved to place ${index + delta + 1}`);
      const edge = index + delta === 0 ? 'down' : index + delta === entries.length - 1 ? 'up' : delta < 0 ? 'up' : 'down';
      setFocusTarget(`cv-${list === 'experience' ? 'exp' : 'edu'}-${id}-${edge}`);
    },
  };

  const complete = async () => {
    const found = findProblems(draft);
    setProblems(found);
    if (found.length) {
      goTo(found[0].step, 'summary');
      return;
    }
    await onFinish();
  };

  const Step = STEPS[step];
  return (
    <div className="wizard">
      <WizardProgress step={step} />
      <div ref={summaryRef} tabIndex={-1} className="error-summary" role="alert" hidden={problems.length === 0}>
        {problems.length > 0 && (
          <>
            <p className="error-summary__title">Please complete the required fields:</p>
            <ul>
              {problems.map((p) => (
                <li key={p.fieldId}>
                  <a href={`#${p.fieldId}`} onClick={(e) => (e.preventDefault(), goTo(p.step, p.fieldId))}>
                    {STEP_TITLES[p.step]}: {p.message}
                  </a>
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
      <form className="wizard__step" onSubmit={(e) => (e.preventDefault(), step < STEP_COUNT - 1 ? goTo(step + 1) : void complete())} noValidate>
        <h2 ref={headingRef} tabIndex={-1} className="wizard__title">
          {STEP_TITLES[step]}
        </h2>
        <Step {...stepProps} />
        <p className="visually-hidden" aria-live="polite">
          {announcement}
        </p>
        <div className="wizard__nav">
          <button type="button" className="btn btn--outline" disabled={step === 0} onClick={() => goTo(step - 1)}>
            Back
          </button>
          <button type="button" className="btn btn--ghost" disabled={finishing} onClick={() => void onFinish()}>
            Save Draft
          </button>
          {step < STEP_COUNT - 1 ? (
            <button type="submit" className="btn btn--primary">
              Next
            </button>
          ) : (
            <button type="submit" className="btn btn--accent" disabled={finishing}>
              Complete
            </button>
          )}
        </div>
      </form>
    </div>
  );
}
