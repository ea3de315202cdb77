// What `electron` resolves to in the unit tests. Outside Electron's runtime the package only names its
// binary (and is installed with the desktop tools, if at all), so every test that loads main-process or
// preload code replaces this module with vi.mock('electron', …); one that forgets fails here.
throw new Error("electron has no API outside Electron's runtime: replace it with vi.mock('electron', …)");
