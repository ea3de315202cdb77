import { useMemo } from 'react';
import { Button, Group, Stack, TextInput } from '@mantine/core';
import { z, type ZodType } from 'zod';
import { useZodForm } from './zod-form';

interface NameFormProps {
  label: string;
  initialName: string;
  /** The shared zod schema of the name (trims, limits, gives the spec's messages). */
  schema: ZodType<string, string>;
  onSave: (name: string) => void;
  saving?: boolean;
  /** Why the name cannot be changed; the field is read-only when set. */
  disabledReason?: string | null;
  submitLabel?: string;
}

/** One name field with client validation from the shared schema and a Save button. */
export function NameForm({ label, initialName, schema, onSave, saving = false, disabledReason = null, submitLabel = 'Save' }: NameFormProps) {
  const fields = useMemo(() => z.object({ name: schema }), [schema]);
  const { form, onSubmit } = useZodForm(fields, { name: initialName });
  const locked = !!disabledReason;
  const save = onSubmit(({ name }) => onSave(name));

  return (
    <form
      onSubmit={(event) => {
        // Nothing to check while the name cannot be changed or is being saved.
        if (locked || saving) event.preventDefault();
        else save(event);
      }}
      noValidate
    >
      <Stack gap="xs">
        <TextInput
          label={label}
          {...form.getInputProps('name')}
          readOnly={locked}
          description={disabledReason}
          maxLength={200}
        />
        {!locked && (
          <Group justify="flex-end">
            <Button type="submit" loading={saving} disabled={form.values.name.trim() === initialName.trim()}>
              {submitLabel}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
