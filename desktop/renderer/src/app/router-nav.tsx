import type { ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { NavProvider } from '../lib/nav';

/** Inside the router: the app's links and location hooks answered by react-router. */
export function RouterNav({ children }: { children: ReactNode }) {
  const location = useLocation();
  const navigate = useNavigate();
  return <NavProvider value={{ location, navigate: (to) => void navigate(to) }}>{children}</NavProvider>;
}
