import { useState, type FormEvent } from 'react';
import { Button, Group, Stack, TextInput } from '@mantine/core';
import type { ZodType } from 'zod';

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
  const [name, setName] = useState(initialName);
  const [error, setError] = useState<string | null>(null);
  const locked = !!disabledReason;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (locked || saving) return;
    const parsed = schema.safeParse(name);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'The name is not valid.');
      return;
    }
    setError(null);
    onSave(parsed.data);
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="xs">
        <TextInput
          label={label}
          value={name}
          onChange={(e) => {
            setName(e.currentTarget.value);
            if (error) setError(null);
          }}
          error={error}
          readOnly={locked}
          description={disabledReason}
          maxLength={200}
        />
        {!locked && (
          <Group justify="flex-end">
            <Button type="submit" loading={saving} disabled={name.trim() === initialName.trim()}>
              {submitLabel}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
