// The template of this CV: the three free templates as a radio group (arrow keys move between them).
import type { TemplateId } from '@/lib/cv/model';
import { FREE_TEMPLATES } from '@/lib/cv/templates';

export function TemplatePicker({ value, onChange }: { value: TemplateId; onChange: (t: TemplateId) => void }) {
  return (
    <fieldset className="template-picker">
      <legend>Template</legend>
      {FREE_TEMPLATES.map((t) => (
        <label key={t.id} className="template-picker__option">
          <input type="radio" name="cv-template" value={t.id} checked={value === t.id} onChange={() => onChange(t.id)} />
          {t.name}
        </label>
      ))}
    </fieldset>
  );
}
