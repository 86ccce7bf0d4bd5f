// The five steps of the wizard (spec §2 CV builder), every input bound to the draft.
import type { ReactNode } from 'react';
import { fieldId, LIMITS, type CvDraft, type Education, type Experience, type PersonalInfo } from '@/lib/cv/model';
import { EntryControls } from './entry-controls';
import { MonthField } from './month-field';
import { TextField } from './text-field';

export type StepProps = {
  draft: CvDraft;
  change: (fn: (d: CvDraft) => CvDraft) => void;
  problems: Map<string, string>;
  onMove: (list: 'experience' | 'education', index: number, delta: -1 | 1) => void;
  onRemove: (list: 'experience' | 'education', index: number) => void;
  onAdd: (list: 'experience' | 'education') => void;
};

export function PersonalStep({ draft, change, problems }: StepProps) {
  const set = (k: keyof PersonalInfo) => (v: string) => change((d) => ({ ...d, personalInfo: { ...d.personalInfo, [k]: v } }));
  const p = draft.personalInfo;
  return (
    <div className="field-row">
      <TextField id={fieldId.fullName} label="Full Name" required value={p.fullName} onChange={set('fullName')} problem={problems.get(fieldId.fullName)} autoComplete="name" />
      <TextField id={fieldId.email} label="Email" type="email" required value={p.email} onChange={set('email')} problem={problems.get(fieldId.email)} maxLength={LIMITS.email} autoComplete="email" />
      <TextField id={fieldId.phone} label="Phone" type="tel" value={p.phone} onChange={set('phone')} maxLength={LIMITS.phone} autoComplete="tel" />
      <TextField id={fieldId.location} label="Location" value={p.location} onChange={set('location')} placeholder="e.g. Manchester" autoComplete="address-level2" />
    </div>
  );
}

export function SummaryStep({ draft, change }: StepProps) {
  return (
    <TextField
      id={fieldId.summary}
      label="Professional Summary"
      rows={6}
      maxLength={LIMITS.long}
      value={draft.summary}
      onChange={(v) => change((d) => ({ ...d, summary: v }))}
      hint="Tip: keep it to 3-4 sentences about your experience, specialism and what you are looking for next."
    />
  );
}

function ExperienceEntry({ entry, index, props }: { entry: Experience; index: number; props: StepProps }) {
  const { draft, change, problems } = props;
  const set = (k: keyof Experience) => (v: string) =>
    change((d) => ({ ...d, experience: d.experience.map((e) => (e.id === entry.id ? { ...e, [k]: v } : e)) }));
  const id = (k: keyof Experience) => fieldId.experience(entry.id, k);
  const label = `position ${index + 1}`;
  return (
    <fieldset className="entry" data-testid="experience-entry">
      <legend>Position {index + 1}</legend>
      <EntryControls idPrefix={`cv-exp-${entry.id}`} label={label} index={index} count={draft.experience.length} onMove={(delta) => props.onMove('experience', index, delta)} onRemove={() => props.onRemove('experience', index)} />
      <div className="field-row">
        <TextField id={id('title')} label="Job Title" required value={entry.title} onChange={set('title')} problem={problems.get(id('title'))} />
        <TextField id={id('company')} label="Company" required value={entry.company} onChange={set('company')} problem={problems.get(id('company'))} />
        <MonthField id={id('startDate')} label="Start Date" name={`the start date of ${label}`} value={entry.startDate} onChange={set('startDate')} />
        <MonthField id={id('endDate')} label="End Date" name={`the end date of ${label}`} value={entry.endDate} onChange={set('endDate')} emptyText="Present" problem={problems.get(id('endDate'))} hint="Leave empty if this is your current role (shown as Present)." />
      </div>
      <TextField id={id('description')} label="Description" rows={4} maxLength={LIMITS.long} value={entry.description} onChange={set('description')} />
    </fieldset>
  );
}

/** A list step: its entries, a note when there are none, and the add button (at most LIMITS.entries). */
function EntryList({ props, list, empty, addLabel, children }: { props: StepProps; list: 'experience' | 'education'; empty: string; addLabel: string; children: ReactNode }) {
  return (
    <div className="stack">
      {props.draft[list].length === 0 && <p className="muted">{empty}</p>}
      {children}
      <button type="button" className="btn btn--outline" data-add={list} onClick={() => props.onAdd(list)} disabled={props.draft[list].length >= LIMITS.entries}>
        {addLabel}
      </button>
    </div>
  );
}

export function ExperienceStep(props: StepProps) {
  return (
    <EntryList props={props} list="experience" empty="No positions yet." addLabel="+ Add Another Position">
      {props.draft.experience.map((e, i) => (
        <ExperienceEntry key={e.id} entry={e} index={i} props={props} />
      ))}
    </EntryList>
  );
}

function EducationEntry({ entry, index, props }: { entry: Education; index: number; props: StepProps }) {
  const { draft, change, problems } = props;
  const set = (k: keyof Education) => (v: string) =>
    change((d) => ({ ...d, education: d.education.map((e) => (e.id === entry.id ? { ...e, [k]: v } : e)) }));
  const id = (k: keyof Education) => fieldId.education(entry.id, k);
  return (
    <fieldset className="entry" data-testid="education-entry">
      <legend>Qualification {index + 1}</legend>
      <EntryControls idPrefix={`cv-edu-${entry.id}`} label={`qualification ${index + 1}`} index={index} count={draft.education.length} onMove={(delta) => props.onMove('education', index, delta)} onRemove={() => props.onRemove('education', index)} />
      <div className="field-row">
        <TextField id={id('degree')} label="Degree/Qualification" required value={entry.degree} onChange={set('degree')} problem={problems.get(id('degree'))} />
        <TextField id={id('institution')} label="Institution" required value={entry.institution} onChange={set('institution')} problem={problems.get(id('institution'))} />
        <TextField id={id('year')} label="Year" type="number" value={entry.year} onChange={(v) => set('year')(v.replace(/\D/g, '').slice(0, 4))} maxLength={4} problem={problems.get(id('year'))} />
      </div>
    </fieldset>
  );
}

export function EducationStep(props: StepProps) {
  return (
    <EntryList props={props} list="education" empty="No qualifications yet." addLabel="+ Add Another Qualification">
      {props.draft.education.map((e, i) => (
        <EducationEntry key={e.id} entry={e} index={i} props={props} />
      ))}
    </EntryList>
  );
}

export function SkillsStep({ draft, change }: StepProps) {
  return (
    <TextField
      id={fieldId.skills}
      label="Skills"
      rows={4}
      maxLength={LIMITS.long}
      value={draft.skills}
      onChange={(v) => change((d) => ({ ...d, skills: v }))}
      hint="Separate skills with commas, e.g. Argus Enterprise, lease negotiation, stakeholder management."
    />
  );
}

export const STEPS = [PersonalStep, SummaryStep, ExperienceStep, EducationStep, SkillsStep];
