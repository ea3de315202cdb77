// Mantine's complete stylesheet, for the lazily loaded pages (dashboard, sign-in, errors). The entry
// imports only what the landing page uses (main.tsx), which keeps the first visit small; every other
// page waits for this sheet before it renders, so it never shows unstyled. Both are the layered builds
// (@layer mantine), so loading the full sheet after the subset changes no precedence.
import '@mantine/core/styles.layer.css';
