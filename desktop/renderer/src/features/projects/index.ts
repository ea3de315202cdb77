/** Its pages, each loaded when its route is visited. */
export const projectsPages = {
  ProjectsPage: () => import('./projects-page').then((m) => m.ProjectsPage),
  ProjectPage: () => import('./project-page').then((m) => m.ProjectPage),
  ProjectSettingsPage: () => import('./project-settings-page').then((m) => m.ProjectSettingsPage),
};
