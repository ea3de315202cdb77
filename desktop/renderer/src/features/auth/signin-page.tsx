import { useEffect, useMemo, useRef, useState } from 'react';
import { Button, Divider, Input, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconBrandGithub, IconBrandGitlab, IconBrandGoogle, IconMail } from '@tabler/icons-react';
import HCaptcha from '@hcaptcha/react-hcaptcha';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { authErrorReason, emailSignInSchema, oauthProviders, providerLabels, type OAuthProvider } from '../../../../../shared/auth';
import { messages } from '../../../../../shared/messages';
import { safeRedirect } from '../../../../../shared/redirect';
import { isAppRoute } from '../../../../../shared/routes';
import { apiErrorText } from '../../api/client';
import { ErrorView } from '../../components/error-view';
import { useZodForm } from '../../components/zod-form';
import { PageLoader } from '../../components/page-loader';
import { usePageTitle } from '../../components/use-page-title';
import { meQueries } from '../account/index';
import { authQueries, useEmailSignIn } from './queries';
import { DesktopSignIn } from './desktop-sign-in';
import { desktopBridge } from '../../lib/desktop';
import type { VerifyRequestState } from './verify-request-page';

const providerIcons: Record<OAuthProvider, typeof IconBrandGithub> = {
  github: IconBrandGithub,
  google: IconBrandGoogle,
  gitlab: IconBrandGitlab,
};

const EMAIL_ERRORS: ReadonlySet<string> = new Set([messages.signIn.emailEmpty, messages.signIn.emailInvalid]);

