import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// A renderer form validates through the one helper (components/zod-form.ts): @mantine/form checked by a
// zod schema of shared/, the one the server parses with, so the screen and the server say the same words.
// A form that checks its input by hand, or wires @mantine/form itself, is what this test refuses.
const root = path.resolve(import.meta.dirname, '../../..');
const rendererSrc = path.join(root, 'desktop/renderer/src');
const HELPER = 'components/zod-form.ts';

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
  it('validate through useZodForm', () => {
    const found = Object.entries(renderer())
      .map(([file, code]) => [file, handRolled(file, code)])
      .filter(([, why]) => why !== null)
      .map(([file, why]) => `${file}: ${why}`);
    expect(found).toEqual([]);
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
