import type { ReactNode } from 'react';
import { Modal } from '@mantine/core';

interface ModalDialogProps {
  opened: boolean;
  title: ReactNode;
  /** Called when the user dismisses the dialog. Without it the dialog cannot be cancelled (no close button, Escape or outside click). */
  onClose?: () => void;
  children: ReactNode;
  size?: string | number;
}

/** The product's modal dialog: optionally cancellable, and it locks page scroll while open. */
export function ModalDialog({ opened, title, onClose, children, size = 'md' }: ModalDialogProps) {
  const cancellable = onClose !== undefined;
  return (
    <Modal
      opened={opened}
      onClose={onClose ?? (() => undefined)}
      title={title}
      size={size}
      centered
      lockScroll
      withCloseButton={cancellable}
      closeOnEscape={cancellable}
      closeOnClickOutside={cancellable}
      trapFocus
    >
      {children}
    </Modal>
  );
}
