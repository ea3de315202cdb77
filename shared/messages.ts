// Every text the product spec quotes, word for word. UI and tests import from here so they never drift.
export const messages = {
  signIn: {
    emailEmpty: 'Email is empty',
    emailInvalid: 'Email is not valid',
    captchaRequired: 'Please check the checkbox',
    genericError: 'Error while signing in. Please contact our support.',
  },
  errorView: {
    title: 'Oops! Something went wrong.',
    notFoundTitle: 'Not found',
    notFoundText: 'It does not exist, or it is not shared with you.',
  },
  project: {
    nameEmpty: 'Project name is empty',
  },
  permission: {
    // deniedMessages (shared/permissions.ts) answers projects.add, webhooks.add and invites.add with it.
    createResource: (resource: string) =>
      `You don't have permission to create a new ${resource} in this workspace.`,
  },
  deletePopup: {
    warning: 'This will permanently delete the resource.',
    inputEmpty: 'Input is empty',
    button: 'Delete permanently',
  },
  deleteEndpoint: {
    confirm: 'Yes, delete the endpoint',
    cancel: 'No, keep the endpoint',
  },
  submitEndpoint: {
    endpointEmpty: 'Endpoint is empty',
    urlInvalid: 'URL is not valid',
    addressEmpty: 'Address is empty',
    addressInvalid: 'Address format is not valid',
  },
  metamask: {
    addError: 'Error while adding milkomeda to MetaMask. Please contact our support.',
    notInstalled: 'Please install the MetaMask browser extension',
  },
  preferences: {
    saved: 'Your preferences have been successfully updated.',
    failed:
      'Your preferences could not be saved. If the issue persists, please contact Customer Support.',
  },
  deploy: {
    newVersion: 'New version is available! Please refresh the page.',
  },
  cookieBanner:
    'This website uses cookies to improve user experience. By using our website you consent to all cookies in accordance with our Cookie Policy.',
  billing: {
    unpaidInvoice: 'You cannot cancel/change your subscription while having an unpaid invoice.',
    /** The spec's 'Please remove N projects, N webhooks and N workspaces to match the {plan} plan', in English: counted words, no zero counts. */
    removeToMatch: (projects: number, webhooks: number, workspaces: number, plan: string) => {
      const parts = ([[projects, 'project'], [webhooks, 'webhook'], [workspaces, 'workspace']] as const)
        .filter(([n]) => n > 0)
        .map(([n, word]) => `${n} ${word}${n === 1 ? '' : 's'}`);
      const list = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : (parts[0] ?? '');
      return `Please remove ${list} to match the ${plan} plan`;
    },
    downgradeConfirm: 'Yes, downgrade the subscription',
    downgradeCancel: 'No, keep the subscription',
    upgradeConfirm: 'Yes, upgrade the subscription',
    upgradeText: (plan: string) => `Your subscription will be upgraded to the ${plan} plan, effective immediately.`,
    downgradeText: (plan: string) =>
      `Your subscription will be downgraded to the ${plan} plan, with its limited calls and storage, effective immediately.`,
  },
  stats: {
    waiting: 'Waiting for the first request...',
    graphError: 'Error while fetching the graph data',
    top: 'TOP 10',
    locked: 'See more detailed stats',
    upgrade: 'Upgrade to DEVELOPER Plan',
  },
  webhook: {
    required: 'The field is required',
    invalidUrl: 'Invalid URL format',
    confirmations: 'Enter a number between 0 and 5',
    created: 'Webhook created!',
    updated: 'Webhook updated!',
  },
  maintenance: {
    title: 'Maintenance Mode',
  },
} as const;
