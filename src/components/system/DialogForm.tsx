import { ModalForm, type ModalFormProps } from '@ant-design/pro-components';

export type DialogFormProps<T> = Omit<ModalFormProps<T>, 'open' | 'onOpenChange' | 'trigger'> & {
  /** Cancelled, closed or saved: the owner unmounts the dialog. */
  onClose: () => void;
};

/**
 * The modal form of the system pages: open while mounted, `onClose` once it closes, and not closed by
 * a click beside it, so a stray click does not throw away what was typed.
 */
export default function DialogForm<T extends Record<string, unknown>>({ onClose, modalProps, ...rest }: DialogFormProps<T>) {
  return <ModalForm<T> open onOpenChange={(open) => !open && onClose()} modalProps={{ maskClosable: false, ...modalProps }} {...rest} />;
}
