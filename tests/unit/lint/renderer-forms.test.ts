import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// A renderer form validates through the one helper (components/zod-form.ts): @mantine/form checked by a
// zod schema of shared/, the one the server parses with, so the screen and the server say the same words.
// A form that checks its input by hand, or wires @mantine/form itself, is what this test refuses.
const root = path.resolve(import.meta.dirname, '../../..');
const rendererSrc = path.join(root, 'desktop/renderer/src');
const HELPER = 'components/zod-form.ts';

/**
 * Files that still check their input themselves, each with why. An entry whose file no longer needs it
 * fails the test, so the list only shrinks.
 */
const NOT_YET_ON_THE_HELPER: Record<string, string> = {
  // Already checked with the server's webhookInputSchema (form-model.ts), field by field as each is touched,
  // with nested condition rows; not yet moved onto @mantine/form.
  'features/webhooks/webhook-form.tsx': 'validated with webhookInputSchema through form-model.ts; not on the helper yet',
  'features/webhooks/form-model.ts': "the webhook form's validation, see webhook-form.tsx",
};

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [full] : [];
  });
}

/** Why a file's form does not go through the helper, or null when it does (or has no form). */
export function handRolled(file: string, code: string): string | null {
  if (file === HELPER) return null;
  if (/from ['"](@mantine\/form|mantine-form-zod-resolver)['"]/.test(code)) return 'wires @mantine/form itself instead of useZodForm';
  if (/\.safeParse\(/.test(code)) return 'checks input with safeParse by hand';
  const rendersForm = /<form\b|component=["']form["']/.test(code);
  if (rendersForm && !/\buseZodForm\(/.test(code)) return 'renders a form without useZodForm';
  if (/\buseZodForm\(/.test(code) && !/from ['"][./]*(components\/)?zod-form['"]/.test(code)) return 'calls a useZodForm that is not the helper';
  return null;
}

const renderer = () => Object.fromEntries(sources(rendererSrc).map((f) => [path.relative(rendererSrc, f).split(path.sep).join('/'), fs.readFileSync(f, 'utf8')]));

describe('renderer forms', () => {
  it('validate through useZodForm, outside the justified list', () => {
    const found = Object.entries(renderer())
      .filter(([file]) => !(file in NOT_YET_ON_THE_HELPER))
      .map(([file, code]) => [file, handRolled(file, code)])
      .filter(([, why]) => why !== null)
      .map(([file, why]) => `${file}: ${why}`);
    expect(found).toEqual([]);
  });

  it('list no file that no longer needs it', () => {
    const files = renderer();
    const stale = Object.keys(NOT_YET_ON_THE_HELPER).filter((file) => !files[file] || handRolled(file, files[file]) === null);
    expect(stale).toEqual([]);
  });

  it.each([
    ['a form with its own state and checks', "const [e, setE] = useState(''); const parsed = nameSchema.safeParse(name); return <form onSubmit={go}>…</form>;"],
    ['a form with no validation at all', 'return <form onSubmit={go}><TextInput /></form>;'],
    ['a Mantine component rendered as a form', 'return <Paper component="form" onSubmit={go}>…</Paper>;'],
    ['@mantine/form used directly', "import { useForm } from '@mantine/form'; const form = useForm({});"],
    ['a resolver wired by hand', "import { zod4Resolver } from 'mantine-form-zod-resolver';"],
  ])('refuse %s', (_, code) => {
    expect(handRolled('features/example/page.tsx', code)).not.toBeNull();
  });

  it('accept a form on the helper', () => {
    const code = "import { useZodForm } from '../../components/zod-form'; const { form, onSubmit } = useZodForm(s, v); return <form onSubmit={onSubmit(go)}>…</form>;";
    expect(handRolled('features/example/page.tsx', code)).toBeNull();
  });
});
