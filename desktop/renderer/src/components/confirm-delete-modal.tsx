import { useMemo } from 'react';
import { Alert, Button, Checkbox, Code, Group, Stack, TextInput } from '@mantine/core';
import { z } from 'zod';
import { IconAlertTriangle, IconTrash } from '@tabler/icons-react';
import { messages } from '../../../../shared/messages';
import { ModalDialog } from './modal-dialog';
import { useZodForm } from './zod-form';

const CONFIRM_MISMATCH = 'The text you typed does not match.';
const CONFIRM_CHECKBOX_REQUIRED = 'Please tick the box to confirm.';

/** What confirms a deletion: the typed text (trimmed) is the confirmation, and the box, if any, is ticked. */
const confirmSchema = (confirmation: string, withCheckbox: boolean) =>
  z.object({
    typed: z
      .string()
      .trim()
      .min(1, { error: messages.deletePopup.inputEmpty, abort: true })
      .refine((text) => text === confirmation.trim(), CONFIRM_MISMATCH),
    checked: withCheckbox ? z.literal(true, { error: CONFIRM_CHECKBOX_REQUIRED }) : z.boolean(),
  });

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
  const schema = useMemo(() => confirmSchema(confirmation, !!checkbox), [confirmation, checkbox]);
  const { form, onSubmit } = useZodForm(schema, { typed: '', checked: false });

  // The button stays disabled until the text matches (and the box is ticked); Enter still says what is missing.
  const ready = form.isValid() === true;
  const confirm = onSubmit(() => onConfirm());

  return (
    <form
      onSubmit={(event) => {
        if (loading) event.preventDefault();
        else confirm(event);
      }}
      noValidate
    >
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
          {...form.getInputProps('typed')}
          onKeyDown={(e) => {
            // A form whose button is disabled does not submit on Enter: say what is missing instead.
            if (e.key === 'Enter' && !ready) {
              e.preventDefault();
              form.validate();
            }
          }}
          autoComplete="off"
          spellCheck={false}
          data-autofocus
        />
        {checkbox && (
          <Checkbox
            label={checkbox}
            {...form.getInputProps('checked', { type: 'checkbox' })}
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
