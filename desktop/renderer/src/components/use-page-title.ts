import { useDocumentTitle } from '@mantine/hooks';

const APP_NAME = 'Cairn';

/** Sets document.title to "<title> · Cairn" (or just "Cairn"). */
export function usePageTitle(title?: string): void {
  useDocumentTitle(title ? `${title} · ${APP_NAME}` : APP_NAME);
}
