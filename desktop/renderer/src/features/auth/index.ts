/** Its pages, each loaded when its route is visited. */
export const authPages = {
  SignInPage: () => import('./signin-page').then((m) => m.SignInPage),
  SignOutPage: () => import('./signout-page').then((m) => m.SignOutPage),
  AuthErrorPage: () => import('./auth-error-page').then((m) => m.AuthErrorPage),
  VerifyRequestPage: () => import('./verify-request-page').then((m) => m.VerifyRequestPage),
};
