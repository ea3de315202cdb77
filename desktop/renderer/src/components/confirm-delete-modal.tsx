import { useState, type FormEvent } from 'react';
import { Alert, Button, Checkbox, Code, Group, Stack, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconTrash } from '@tabler/icons-react';
import { messages } from '../../../../shared/messages';
import { ModalDialog } from './modal-dialog';

const CONFIRM_MISMATCH = 'The text you typed does not match.';
const CONFIRM_CHECKBOX_REQUIRED = 'Please tick the box to confirm.';

interface ConfirmDeleteModalProps {
  opened: boolean;
  onClose: () => void;
  /** Runs once the typed text (and the checkbox, if any) confirm the deletion. */
  onConfirm: () => void;
  /** What the user must type, e.g. the project or workspace name. Compared after trimming. */
  confirmation: string;
  title?: string;
  warning?: string;
  buttonLabel?: string;
  /** An extra checkbox the user must tick, e.g. to acknowledge what else is removed. */
  checkbox?: string;
  loading?: boolean;
}

/** The type-to-confirm delete popup (spec section 2). The form unmounts with the dialog, so it opens empty each time. */
export function ConfirmDeleteModal({ opened, onClose, title = 'Delete permanently?', ...form }: ConfirmDeleteModalProps) {
  return (
    <ModalDialog opened={opened} onClose={onClose} title={title}>
      <ConfirmDeleteForm onClose={onClose} {...form} />
    </ModalDialog>
  );
}

function ConfirmDeleteForm({
  onClose,
  onConfirm,
  confirmation,
  warning = messages.deletePopup.warning,
  buttonLabel = messages.deletePopup.button,
  checkbox,
  loading = false,
}: Omit<ConfirmDeleteModalProps, 'opened' | 'title'>) {
  const [typed, setTyped] = useState('');
  const [checked, setChecked] = useState(false);
  const [inputError, setInputError] = useState<string | null>(null);
  const [checkboxError, setCheckboxError] = useState<string | null>(null);

  // The button stays disabled until the text matches (and the box is ticked); Enter still says what is missing.
  const ready = typed.trim() !== '' && typed.trim() === confirmation.trim() && (!checkbox || checked);

  /** Shows what is missing; true when the deletion may go ahead. */
  const check = () => {
    const text = typed.trim();
    const nextInput = text === '' ? messages.deletePopup.inputEmpty : text !== confirmation.trim() ? CONFIRM_MISMATCH : null;
    const nextCheckbox = checkbox && !checked ? CONFIRM_CHECKBOX_REQUIRED : null;
    setInputError(nextInput);
    setCheckboxError(nextCheckbox);
    return !nextInput && !nextCheckbox;
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (loading) return;
    if (check()) onConfirm();
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />}>
          {warning}
        </Alert>
        <TextInput
          label="Confirmation"
          description={
            <span style={{ overflowWrap: 'anywhere' }}>
              To confirm, type <Code fw={700}>{confirmation.trim()}</Code>
            </span>
          }
          value={typed}
          onChange={(e) => {
            setTyped(e.currentTarget.value);
            if (inputError) setInputError(null);
          }}
          error={inputError}
          onKeyDown={(e) => {
            // A form whose button is disabled does not submit on Enter: say what is missing instead.
            if (e.key === 'Enter' && !ready) {
              e.preventDefault();
              check();
            }
          }}
          autoComplete="off"
          spellCheck={false}
          data-autofocus
        />
        {checkbox && (
          <Checkbox
            label={checkbox}
            checked={checked}
            onChange={(e) => {
              setChecked(e.currentTarget.checked);
              if (checkboxError) setCheckboxError(null);
            }}
            error={checkboxError}
          />
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={loading}>
            Cancel
          </Button>
          <Button type="submit" color="red" loading={loading} disabled={!ready} leftSection={<IconTrash size={16} aria-hidden />}>
            {buttonLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
