// The progress bar: 'Step N of 5' and the rounded percent complete (step number / 5).
import { STEP_COUNT, STEP_TITLES } from '@/lib/cv/model';

export function WizardProgress({ step }: { step: number }) {
  const percent = Math.round(((step + 1) / STEP_COUNT) * 100);
  return (
    <div className="wizard-progress">
      <div className="wizard-progress__labels">
        <span>
          Step {step + 1} of {STEP_COUNT}
        </span>
        <span>{percent}% complete</span>
      </div>
      <div className="wizard-progress__track" role="progressbar" aria-label={`CV progress: ${STEP_TITLES[step]}`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
        <div className="wizard-progress__bar" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
