// The tick boxes of a list whose rows can be changed together: one in the header for every row on the page, one per
// row. Each names what it selects.
type Row = { id: string };

export function SelectAllHeader({ rows, selected, onToggleAll, label }: { rows: Row[]; selected: Set<string>; onToggleAll: (on: boolean) => void; label: string }) {
  return (
    <th scope="col" className="select-cell">
      <input type="checkbox" checked={rows.length > 0 && rows.every((r) => selected.has(r.id))} onChange={(e) => onToggleAll(e.target.checked)} aria-label={label} />
    </th>
  );
}

export function SelectCell({ id, selected, onToggle, label }: { id: string; selected: Set<string>; onToggle: (id: string) => void; label: string }) {
  return (
    <td className="select-cell" data-label="Select">
      <input type="checkbox" checked={selected.has(id)} onChange={() => onToggle(id)} aria-label={label} />
    </td>
  );
}
