import { useState, type ReactNode } from 'react';

/**
 * A row action that opens a dialog: a link, and the dialog while it is open (mounted afresh each
 * time, so it starts from the row). `dialog` gets the function that closes it.
 */
export default function DialogAction({
  label,
  title,
  testId,
  dialog,
}: {
  label: ReactNode;
  title?: string;
  testId?: string;
  dialog: (close: () => void) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <a onClick={() => setOpen(true)} data-testid={testId} title={title}>
        {label}
      </a>
      {open && dialog(() => setOpen(false))}
    </>
  );
}
