import { Anchor, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { CONSENT_COOKIE } from '../../../../../shared/site';
import { usePageTitle } from '../../components/use-page-title';

// The cookies this server sets, as they are: the cookie banner links here unless COOKIE_POLICY_URL names another page.
const cookies: Array<{ name: string; purpose: string; lifetime: string }> = [
  { name: 'cairn.sid', purpose: 'Keeps you signed in. Only the server can read it (HttpOnly).', lifetime: 'Until you sign out, or 30 days (the operator may set another period)' },
  { name: 'cairn.csrf', purpose: 'Protects the sign-in form against requests forged by other sites. Only the server can read it (HttpOnly).', lifetime: 'Until you sign in or close the browser' },
  { name: CONSENT_COOKIE, purpose: 'Remembers that you accepted this notice, so it is not shown again.', lifetime: '1 year' },
];

export function CookiePolicyPage() {
  usePageTitle('Cookie Policy');
  return (
    <Stack gap="md" py="md">
      <Title order={1} size="h2">
        Cookie Policy
      </Title>
      <Text>
        This site uses only the cookies it needs to work. None of them tracks you across other sites, and none is shared with
        advertisers. When the operator turns on the sign-in captcha, hCaptcha may set its own cookies on the sign-in page.
      </Text>
      <Table.ScrollContainer minWidth={0}>
        <Table withTableBorder verticalSpacing="sm" layout="fixed">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w="30%">Cookie</Table.Th>
              <Table.Th>Why</Table.Th>
              <Table.Th w="28%">How long</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {cookies.map((c) => (
              <Table.Tr key={c.name}>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  <code>{c.name}</code>
                </Table.Td>
                <Table.Td>{c.purpose}</Table.Td>
                <Table.Td>{c.lifetime}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Text size="sm" c="dimmed">
        You can delete these cookies in your browser at any time; you will then be signed out. <Anchor component={Link} to="/">Back to the home page</Anchor>
      </Text>
    </Stack>
  );
}
