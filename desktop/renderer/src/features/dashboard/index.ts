/** The signed-in frame (header, account menu, the sign-in guard), loaded with the first dashboard page. */
export const dashboardLayout = {
  SignedInLayout: () => import('./signed-in-layout').then((m) => m.SignedInLayout),
};
