// Previous / Next under a server-paged table, with the range on screen ('Showing 26–50 of 120'); nothing when the
// whole list fits on one page.
import { Button } from '@/components/ui/button';

type PagerProps = { total: number; offset: number; pageSize: number; onOffset: (offset: number) => void; label: string; testId?: string };

export function Pager({ total, offset, pageSize, onOffset, label, testId }: PagerProps) {
  if (total <= pageSize && offset === 0) return null;
  const to = Math.min(offset + pageSize, total);
  return (
    <nav className="pagination" aria-label={label}>
      <span data-testid={testId}>
        Showing {total === 0 ? 0 : offset + 1}–{to} of {total}
      </span>
      <span className="btn-row">
        <Button variant="outline" size="sm" disabled={offset === 0} onClick={() => onOffset(Math.max(0, offset - pageSize))}>
          Previous
        </Button>
        <Button variant="outline" size="sm" disabled={to >= total} onClick={() => onOffset(offset + pageSize)}>
          Next
        </Button>
      </span>
    </nav>
  );
}
