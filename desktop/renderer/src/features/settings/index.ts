export { settingsQueries, useSaveSettings } from './queries';

/** Its pages, each loaded when its route is visited. */
export const settingsPages = {
  SettingsPage: () => import('./settings-page').then((m) => m.SettingsPage),
};
