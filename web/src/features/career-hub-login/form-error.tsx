// An error under a form, announced to screen readers as it appears.
export function FormError({ id, message }: { id: string; message: string | null }) {
  return (
    <p id={id} className="form-error" role="alert">
      {message ?? ''}
    </p>
  );
}
