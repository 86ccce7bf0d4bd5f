// An error under a form (or a list that failed to load), announced to screen readers as it appears. Its style comes
// with it: the Career Hub's styles join only the pages that use them (lib/inject-style.ts).
import { injectStyle } from '@/lib/inject-style';
import formErrorCss from '@/components/ui/form-error.css?inline';

injectStyle('form-error', formErrorCss);

export function FormError({ id, message }: { id?: string; message: string | null }) {
  return (
    <p id={id} className="form-error" role="alert">
      {message ?? ''}
    </p>
  );
}