/** Goes to a same-origin path: client routes through the router, server paths by a full page load. */
function useGoTo() {
  const navigate = useNavigate();
  return (target: string) => {
    const path = target.split(/[?#]/)[0] ?? '/';
    if (isAppRoute(path)) navigate(target, { replace: true });
    else window.location.replace(target);
  };
}

export function SignInPage() {
  usePageTitle('Sign in');
  const [searchParams] = useSearchParams();
  const redirect = safeRedirect(searchParams.get('redirect'));
  const errorCode = searchParams.get('error');
  const goTo = useGoTo();

  const session = useQuery(meQueries.session());
  const providers = useQuery(authQueries.providers());

  // ?error=<code> from a failed provider or e-mail-link sign-in: say why, once.
  const shownError = useRef<string | null>(null);
  useEffect(() => {
    if (!errorCode || shownError.current === errorCode) return;
    shownError.current = errorCode;
    notifications.show({ color: 'red', title: 'Sign-in error', message: authErrorReason(errorCode) });
  }, [errorCode]);

  const signedIn = !!session.data;
  useEffect(() => {
    if (signedIn) goTo(redirect);
    // goTo is stable in behaviour; re-running on its identity would only repeat the same navigation.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [signedIn, redirect]);

  if (session.isPending || signedIn || providers.isPending) return <PageLoader label="Loading sign-in options…" />;
  if (providers.isError) return <ErrorView error={providers.error} withRefresh />;

  // The desktop app signs in through the system browser: an e-mail link would open there, and providers refuse
  // embedded browsers.
  if (desktopBridge() !== null) {
    return (
      <Paper withBorder p={{ base: 'md', xs: 'xl' }}>
        <Stack gap="lg">
          <Title order={1} size="h2">
            Sign in to Cairn
          </Title>
          <DesktopSignIn />
        </Stack>
      </Paper>
    );
  }

  const options = providers.data;
  const enabledProviders = oauthProviders.filter((p) => options[p]);

  return (
    <Paper withBorder p={{ base: 'md', xs: 'xl' }}>
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={1} size="h2">
            Sign in to Cairn
          </Title>
          <Text c="dimmed">Enter your email and we will send you a link to sign in.</Text>
        </Stack>
        <EmailSignInForm captchaSiteKey={options.captchaSiteKey} callbackUrl={redirect} />
        {enabledProviders.length > 0 && (
          <>
            <Divider label="or" labelPosition="center" />
            <Stack gap="sm">
              {enabledProviders.map((provider) => {
                const Icon = providerIcons[provider];
                return (
                  // A plain link: the provider flow is a full page navigation through the server.
                  <Button
                    key={provider}
                    component="a"
                    href={`/auth/signin/${provider}?redirect=${encodeURIComponent(redirect)}`}
                    variant="default"
                    fullWidth
                    leftSection={<Icon size={18} aria-hidden />}
                  >
                    Sign in with {providerLabels[provider]}
                  </Button>
                );
              })}
            </Stack>
          </>
        )}
      </Stack>
    </Paper>
  );
}

function EmailSignInForm({ captchaSiteKey, callbackUrl }: { captchaSiteKey: string | null; callbackUrl: string }) {
  const navigate = useNavigate();
  const signIn = useEmailSignIn();
  const captchaEnabled = captchaSiteKey !== null;
  const schema = useMemo(() => emailSignInSchema(captchaEnabled), [captchaEnabled]);
  // The captcha's token is a value of the form too, set by the widget, so its error shows like a field's.
  const { form, onSubmit } = useZodForm(schema, { email: '', captchaToken: null as string | null, callbackUrl });
  const [captchaLoadFailed, setCaptchaLoadFailed] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const captchaRef = useRef<HCaptcha>(null);

  const resetCaptcha = () => {
    if (!captchaEnabled) return;
    captchaRef.current?.resetCaptcha();
    form.setFieldValue('captchaToken', null);
  };

  const submit = onSubmit(
    ({ email, captchaToken }) => {
      const body = { email, captchaToken: captchaToken ?? null, callbackUrl };
      signIn.mutate(body, {
        onSuccess: () => navigate('/auth/verify-request', { state: { email: body.email } satisfies VerifyRequestState }),
        onError: (error) => {
          // An hCaptcha token is good for one check only.
          resetCaptcha();
          const text = apiErrorText(error);
          // Said once: beside the field it concerns, else as a toast.
          if (text && EMAIL_ERRORS.has(text)) form.setFieldError('email', text);
          else if (text === messages.signIn.captchaRequired) form.setFieldError('captchaToken', text);
          else notifications.show({ color: 'red', title: 'Sign-in failed', message: text ?? messages.signIn.genericError });
        },
      });
    },
    (errors) => {
      if (errors.email) emailRef.current?.focus();
    },
  );

  const captchaErrorId = 'signin-captcha-error';
  const captchaError =
    form.errors.captchaToken ??
    (captchaLoadFailed ? 'The captcha could not be loaded. Check your connection and reload the page.' : undefined);

  return (
    <form
      onSubmit={(event) => {
        if (signIn.isPending) event.preventDefault();
        else submit(event);
      }}
      noValidate
    >
      <Stack gap="md">
        <TextInput
          ref={emailRef}
          label="Email"
          name="email"
          type="email"
          inputMode="email"
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
          {...form.getInputProps('email')}
          disabled={signIn.isPending}
        />
        {captchaEnabled && (
          <div>
            <div aria-describedby={captchaError ? captchaErrorId : undefined} style={{ minHeight: 78, maxWidth: '100%', overflowX: 'auto' }}>
              <HCaptcha
                ref={captchaRef}
                sitekey={captchaSiteKey}
                sentry={false}
                onVerify={(token) => {
                  form.setFieldValue('captchaToken', token);
                  setCaptchaLoadFailed(false);
                }}
                onExpire={() => form.setFieldValue('captchaToken', null)}
                onError={(event) => {
                  form.setFieldValue('captchaToken', null);
                  if (event.startsWith('script-')) setCaptchaLoadFailed(true);
                }}
              />
            </div>
            {captchaError && (
              <Input.Error id={captchaErrorId} mt={4} role="alert">
                {captchaError}
              </Input.Error>
            )}
          </div>
        )}
        <Button type="submit" fullWidth loading={signIn.isPending} leftSection={<IconMail size={18} aria-hidden />}>
          Sign in with Email
        </Button>
      </Stack>
    </form>
  );
}
