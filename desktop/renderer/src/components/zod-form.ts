import { useForm, type UseFormReturnType } from '@mantine/form';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import type { z } from 'zod';

/** A form's schema: an object of fields, or one whose transform turns the fields into the request. */
export type FormSchema = z.ZodType<unknown, Record<string, unknown>>;

/** A form made by useZodForm, for the parts of a long form that take it as a prop. */
export type ZodFormState<V> = UseFormReturnType<V>;

export interface ZodFormOptions {
  /**
   * For long forms whose Save waits on every field: a field is checked as it is left, and every message
   * showing is checked again as the values change (a rule may read other fields), so it follows the
   * typing instead of vanishing until the next submit.
   */
  checkAsLeft?: boolean;
}

export interface ZodForm<S extends FormSchema> {
  form: UseFormReturnType<z.input<S>>;
  /**
   * Wraps a submit handler: validates with the schema, shows the errors, and calls it with the parsed
   * values; onInvalid gets the errors shown (by field path) when the input does not pass.
   */
  onSubmit: (
    handler: (values: z.output<S>) => void,
    onInvalid?: (errors: Record<string, React.ReactNode>) => void,
  ) => (event?: React.FormEvent<HTMLFormElement>) => void;
}

/**
 * The one way a renderer form validates: @mantine/form checked by a zod schema of shared/, the same one
 * the server parses with, so both say the same words. Errors show on submit, the first one of each field,
 * and a field's error clears as it is edited (unless `checkAsLeft`). The handler gets the schema's output
 * (trimmed, defaulted), what the server will read.
 */
export function useZodForm<S extends FormSchema>(schema: S, initialValues: z.input<S>, options: ZodFormOptions = {}): ZodForm<S> {
  const form = useForm<z.input<S>>({
    mode: 'controlled',
    initialValues,
    validate: zod4Resolver(schema, { errorPriority: 'first' }),
    ...(options.checkAsLeft
      ? {
          validateInputOnBlur: true,
          // The values are already updated here; each check's result lands after the edited field's clearing.
          onValuesChange: () => {
            for (const path of Object.keys(form.errors)) form.validateField(path);
          },
        }
      : {}),
  });
  const onSubmit: ZodForm<S>['onSubmit'] = (handler, onInvalid) =>
    form.onSubmit(
      (values) => handler(schema.parse(values)),
      (errors) => onInvalid?.(errors),
    );
  return { form, onSubmit };
}
